/** Small statistics helpers: the bench reports medians, so one noisy round cannot move a figure. */

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Nearest-rank percentile (0 < p <= 100); NaN for an empty list so a gap shows in the table. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) {
    return Number.NaN;
  }
  const sorted = [...values].sort((a, b) => a - b);
  if (p === 50 && sorted.length % 2 === 0) {
    // The usual median of an even count: the mean of the two middle values.
    const upper = sorted.length / 2;
    return ((sorted[upper - 1] as number) + (sorted[upper] as number)) / 2;
  }
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] as number;
}

export function ratio(numerator: number, denominator: number): number {
  return denominator === 0 ? Number.NaN : numerator / denominator;
}

/** A text that is no ISO 8601 duration this clock can add, with why. */
export class DurationError extends Error {
  override readonly name = 'DurationError';
}

const NUMBER = '(\\d{1,12}(?:[.,]\\d{1,9})?)';
// PnYnMnWnDTnHnMnS, every part optional, in this order; the sign of ISO 8601-2 is not taken.
const DURATION = new RegExp(
  `^P(?:${NUMBER}Y)?(?:${NUMBER}M)?(?:${NUMBER}W)?(?:${NUMBER}D)?` +
    `(?:T(?:${NUMBER}H)?(?:${NUMBER}M)?(?:${NUMBER}S)?)?$`,
);
const UNITS = ['years', 'months', 'weeks', 'days', 'hours', 'minutes', 'seconds'] as const;
// Years and months have no fixed length; a day is 24 hours (Africa/Lagos keeps no summer time).
const UNIT_MS = [undefined, undefined, 7 * 86_400_000, 86_400_000, 3_600_000, 60_000, 1_000];

/**
 * Milliseconds in an ISO 8601 duration such as `PT2H`, `P1DT30M`, `PT0.5S` or `P2W`: weeks,
 * days, hours, minutes and seconds; a fraction (point or comma) only on the last part given, as
 * the standard says. Years and months are refused: their length depends on the date.
 */
export function parseIsoDuration(text: string): number {
  const match = DURATION.exec(text);
  if (match === null || text === 'P' || text.endsWith('T')) {
    throw new DurationError(
      `"${text.slice(0, 40)}" is not an ISO 8601 duration such as PT2H, P1DT30M or PT90S.`,
    );
  }
  const parts = match.slice(1);
  const given = parts.flatMap((part, index) => (part === undefined ? [] : [index]));
  let total = 0;
  for (const index of given) {
    const part = parts[index] as string;
    if (/[.,]/.test(part) && index !== given[given.length - 1]) {
      throw new DurationError('Only the last part of a duration may have a fraction.');
    }
    const value = Number(part.replace(',', '.'));
    const unitMs = UNIT_MS[index];
    if (unitMs === undefined) {
      if (value !== 0) {
        throw new DurationError(
          `A duration in ${UNITS[index]} has no fixed length: give days (P30D) instead.`,
        );
      }
      continue;
    }
    total += value * unitMs;
  }
  return Math.round(total);
}

/**
 * A small reader of the Prometheus text exposition format (version 0.0.4), for the /metrics
 * tests: prom-client writes the format but does not read it.
 */
export interface Sample {
  /** The sample's own name: a histogram's are `<family>_bucket`, `_sum` and `_count`. */
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface Exposition {
  /** Each family's name and its `# TYPE` (counter, gauge, histogram, summary, untyped). */
  readonly types: ReadonlyMap<string, string>;
  readonly samples: readonly Sample[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/gy;

export function parseExposition(text: string): Exposition {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      continue;
    }
    if (line.startsWith('#')) {
      const type = /^# TYPE (\S+) (\S+)$/.exec(line);
      if (type !== null) {
        types.set(type[1] as string, type[2] as string);
      }
      continue;
    }
    const match = SAMPLE.exec(line);
    if (match === null) {
      throw new Error(`not a sample line: ${line}`);
    }
    samples.push({
      name: match[1] as string,
      labels: parseLabels(match[2] ?? '', line),
      value: parseValue(match[3] as string),
    });
  }
  return { types, samples };
}

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  LABEL.lastIndex = 0;
  while (LABEL.lastIndex < text.length) {
    const match = LABEL.exec(text);
    if (match === null) {
      throw new Error(`bad labels in: ${line}`);
    }
    labels[match[1] as string] = (match[2] as string).replace(/\\(.)/g, (_, escaped: string) =>
      escaped === 'n' ? '\n' : escaped,
    );
  }
  return labels;
}

function parseValue(text: string): number {
  const lower = text.toLowerCase();
  if (lower === 'nan') {
    return Number.NaN;
  }
  if (lower === '+inf' || lower === 'inf') {
    return Number.POSITIVE_INFINITY;
  }
  if (lower === '-inf') {
    return Number.NEGATIVE_INFINITY;
  }
  const value = Number(text);
  if (Number.isNaN(value)) {
    throw new Error(`not a sample value: ${text}`);
  }
  return value;
}

/** The value of the one sample with this name and (at least) these labels; undefined if none. */
export function sampleValue(
  exposition: Exposition,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const found = exposition.samples.filter(
    (sample) =>
      sample.name === name &&
      Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  if (found.length > 1) {
    throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  }
  return found[0]?.value;
}

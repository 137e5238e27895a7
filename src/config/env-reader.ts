import { type Kobo, nairaTextToKobo } from '../shared/money.ts';

/** Collects every configuration problem so the operator sees them all at once. */
export interface EnvReader {
  readonly env: NodeJS.ProcessEnv;
  readonly problems: string[];
}

interface StringOptions {
  readonly fallback?: string;
  readonly required?: boolean;
}

export function readEnvString(
  read: EnvReader,
  name: string,
  options: StringOptions,
): string | undefined {
  const raw = read.env[name];
  if (raw === undefined || raw.trim() === '') {
    if (options.required === true) {
      read.problems.push(`${name} is required`);
    }
    return options.fallback;
  }
  return raw.trim();
}

interface IntOptions {
  readonly fallback: number;
  readonly min?: number;
  readonly max?: number;
}

export function readEnvInt(read: EnvReader, name: string, options: IntOptions): number {
  const raw = readEnvString(read, name, {});
  if (raw === undefined) {
    return options.fallback;
  }
  const value = Number(raw);
  const min = options.min ?? Number.MIN_SAFE_INTEGER;
  const max = options.max ?? Number.MAX_SAFE_INTEGER;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    read.problems.push(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
    return options.fallback;
  }
  return value;
}

export function readEnvBoolean(read: EnvReader, name: string, fallback: boolean): boolean {
  const raw = readEnvString(read, name, {});
  if (raw === undefined) {
    return fallback;
  }
  if (raw === 'true' || raw === '1') {
    return true;
  }
  if (raw === 'false' || raw === '0') {
    return false;
  }
  read.problems.push(`${name} must be true or false, got "${raw}"`);
  return fallback;
}

/** A naira amount (at most two decimals) read through the money codec, as kobo. */
export function readEnvNaira(
  read: EnvReader,
  name: string,
  options: { readonly fallback: string; readonly min?: Kobo },
): Kobo {
  const raw = readEnvString(read, name, {}) ?? options.fallback;
  const kobo = nairaTextToKobo(raw);
  const min = options.min ?? 0n;
  if (kobo === undefined || kobo < min) {
    read.problems.push(
      `${name} must be naira (at most 2 decimals) of at least ${min / 100n}, got "${raw}"`,
    );
    return nairaTextToKobo(options.fallback) ?? 0n;
  }
  return kobo;
}

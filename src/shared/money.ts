/**
 * The one place where naira (the wire unit) and kobo (the ledger unit) meet.
 * Inside OpenIBS every amount is a bigint number of kobo; JSON carries naira numbers
 * with at most two decimals, as the published API does.
 */
export type Kobo = bigint;

export type NairaParseFailure = 'not_a_number' | 'too_many_decimals' | 'not_positive' | 'too_large';

export type NairaParseResult =
  | { readonly ok: true; readonly kobo: Kobo }
  | { readonly ok: false; readonly reason: NairaParseFailure };

const NAIRA_PATTERN = /^(\d+)(?:\.(\d{1,2}))?$/;

/**
 * Parses a naira amount as it arrives on the wire. Numbers are read through their shortest
 * decimal representation (what JSON.parse kept), never through float arithmetic.
 */
export function parseNaira(value: unknown, maxKobo: Kobo): NairaParseResult {
  const text = nairaText(value);
  if (text === undefined) {
    return { ok: false, reason: 'not_a_number' };
  }
  if (text.startsWith('-')) {
    return { ok: false, reason: 'not_positive' };
  }
  const kobo = nairaTextToKobo(text);
  if (kobo === undefined) {
    return { ok: false, reason: /^\d+\.\d{3,}$/.test(text) ? 'too_many_decimals' : 'not_a_number' };
  }
  if (kobo <= 0n) {
    return { ok: false, reason: 'not_positive' };
  }
  if (kobo > maxKobo) {
    return { ok: false, reason: 'too_large' };
  }
  return { ok: true, kobo };
}

/**
 * Naira written as a plain decimal with at most two decimals ("1500", "1500.5", "0"): kobo, or
 * undefined for anything else. The wire codec above and the configuration both read through it.
 */
export function nairaTextToKobo(text: string): Kobo | undefined {
  const match = NAIRA_PATTERN.exec(text);
  return match === null
    ? undefined
    : BigInt(match[1] ?? '0') * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
}

function nairaText(value: unknown): string | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) {
      return undefined;
    }
    // toString gives exponent notation below 1e-6 and above 1e21; both are invalid amounts.
    return value.toString();
  }
  // Exactly a decimal: no padding, exponents, hex or trailing dot (the pattern refuses them).
  if (typeof value === 'string' && value !== '') {
    return value;
  }
  return undefined;
}

/** Kobo to the naira JSON number the published API shows (e.g. 150050n -> 1500.5). */
export function koboToNaira(kobo: Kobo): number {
  const negative = kobo < 0n;
  const magnitude = negative ? -kobo : kobo;
  const text = `${magnitude / 100n}.${(magnitude % 100n).toString().padStart(2, '0')}`;
  const naira = Number(text);
  return negative ? -naira : naira;
}

/**
 * Kobo as naira text with exactly two decimals, for documents (statements): "1500.50", or
 * "1,500.50" grouped in thousands. Exact for any amount (no float on the way).
 */
export function koboToNairaText(kobo: Kobo, options: { grouped: boolean }): string {
  const magnitude = kobo < 0n ? -kobo : kobo;
  const whole = (magnitude / 100n).toString();
  const naira = options.grouped ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : whole;
  return `${kobo < 0n ? '-' : ''}${naira}.${(magnitude % 100n).toString().padStart(2, '0')}`;
}

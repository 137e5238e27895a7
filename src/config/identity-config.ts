import { nairaTextToKobo } from '../shared/money.ts';
import { type EnvReader, readEnvInt, readEnvString } from './env-reader.ts';

export interface IdentityConfig {
  /** What each check costs the caller, kobo, before VAT (the transfer VAT rate applies). */
  readonly feesKobo: Readonly<Record<string, bigint>>;
  readonly otpTtlSeconds: number;
  /** Wrong OTPs allowed before the verification fails for good. */
  readonly otpMaxAttempts: number;
}

/** Naira per check: common bureau pricing passed through, configurable with IDENTITY_FEES_NAIRA. */
const DEFAULT_FEES_NAIRA: Readonly<Record<string, number>> = {
  BVN: 25,
  NIN: 50,
  vNIN: 50,
  BVNUSSD: 25,
  CAC: 100,
  CREDITCHECK: 200,
};

export function readIdentityConfig(read: EnvReader): IdentityConfig {
  return Object.freeze({
    feesKobo: Object.freeze(readFees(read)),
    otpTtlSeconds: readEnvInt(read, 'IDENTITY_OTP_TTL_SECONDS', {
      fallback: 600,
      min: 30,
      max: 3600,
    }),
    otpMaxAttempts: readEnvInt(read, 'IDENTITY_OTP_MAX_ATTEMPTS', { fallback: 5, min: 1, max: 10 }),
  });
}

/** "BVN:25,CAC:100" overrides those types' fees; the others keep their defaults. */
function readFees(read: EnvReader): Record<string, bigint> {
  const fees: Record<string, bigint> = {};
  for (const [type, naira] of Object.entries(DEFAULT_FEES_NAIRA)) {
    fees[type] = nairaTextToKobo(String(naira)) ?? 0n;
  }
  const raw = readEnvString(read, 'IDENTITY_FEES_NAIRA', {});
  for (const item of raw === undefined ? [] : raw.split(',')) {
    const [type = '', naira = ''] = item.split(':').map((part) => part.trim());
    const kobo = nairaTextToKobo(naira);
    if (!(type in DEFAULT_FEES_NAIRA) || kobo === undefined || naira.length > 9) {
      read.problems.push(`IDENTITY_FEES_NAIRA must look like "BVN:25,CAC:100", got "${raw}"`);
      break;
    }
    fees[type] = kobo;
  }
  return fees;
}

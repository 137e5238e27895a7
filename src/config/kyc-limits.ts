import { nairaTextToKobo } from '../shared/money.ts';
import { type EnvReader, readEnvString } from './env-reader.ts';

/** Transfer limits for one KYC level, kobo; the general limits still apply on top. */
export interface KycLimits {
  readonly perTransferKobo: bigint;
  readonly dailyKobo: bigint;
}

/**
 * Tiered KYC in the style of the CBN's framework: a level 1 account (no verified identity) and a
 * level 2 one (BVN or NIN verified) move less than a level 3 one (full KYC: the client's own
 * accounts and CAC-verified companies), which has only the general limits.
 */
const ENV_NAME = 'TRANSFER_LIMITS_BY_KYC_NAIRA' as const;
const DEFAULT_LIMITS = '1:50000/300000,2:200000/500000';
const ENTRY = /^([1-3]):(\d{1,12})\/(\d{1,12})$/;

/** "1:50000/300000,2:200000/500000": per-transfer/daily naira for each level listed. */
export function readKycLimits(read: EnvReader): ReadonlyMap<string, KycLimits> {
  const raw = readEnvString(read, ENV_NAME, { fallback: DEFAULT_LIMITS }) ?? DEFAULT_LIMITS;
  const limits = new Map<string, KycLimits>();
  for (const item of raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const match = ENTRY.exec(item);
    if (match === null) {
      read.problems.push(`${ENV_NAME} must look like "${DEFAULT_LIMITS}", got "${raw}"`);
      break;
    }
    const [, level = '', perTransfer = '0', daily = '0'] = match;
    limits.set(level, {
      perTransferKobo: nairaTextToKobo(perTransfer) ?? 0n,
      dailyKobo: nairaTextToKobo(daily) ?? 0n,
    });
  }
  return limits;
}

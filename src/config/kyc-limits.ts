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

/** The limits every account has, and the lower ones of the KYC levels below full KYC. */
export interface MoneyOutLimits {
  readonly perTransferLimitKobo: bigint;
  readonly dailyLimitKobo: bigint;
  readonly limitsByKycLevel: ReadonlyMap<string, KycLimits>;
}

/**
 * An account's limits: the general ones, lowered for its KYC level. The daily one bounds all the
 * money that leaves by its daily limit key in a day in Lagos (midnight Africa/Lagos), transfers and VAS purchases alike.
 */
export function limitsFor(limits: MoneyOutLimits, kycLevel: string): KycLimits {
  const tier = limits.limitsByKycLevel.get(kycLevel);
  const lower = (general: bigint, tiered: bigint | undefined) =>
    tiered !== undefined && tiered < general ? tiered : general;
  return {
    perTransferKobo: lower(limits.perTransferLimitKobo, tier?.perTransferKobo),
    dailyKobo: lower(limits.dailyLimitKobo, tier?.dailyKobo),
  };
}

/** What a refusal for the daily limit says: whether the identity's accounts share it. */
export function dailyLimitMessage(sharedByIdentity: boolean): string {
  return sharedByIdentity
    ? 'Amount is above the daily limit that the accounts opened on this identity share.'
    : "Amount is above the account's daily limit.";
}

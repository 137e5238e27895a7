import type { FeeTier } from '../../config/config.ts';
import type { Kobo } from '../../shared/money.ts';

export interface StampDutyPolicy {
  readonly stampDutyKobo: Kobo;
  readonly stampDutyThresholdKobo: Kobo;
}

/** Electronic money transfer levy on inbound credits at or above the threshold (₦50 from ₦10,000). */
export function stampDutyOnCredit(amountKobo: Kobo, policy: StampDutyPolicy): Kobo {
  return amountKobo >= policy.stampDutyThresholdKobo ? policy.stampDutyKobo : 0n;
}

export interface TransferCharges {
  readonly feeKobo: Kobo;
  readonly vatKobo: Kobo;
}

/** NIP out: the fee of the first tier covering the amount, plus VAT on the fee (half up). */
export function nipCharges(
  amountKobo: Kobo,
  tiers: readonly FeeTier[],
  vatBasisPoints: bigint,
): TransferCharges {
  const tier = tiers.find(
    (candidate) => candidate.upToKobo === undefined || amountKobo <= candidate.upToKobo,
  );
  const feeKobo = tier?.feeKobo ?? 0n;
  return { feeKobo, vatKobo: (feeKobo * vatBasisPoints + 5_000n) / 10_000n };
}

/** Intra-bank transfers are free. */
export const NO_CHARGES: TransferCharges = Object.freeze({ feeKobo: 0n, vatKobo: 0n });

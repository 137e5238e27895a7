import type { Kobo } from '../../shared/money.ts';

export interface StampDutyPolicy {
  readonly stampDutyKobo: Kobo;
  readonly stampDutyThresholdKobo: Kobo;
}

/** Electronic money transfer levy on inbound credits at or above the threshold (₦50 from ₦10,000). */
export function stampDutyOnCredit(amountKobo: Kobo, policy: StampDutyPolicy): Kobo {
  return amountKobo >= policy.stampDutyThresholdKobo ? policy.stampDutyKobo : 0n;
}

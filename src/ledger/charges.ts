import type { FeeTier } from '../config/config.ts';
import type { Kobo } from '../shared/money.ts';
import { GL_ACCOUNTS } from './gl-accounts.ts';
import type { Posting } from './journal.ts';

/**
 * What the bank charges on a movement, computed and posted in one place for every module:
 * fees to fee income, VAT on fees to VAT payable, stamp duty to stamp duty payable.
 */
export interface Charges {
  readonly feeKobo: Kobo;
  readonly vatKobo: Kobo;
}

export const NO_CHARGES: Charges = Object.freeze({ feeKobo: 0n, vatKobo: 0n });

/** VAT on a fee, rounded half up to the kobo: the one rounding rule. */
export function vatOn(feeKobo: Kobo, vatBasisPoints: bigint): Kobo {
  return (feeKobo * vatBasisPoints + 5_000n) / 10_000n;
}

/** A flat fee plus its VAT. */
export function feeWithVat(feeKobo: Kobo, vatBasisPoints: bigint): Charges {
  return { feeKobo, vatKobo: vatOn(feeKobo, vatBasisPoints) };
}

/** A share of the amount (basis points, half up to the kobo), at most the cap, plus its VAT. */
export function cappedShareCharges(
  amountKobo: Kobo,
  fee: { readonly basisPoints: bigint; readonly capKobo: Kobo },
  vatBasisPoints: bigint,
): Charges {
  const share = (amountKobo * fee.basisPoints + 5_000n) / 10_000n;
  return feeWithVat(share < fee.capKobo ? share : fee.capKobo, vatBasisPoints);
}

/** The fee of the first tier that covers the amount, plus its VAT. */
export function tieredCharges(
  amountKobo: Kobo,
  tiers: readonly FeeTier[],
  vatBasisPoints: bigint,
): Charges {
  const tier = tiers.find(
    (candidate) => candidate.upToKobo === undefined || amountKobo <= candidate.upToKobo,
  );
  return feeWithVat(tier?.feeKobo ?? 0n, vatBasisPoints);
}

export interface StampDutyPolicy {
  readonly stampDutyKobo: Kobo;
  readonly stampDutyThresholdKobo: Kobo;
}

/** Electronic money transfer levy on credits at or above the threshold (₦50 from ₦10,000). */
export function stampDutyOn(amountKobo: Kobo, policy: StampDutyPolicy): Kobo {
  return amountKobo >= policy.stampDutyThresholdKobo ? policy.stampDutyKobo : 0n;
}

export interface ChargeLines {
  readonly feeKobo?: Kobo;
  readonly vatKobo?: Kobo;
  readonly stampDutyKobo?: Kobo;
  /** Statement narrations; a line without one shows the journal's narration. */
  readonly feeNarration?: string;
  readonly vatNarration?: string;
  readonly stampDutyNarration?: string;
}

/**
 * The postings that take charges from a customer account: each a statement line of its own
 * (fee, then VAT, then stamp duty), each credited to its GL account. Zero charges post nothing.
 */
export function chargePostings(accountId: string, charges: ChargeLines): Posting[] {
  const lines: [Kobo | undefined, string, string | undefined][] = [
    [charges.feeKobo, GL_ACCOUNTS.feeIncome, charges.feeNarration],
    [charges.vatKobo, GL_ACCOUNTS.vatPayable, charges.vatNarration],
    [charges.stampDutyKobo, GL_ACCOUNTS.stampDutyPayable, charges.stampDutyNarration],
  ];
  return lines.flatMap(([amountKobo, glAccountId, narration]) =>
    amountKobo === undefined || amountKobo === 0n
      ? []
      : [
          { accountId, amountKobo: -amountKobo, ...(narration === undefined ? {} : { narration }) },
          { accountId: glAccountId, amountKobo },
        ],
  );
}

/**
 * The postings that give charges back to a customer account (a returned transfer): each GL
 * account debited for what it was credited, the customer credited, each a statement line of its
 * own (fee, then VAT, then stamp duty). Zero charges post nothing.
 */
export function chargeRefundPostings(accountId: string, charges: ChargeLines): Posting[] {
  return chargePostings(accountId, charges).map((posting) => ({
    ...posting,
    amountKobo: -posting.amountKobo,
  }));
}

import type { Kobo } from '../../../shared/money.ts';

/**
 * A biller (a VAS aggregator): who sells airtime, data bundles, cable TV subscriptions and
 * electricity tokens on the bank's behalf. In sandbox, a deterministic simulator; in production,
 * an adapter to the aggregator the bank contracts with. Every method answers; none throws for a
 * biller-side problem (a timeout or an unreadable answer is `unavailable` or `pending`), so the
 * purchase service can decide what happens to the customer's held money.
 */
export interface Biller {
  /** Looks up a meter (UTILITY) or a smart card (CABLETV) before a purchase. */
  verify(request: BillerVerifyRequest): Promise<BillerVerifyOutcome>;
  /**
   * Sells one product. The reference is ours and unique per purchase: a biller that sees a
   * reference again must answer the first sale, never sell twice.
   */
  purchase(request: BillerPurchaseRequest): Promise<BillerPurchaseOutcome>;
  /** Where a `pending` (or unanswered) purchase stands, by our reference. */
  queryStatus(request: BillerPurchaseRequest): Promise<BillerPurchaseOutcome>;
}

export const VAS_SERVICES = ['AIRTIME', 'DATA', 'CABLETV', 'UTILITY'] as const;
export type VasService = (typeof VAS_SERVICES)[number];

export interface BillerVerifyRequest {
  readonly service: 'CABLETV' | 'UTILITY';
  /** The category's identifier: `DSTV`, `GOTV`, `STARTIMES`; `IKEJA`, `ABUJA`, ... */
  readonly categoryIdentifier: string;
  /** Smart-card number (cable) or meter number (utility), digits only. */
  readonly entityNumber: string;
}

export type BillerVerifyOutcome =
  | { readonly kind: 'found'; readonly customer: MeterCustomer | CardCustomer }
  /** No such meter or card (or malformed). Definitive. */
  | { readonly kind: 'notFound'; readonly message: string }
  /** No usable answer (biller down, timeout): try again later. */
  | { readonly kind: 'unavailable'; readonly message: string };

export interface MeterCustomer {
  readonly kind: 'meter';
  readonly discoCode: string;
  readonly vendType: 'PREPAID' | 'POSTPAID';
  readonly meterNo: string;
  readonly minVendKobo: Kobo;
  readonly maxVendKobo: Kobo;
  readonly outstandingKobo: Kobo;
  readonly debtRepaymentKobo: Kobo;
  readonly name: string;
  readonly address: string;
  /** The biller's id for this verification (the published `orderId`, 32 hex upper case). */
  readonly orderId: string;
}

export interface CardCustomer {
  readonly kind: 'card';
  readonly name: string;
}

export interface BillerPurchaseRequest {
  /** Ours, 32 lower-case hex characters, unique per purchase. */
  readonly reference: string;
  readonly service: VasService;
  readonly categoryIdentifier: string;
  /** Data and cable: the product's bundle code (`db1`, `gb7`, ...); absent otherwise. */
  readonly bundleCode?: string;
  readonly amountKobo: Kobo;
  /** Who receives it: a phone number (airtime, data), a smart card, or a meter number. */
  readonly beneficiary: string;
  /** Utility: the meter's vend type from verification. */
  readonly vendType?: string;
}

export type BillerPurchaseOutcome =
  /** Delivered. `token` for electricity (the units' token), `receiver` details for cable. */
  | {
      readonly kind: 'successful';
      readonly token?: string;
      readonly receiverName?: string | null;
    }
  /** Definitively not delivered (nothing was sold): the held money goes back. */
  | { readonly kind: 'failed'; readonly message: string }
  /** Accepted but not final: ask again later (queryStatus), never resend as a new sale. */
  | { readonly kind: 'pending'; readonly message: string }
  /**
   * No usable answer (biller down, timeout): the sale may or may not have happened, so it is
   * settled by queryStatus like `pending`, never by refunding blindly.
   */
  | { readonly kind: 'unavailable'; readonly message: string };

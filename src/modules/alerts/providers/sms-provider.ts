import type { DeliveryOutcome } from './delivery.ts';

export interface OutgoingSms {
  /**
   * The message's stable id: the provider's de-duplication key (a client reference most SMS
   * gateways take), the same on every retry, so a retry after a lost answer sends nothing twice.
   */
  readonly dedupKey: string;
  /** In international form, digits with an optional leading +. */
  readonly to: string;
  readonly text: string;
}

/**
 * An SMS gateway. Production adapters follow docs/alerts.md ("A production SMS adapter"): map
 * the vendor's answers onto accepted / temporary / permanent, pass dedupKey as its reference,
 * and pass the contract suite (sms-provider.contract.ts) against the vendor's sandbox.
 */
export interface SmsProvider {
  send(sms: OutgoingSms): Promise<DeliveryOutcome>;
}

/** The longest text one alert SMS may carry (two concatenated GSM-7 parts). */
export const SMS_MAX_LENGTH = 306;

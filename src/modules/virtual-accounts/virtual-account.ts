import type { Kobo } from '../../shared/money.ts';
import type { Transfer } from '../transfers/index.ts';

export type AmountControl = 'Fixed' | 'UnderPayment' | 'OverPayment';

/** As stored. `Expired` is never stored: it is an `Active` account read after its expiry. */
export type StoredVirtualAccountStatus = 'Active' | 'Paid' | 'Deleted';
export type VirtualAccountStatus = StoredVirtualAccountStatus | 'Expired';

/** A time-bound NUBAN that collects one payment for one of the client's accounts. */
export interface VirtualAccount {
  readonly id: string;
  readonly clientId: string;
  readonly accountNumber: string;
  readonly accountName: string;
  readonly settlementAccountId: string;
  readonly settlementAccountNumber: string;
  readonly amountControl: AmountControl;
  readonly amountKobo: Kobo;
  readonly validForSeconds: number;
  readonly expiresAt: Date;
  /** Where its payment webhooks go; null: the client's webhook URL. */
  readonly callbackUrl: string | null;
  readonly externalReference: string | null;
  readonly requestHash: string;
  readonly status: StoredVirtualAccountStatus;
  readonly paidKobo: Kobo;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** A virtual account with the transfers that paid it, oldest first. */
export interface VirtualAccountWithPayments {
  readonly account: VirtualAccount;
  readonly payments: readonly Transfer[];
}

/** The status a reader sees at `now`: an Active account past its expiry is Expired. */
export function statusAt(account: VirtualAccount, now: Date): VirtualAccountStatus {
  return account.status === 'Active' && now >= account.expiresAt ? 'Expired' : account.status;
}

/** What creating one asks for, in kobo and domain terms (the route maps the wire body). */
export interface NewVirtualAccountRequest {
  readonly validForSeconds: number;
  readonly callbackUrl: string | undefined;
  readonly settlementAccount: { readonly bankCode: string; readonly accountNumber: string };
  readonly amountControl: AmountControl;
  readonly amountKobo: Kobo;
  readonly externalReference: string | undefined;
  readonly accountName: string | undefined;
}

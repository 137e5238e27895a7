import type { Kobo } from '../../shared/money.ts';
import type { VasService } from './providers/biller.ts';

export type PurchaseStatus = 'pending' | 'successful' | 'failed';
export type Channel = 'WEB' | 'POS' | 'ATM';

/** A purchase paid from a client's account through the biller. */
export interface Purchase {
  readonly id: string;
  readonly clientId: string;
  readonly accountId: string;
  readonly debitAccountNumber: string;
  readonly service: VasService;
  readonly categoryId: string;
  readonly categoryIdentifier: string;
  /** Ours, 32 lower-case hex characters, sent to the biller. */
  readonly reference: string;
  readonly status: PurchaseStatus;
  readonly amountKobo: Kobo;
  readonly commissionKobo: Kobo;
  readonly channel: Channel;
  /** Phone number, smart card or meter number. */
  readonly beneficiary: string;
  readonly bundleCode: string | null;
  readonly vendType: string | null;
  readonly receiverName: string | null;
  readonly utilityToken: string | null;
  readonly failureMessage: string | null;
  readonly statusUrl: string | null;
  readonly holdId: string;
  /**
   * The daily limit key its price counted under (its debit account's, as it was placed), for the
   * give-back if it fails; null for a purchase placed before purchases counted.
   */
  readonly dailyLimitKey: string | null;
  readonly requestHash: string;
  readonly statusQueries: number;
  readonly nextStatusQueryAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly completedAt: Date | null;
}

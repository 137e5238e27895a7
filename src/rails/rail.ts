import type { Kobo } from '../shared/money.ts';

/**
 * A payment rail to other banks (NIBSS NIP in production, a deterministic simulator in sandbox).
 * Every method answers; none throws for a rail-side problem: a timeout or an unreadable answer
 * is an `unknown` outcome, which callers must settle with a status query, never by reversing.
 */
export interface Rail {
  nameEnquiry(request: NameEnquiryRequest): Promise<NameEnquiryOutcome>;
  sendTransfer(request: FundsTransferRequest): Promise<TransferOutcome>;
  /** Transaction status query (TSQ) by the transfer's session id. */
  queryStatus(request: StatusQueryRequest): Promise<TransferOutcome>;
  /**
   * Registers who receives credits other banks send to our accounts (one handler; a second call
   * replaces the first). The handler credits the account or throws to refuse it, and must treat
   * a session id it has seen before as already done: networks resend.
   */
  onInboundCredit(handler: InboundCreditHandler): void;
  /**
   * Registers who receives return notices: a beneficiary bank sends back a transfer of ours that
   * had succeeded (one handler; a second call replaces the first). Like a credit, the handler
   * applies it or throws to refuse it, and must treat a return session id it has seen before as
   * already done: networks resend. A notice that never arrives is found by a status query of the
   * transfer, which answers `returned`.
   */
  onTransferReturned(handler: TransferReturnHandler): void;
  /**
   * Registers who receives recall notices: a sending bank takes back a credit it sent to one of
   * our accounts (one handler; a second call replaces the first). The handler applies it or
   * throws to refuse it, and must treat a credit already recalled as done: networks resend.
   */
  onInboundRecalled(handler: InboundRecallHandler): void;
}

/** A sending bank recalls a credit it sent to one of our accounts (sent in error, fraud). */
export interface InboundRecallNotice {
  /** The session id of the credit that is recalled (the sending bank's code first). */
  readonly sessionId: string;
  /** The recall's own session id: the credit's reversalReference. */
  readonly recallSessionId: string;
  /** Why the sending bank recalls it, as it says ("Credit sent in error"). */
  readonly reason: string;
}

export type InboundRecallHandler = (notice: InboundRecallNotice) => Promise<unknown>;

/** A beneficiary bank sends back one of our transfers that succeeded (a NIP return). */
export interface TransferReturnNotice {
  /** The session id of our transfer that comes back. */
  readonly sessionId: string;
  /** The return's own session id (the returning bank's institution code first): its key. */
  readonly returnSessionId: string;
  /** What comes back: the transfer's amount (NIP returns a transfer whole). */
  readonly amountKobo: Kobo;
  /** Why the beneficiary bank returned it, as it says ("Beneficiary account closed"). */
  readonly reason: string;
}

export type TransferReturnHandler = (notice: TransferReturnNotice) => Promise<unknown>;

export interface InboundCreditRequest {
  /** The sending bank's session id: its institution code first, unique per credit. */
  readonly sessionId: string;
  /** The session id of the sender's name enquiry, which NIP carries on the credit. */
  readonly nameEnquiryReference: string;
  readonly amountKobo: Kobo;
  readonly beneficiaryAccountNumber: string;
  readonly originator: Party;
  readonly narration: string;
  /**
   * When the network delivered it, if not now (a credit replayed from a queue after a delay):
   * what a time-bound account's expiry is judged by.
   */
  readonly receivedAt?: Date;
}

export type InboundCreditHandler = (credit: InboundCreditRequest) => Promise<unknown>;

export interface NameEnquiryRequest {
  /** Our session id for this enquiry: 30 digits, our institution code first. */
  readonly sessionId: string;
  readonly bankCode: string;
  readonly accountNumber: string;
}

export type NameEnquiryOutcome =
  | {
      readonly kind: 'found';
      readonly accountName: string;
      readonly bankVerificationNumber: string | null;
      readonly kycLevel: string;
      readonly responseCode: '00';
      readonly responseMessage: string;
    }
  | {
      /** A definitive answer: the account does not exist, the bank is unknown, ... */
      readonly kind: 'rejected';
      readonly responseCode: string;
      readonly responseMessage: string;
    }
  | {
      /** No usable answer (timeout, bank unavailable): the caller may try again later. */
      readonly kind: 'unavailable';
      readonly responseCode: string;
      readonly responseMessage: string;
    };

export interface FundsTransferRequest {
  /** The transfer's own session id (30 digits), the key of any later status query. */
  readonly sessionId: string;
  readonly nameEnquiryReference: string;
  readonly amountKobo: Kobo;
  readonly beneficiary: Party;
  readonly originator: Party;
  readonly narration: string;
  readonly paymentReference: string;
}

export interface Party {
  readonly bankCode: string;
  readonly accountNumber: string;
  readonly accountName: string;
  readonly kycLevel: string;
}

export interface StatusQueryRequest {
  readonly sessionId: string;
  readonly bankCode: string;
}

export type TransferOutcome =
  /** `00`: the beneficiary bank has the money. Post the hold. */
  | { readonly kind: 'success'; readonly responseCode: '00'; readonly responseMessage: string }
  /** A definitive failure code: nothing moved. Void the hold. */
  | { readonly kind: 'failed'; readonly responseCode: string; readonly responseMessage: string }
  /** Timeout or an ambiguous code (01, 09, 94, 96, 97, ...): ask again later with a TSQ. */
  | {
      readonly kind: 'unknown';
      readonly responseCode: string | null;
      readonly responseMessage: string;
    }
  /**
   * A status query only: the transfer succeeded (`00`), then the beneficiary bank sent it back
   * under its own session id. Post the hold if it is still held, then apply the return.
   */
  | {
      readonly kind: 'returned';
      readonly responseCode: '00';
      readonly responseMessage: string;
      readonly returnSessionId: string;
      readonly reason: string;
    };

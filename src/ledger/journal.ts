import { invariant } from '../shared/invariant.ts';
import type { Kobo } from '../shared/money.ts';

/** One line of a journal: credit when positive, debit when negative. */
export interface Posting {
  readonly accountId: string;
  readonly amountKobo: Kobo;
  /** What the account holder's statement shows; defaults to the journal's narration. */
  readonly narration?: string;
}

export interface Journal {
  readonly id: string;
  readonly kind: JournalKind;
  readonly narration: string;
  readonly reference?: string;
  readonly transferId?: string;
  readonly createdAt: Date;
  /** Applied in order; an account may appear more than once (a credit, then its fee). */
  readonly postings: readonly Posting[];
  /** A pending hold this journal settles: its amount stops being reserved as it posts. */
  readonly releaseHoldId?: string;
}

export type JournalKind =
  | 'inbound_transfer'
  | 'outbound_transfer'
  /** A NIP transfer the beneficiary bank sent back: the outbound transfer's journal reversed. */
  | 'transfer_return'
  | 'intra_transfer'
  /** The sending bank took back a credit it sent (what the account lacked became a lien). */
  | 'inbound_recall'
  /** An operator reversed an intra-bank transfer made in error. */
  | 'transfer_reversal'
  /** A credit paid an account's lien (ledger_fill_liens posts these; named here for readers). */
  | 'lien_fill'
  /** An operator released a lien: what was outstanding written off. */
  | 'lien_write_off'
  | 'fee'
  | 'vas_purchase'
  /** A sandbox fixture's balance, from the sandbox's external float. */
  | 'opening_balance'
  | 'test';

/** The pure rules every journal obeys before it reaches the database (which checks again). */
export function assertBalanced(journal: Journal): void {
  invariant(journal.postings.length >= 2, `journal ${journal.id} has fewer than two postings`);
  let sum = 0n;
  for (const posting of journal.postings) {
    invariant(posting.amountKobo !== 0n, `journal ${journal.id} has a zero posting`);
    sum += posting.amountKobo;
  }
  invariant(sum === 0n, `journal ${journal.id} does not balance (${sum})`);
}

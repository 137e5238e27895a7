import { type Queryable, sqlState } from '../db/db.ts';
import { AppError } from '../errors/app-error.ts';
import type { Kobo } from '../shared/money.ts';
import { assertBalanced, type Journal } from './journal.ts';
import * as ledgerRepository from './ledger-repository.ts';
import { type AlertChannels, notifyBits, updateNotify } from './notice-repository.ts';
import {
  readStatementCsv,
  readStatementLines,
  readStatementPage,
  readStatementSpan,
  type StatementFilter,
} from './statement-repository.ts';

export type { JournalEntry } from './ledger-repository.ts';
/**
 * Alerts (docs/alerts.md): the accounts module sets what a holder asked to be told of, the
 * alerts module reads and deletes the notices the postings wrote.
 */
export {
  type AlertChannels,
  deleteNotices,
  findHoldReferences,
  findNoticeEntries,
  type LedgerNotice,
  lockNotices,
  type NoticeEntry,
} from './notice-repository.ts';
export type { StatementEntry, StatementLines, StatementSpan } from './statement-repository.ts';
export type { StatementFilter };

interface HoldRequest {
  readonly id: string;
  readonly accountId: string;
  readonly amountKobo: Kobo;
  readonly reference: string;
  readonly createdAt: Date;
}

/** SQLSTATE raised by the ledger functions when a debit would overdraw an account. */
const INSUFFICIENT_FUNDS_SQLSTATE = 'OIB01';

/**
 * Posts a balanced journal inside the caller's transaction, in one round trip. An account
 * that would go below zero (and may not) fails the whole journal with INSUFFICIENT_FUNDS.
 */
export async function post(tx: Queryable, journal: Journal): Promise<void> {
  assertBalanced(journal);
  await translateLedgerErrors(() => ledgerRepository.postJournal(tx, journal));
}

/**
 * A balanced journal as the SQL functions that post inside a larger call take it (they hand it
 * to ledger_post_json): amounts as text, times in ISO 8601.
 */
export function journalJson(journal: Journal) {
  assertBalanced(journal);
  return {
    id: journal.id,
    kind: journal.kind,
    narration: journal.narration,
    reference: journal.reference ?? null,
    transferId: journal.transferId ?? null,
    createdAt: journal.createdAt.toISOString(),
    accountIds: journal.postings.map((posting) => posting.accountId),
    amounts: journal.postings.map((posting) => posting.amountKobo.toString()),
    narrations: journal.postings.map((posting) => posting.narration ?? null),
    releaseHoldId: journal.releaseHoldId ?? null,
  };
}

/** A hold as the SQL functions that hold inside a larger call take it (ledger_hold_json). */
export function holdJson(hold: HoldRequest) {
  return {
    id: hold.id,
    accountId: hold.accountId,
    amount: hold.amountKobo.toString(),
    reference: hold.reference,
    createdAt: hold.createdAt.toISOString(),
  };
}

/**
 * Opens a customer's ledger account (balance zero) under the id of the account it backs, with
 * the alerts its holder asked for (none by default).
 */
export async function openAccount(
  tx: Queryable,
  account: { id: string; name: string; createdAt: Date; alerts?: AlertChannels },
): Promise<void> {
  await ledgerRepository.insertLedgerAccount(tx, {
    id: account.id,
    name: account.name,
    createdAt: account.createdAt,
    kind: 'customer',
    notify: account.alerts === undefined ? 0 : notifyBits(account.alerts),
  });
}

/**
 * What an account's holder asks to be told of from now on: every posting, hold and voided hold
 * on it writes a notice when either is on (ledger_post_unlocked, ledger_hold_unlocked,
 * ledger_void_hold), in its own transaction.
 */
export function setAlertChannels(
  tx: Queryable,
  accountId: string,
  channels: AlertChannels,
): Promise<void> {
  return updateNotify(tx, accountId, channels);
}

/** The GL accounts, balances aside, as a sandbox reset keeps them (opaque JSON text). */
export function snapshotGlAccounts(db: Queryable): Promise<string> {
  return ledgerRepository.readGlAccountSeeds(db);
}

/** After a sandbox reset emptied the ledger: the GL accounts again, at zero. */
export function restoreGlAccounts(tx: Queryable, snapshot: string): Promise<void> {
  return ledgerRepository.insertGlAccountSeeds(tx, snapshot);
}

/** A page of an account's entries, newest first, with the running balance after each. */
export function readStatement(db: Queryable, filter: StatementFilter) {
  return readStatementPage(db, filter);
}

/** A statement export's numbers and balances; then its entries, oldest first, a batch at a time. */
export { readStatementCsv, readStatementLines, readStatementSpan };

/**
 * The entries of the journals posted for some transfers (a transfer and its intra-bank twin),
 * found through `accountId`, an account every one of them moved, posted between `from` and `to`
 * (a transfer's journals are posted when it is placed or settled: between its createdAt and
 * its updatedAt). In journal order; each journal's debits before its credits.
 */
export function readTransferEntries(
  db: Queryable,
  filter: { accountId: string; from: Date; to: Date; transferIds: readonly string[] },
) {
  return ledgerRepository.findTransferEntries(db, filter);
}

/** Reserves funds for a two-phase transfer; available balance drops, book balance does not. */
export async function hold(tx: Queryable, hold: HoldRequest): Promise<void> {
  await translateLedgerErrors(() => ledgerRepository.insertHold(tx, hold));
}

/** Releases a pending hold without moving money (a definitive rail failure). */
export async function voidHold(tx: Queryable, holdId: string, resolvedAt: Date): Promise<void> {
  await ledgerRepository.voidHold(tx, holdId, resolvedAt);
}

async function translateLedgerErrors(run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (sqlState(error) === INSUFFICIENT_FUNDS_SQLSTATE) {
      throw new AppError('INSUFFICIENT_FUNDS', undefined, { cause: error });
    }
    throw error;
  }
}

import type { Queryable } from '../db/db.ts';
import type { Kobo } from '../shared/money.ts';

/**
 * What a ledger account's holder asked to be told of (docs/alerts.md): the `notify` bits the
 * ledger functions read from the row a posting updates. The accounts module keeps them equal to
 * the account's notificationSettings; the ledger knows nothing else of alerts.
 */
export interface AlertChannels {
  readonly email: boolean;
  readonly sms: boolean;
}

const EMAIL_BIT = 1;
const SMS_BIT = 2;

export function notifyBits(channels: AlertChannels): number {
  return (channels.email ? EMAIL_BIT : 0) | (channels.sms ? SMS_BIT : 0);
}

function channelsOf(bits: number): AlertChannels {
  return { email: (bits & EMAIL_BIT) !== 0, sms: (bits & SMS_BIT) !== 0 };
}

export async function updateNotify(
  tx: Queryable,
  accountId: string,
  channels: AlertChannels,
): Promise<void> {
  await tx.query('UPDATE ledger_accounts SET notify = $2 WHERE id = $1', [
    accountId,
    notifyBits(channels),
  ]);
}

/** Something that happened on an account whose holder asked to be told (ledger_notices). */
export interface LedgerNotice {
  readonly id: bigint;
  readonly accountId: string;
  /** entry: a journal moved the account; hold: funds were held; hold_voided: a hold ended unused. */
  readonly kind: 'entry' | 'hold' | 'hold_voided';
  /** The journal's id (entry) or the hold's (hold, hold_voided). */
  readonly sourceId: string;
  readonly firstSeq: bigint | null;
  readonly lastSeq: bigint | null;
  /** A hold's amount and the available balance after it; null for entries (read them). */
  readonly amountKobo: Kobo | null;
  readonly balanceAfterKobo: Kobo | null;
  /** The holder's channels when it happened. */
  readonly channels: AlertChannels;
  readonly createdAt: Date;
}

interface NoticeRow {
  id: bigint;
  account_id: string;
  kind: LedgerNotice['kind'];
  source_id: string;
  first_seq: bigint | null;
  last_seq: bigint | null;
  amount_kobo: bigint | null;
  balance_after_kobo: bigint | null;
  notify: number;
  created_at: Date;
}

/**
 * The oldest notices no other transaction holds, locked for the caller's transaction (which
 * deletes them with what it made of them): several workers take disjoint notices.
 */
export async function lockNotices(tx: Queryable, limit: number): Promise<LedgerNotice[]> {
  const rows = await tx.query<NoticeRow>(
    `SELECT id, account_id, kind, source_id, first_seq, last_seq, amount_kobo,
            balance_after_kobo, notify, created_at
       FROM ledger_notices ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
    [limit],
  );
  return rows.map((row) => ({
    id: BigInt(row.id),
    accountId: row.account_id,
    kind: row.kind,
    sourceId: row.source_id,
    firstSeq: row.first_seq,
    lastSeq: row.last_seq,
    amountKobo: row.amount_kobo,
    balanceAfterKobo: row.balance_after_kobo,
    channels: channelsOf(Number(row.notify)),
    createdAt: row.created_at,
  }));
}

export async function deleteNotices(tx: Queryable, ids: readonly bigint[]): Promise<void> {
  if (ids.length > 0) {
    await tx.query('DELETE FROM ledger_notices WHERE id = ANY($1::bigint[])', [
      ids.map((id) => id.toString()),
    ]);
  }
}

/** One entry a notice names, with its journal's kind. */
export interface NoticeEntry {
  readonly accountId: string;
  readonly seq: bigint;
  readonly journalId: string;
  readonly journalKind: string;
  readonly amountKobo: Kobo;
  readonly balanceAfterKobo: Kobo;
  readonly narration: string;
  readonly createdAt: Date;
}

/** The entries of entry notices (each its account's seq range, by primary key), in seq order. */
export async function findNoticeEntries(
  db: Queryable,
  notices: readonly LedgerNotice[],
): Promise<NoticeEntry[]> {
  const ranges = notices.filter((notice) => notice.kind === 'entry');
  if (ranges.length === 0) {
    return [];
  }
  const rows = await db.query<{
    account_id: string;
    seq: bigint;
    journal_id: string;
    journal_kind: string;
    amount_kobo: bigint;
    balance_after_kobo: bigint;
    narration: string;
    created_at: Date;
  }>(
    `SELECT e.account_id, e.seq, e.journal_id, j.kind AS journal_kind, e.amount_kobo,
            e.balance_after_kobo, e.narration, e.created_at
       FROM unnest($1::text[], $2::bigint[], $3::bigint[]) AS r(account_id, first_seq, last_seq)
       JOIN ledger_entries e ON e.account_id = r.account_id
                            AND e.seq BETWEEN r.first_seq AND r.last_seq
       JOIN ledger_journals j ON j.id = e.journal_id
      ORDER BY e.account_id, e.seq`,
    [
      ranges.map((notice) => notice.accountId),
      ranges.map((notice) => String(notice.firstSeq)),
      ranges.map((notice) => String(notice.lastSeq)),
    ],
  );
  return rows.map((row) => ({
    accountId: row.account_id,
    seq: BigInt(row.seq),
    journalId: row.journal_id,
    journalKind: row.journal_kind,
    amountKobo: BigInt(row.amount_kobo),
    balanceAfterKobo: BigInt(row.balance_after_kobo),
    narration: row.narration,
    createdAt: row.created_at,
  }));
}

/** A hold's reference (what placed it: a NIP session id, a purchase's reference). */
export async function findHoldReferences(
  db: Queryable,
  holdIds: readonly string[],
): Promise<Map<string, string>> {
  if (holdIds.length === 0) {
    return new Map();
  }
  const rows = await db.query<{ id: string; reference: string }>(
    'SELECT id, reference FROM ledger_holds WHERE id = ANY($1)',
    [holdIds],
  );
  return new Map(rows.map((row) => [row.id, row.reference]));
}

import type { Queryable } from '../db/db.ts';
import type { Kobo } from '../shared/money.ts';

export interface StatementEntry {
  readonly entryNumber: bigint;
  readonly amountKobo: Kobo;
  readonly balanceAfterKobo: Kobo;
  readonly narration: string;
  readonly reference: string | null;
  readonly transferId: string | null;
  readonly journalId: string;
  readonly createdAt: Date;
}

export interface StatementFilter {
  readonly accountId: string;
  /** Credits only (true), debits only (false) or both (undefined). */
  readonly credits: boolean | undefined;
  readonly from: Date | undefined;
  readonly to: Date | undefined;
  readonly page: number;
  readonly limit: number;
}

/**
 * Entries are numbered without gaps per account (seq), and per direction (direction_seq), and
 * their times never go backwards; so a date range is a contiguous number range found with two
 * index probes, and a page is a range read. A page costs the same at any depth and any size.
 */
export async function readStatementPage(
  db: Queryable,
  filter: StatementFilter,
): Promise<{ entries: StatementEntry[]; total: number }> {
  const bounds = await numberRange(db, filter);
  const total = bounds.high >= bounds.low ? Number(bounds.high - bounds.low + 1n) : 0;
  const top = bounds.high - BigInt(filter.page * filter.limit);
  const bottom = maxBigInt(bounds.low, top - BigInt(filter.limit) + 1n);
  if (top < bounds.low) {
    return { entries: [], total };
  }
  const column = filter.credits === undefined ? 'e.seq' : 'e.direction_seq';
  const rows = await db.query<EntryRow>(
    `SELECT e.seq, e.amount_kobo, e.balance_after_kobo, e.narration, j.reference,
            j.transfer_id, e.journal_id, e.created_at
       FROM ledger_entries e JOIN ledger_journals j ON j.id = e.journal_id
      WHERE e.account_id = $1 AND ($2::boolean IS NULL OR e.is_credit = $2)
        AND ${column} BETWEEN $3 AND $4
      ORDER BY ${column} DESC`,
    [filter.accountId, filter.credits ?? null, bottom, top],
  );
  return { entries: rows.map(toEntry), total };
}

async function numberRange(db: Queryable, filter: StatementFilter) {
  const counters = await db.query<{
    entry_count: bigint;
    credit_count: bigint;
    debit_count: bigint;
  }>('SELECT entry_count, credit_count, debit_count FROM ledger_accounts WHERE id = $1', [
    filter.accountId,
  ]);
  const row = counters[0];
  const count =
    row === undefined
      ? 0n
      : filter.credits === undefined
        ? row.entry_count
        : filter.credits
          ? row.credit_count
          : row.debit_count;
  const low =
    filter.from === undefined ? 1n : await firstNumberFrom(db, filter, filter.from, count);
  const high = filter.to === undefined ? count : await lastNumberUntil(db, filter, filter.to);
  return { low, high };
}

async function firstNumberFrom(db: Queryable, filter: StatementFilter, from: Date, count: bigint) {
  const rows = await db.query<{ number: bigint }>(
    filter.credits === undefined
      ? `SELECT seq AS number FROM ledger_entries WHERE account_id = $1 AND created_at >= $2
          ORDER BY created_at, seq LIMIT 1`
      : `SELECT direction_seq AS number FROM ledger_entries
          WHERE account_id = $1 AND is_credit = $3 AND created_at >= $2
          ORDER BY created_at, direction_seq LIMIT 1`,
    filter.credits === undefined
      ? [filter.accountId, from]
      : [filter.accountId, from, filter.credits],
  );
  return rows[0]?.number ?? count + 1n;
}

async function lastNumberUntil(db: Queryable, filter: StatementFilter, to: Date) {
  const rows = await db.query<{ number: bigint }>(
    filter.credits === undefined
      ? `SELECT seq AS number FROM ledger_entries WHERE account_id = $1 AND created_at <= $2
          ORDER BY created_at DESC, seq DESC LIMIT 1`
      : `SELECT direction_seq AS number FROM ledger_entries
          WHERE account_id = $1 AND is_credit = $3 AND created_at <= $2
          ORDER BY created_at DESC, direction_seq DESC LIMIT 1`,
    filter.credits === undefined ? [filter.accountId, to] : [filter.accountId, to, filter.credits],
  );
  return rows[0]?.number ?? 0n;
}

function maxBigInt(left: bigint, right: bigint): bigint {
  return left > right ? left : right;
}

interface EntryRow {
  seq: bigint;
  amount_kobo: bigint;
  balance_after_kobo: bigint;
  narration: string;
  reference: string | null;
  transfer_id: string | null;
  journal_id: string;
  created_at: Date;
}

function toEntry(row: EntryRow): StatementEntry {
  return {
    entryNumber: row.seq,
    amountKobo: row.amount_kobo,
    balanceAfterKobo: row.balance_after_kobo,
    narration: row.narration,
    reference: row.reference,
    transferId: row.transfer_id,
    journalId: row.journal_id,
    createdAt: row.created_at,
  };
}

/** An account's entries in a time range, as numbers, and the balances either side of them. */
export interface StatementSpan {
  /** First and last entry numbers (seq) in the range; none when last < first. */
  readonly first: bigint;
  readonly last: bigint;
  /** The balance before the first entry (the balance after the entry before it, or zero). */
  readonly openingKobo: Kobo;
  /** The balance after the last entry (the opening balance when the range is empty). */
  readonly closingKobo: Kobo;
}

/**
 * The range of a statement export: two index probes for its numbers and one primary-key read
 * for each balance. The last number is fixed here, so entries posted while an export streams
 * never join it: the statement is the account as it stood when it was asked for.
 */
export async function readStatementSpan(
  db: Queryable,
  range: { accountId: string; from: Date | undefined; to: Date | undefined },
): Promise<StatementSpan> {
  const { low, high } = await numberRange(db, {
    ...range,
    credits: undefined,
    page: 0,
    limit: 1,
  });
  const openingKobo = low > 1n ? await balanceAfter(db, range.accountId, low - 1n) : 0n;
  const closingKobo = high >= low ? await balanceAfter(db, range.accountId, high) : openingKobo;
  return { first: low, last: high, openingKobo, closingKobo };
}

async function balanceAfter(db: Queryable, accountId: string, seq: bigint): Promise<Kobo> {
  const rows = await db.query<{ balance_after_kobo: bigint }>(
    'SELECT balance_after_kobo FROM ledger_entries WHERE account_id = $1 AND seq = $2',
    [accountId, seq],
  );
  return rows[0]?.balance_after_kobo ?? 0n;
}

/** A batch of a statement's lines as the PDF prints them, and the batch's totals. */
export interface StatementLines {
  /** Cells separated by U+001F, lines by U+001E (ledger_statement_lines says which cells). */
  readonly text: string;
  readonly creditsKobo: Kobo;
  readonly creditCount: number;
  readonly debitsKobo: Kobo;
  readonly debitCount: number;
}

/**
 * The entries numbered `first` to `last`, oldest first, `batch` at a time, as the PDF's lines
 * written by PostgreSQL (ledger_statement_lines): each batch is one range read on the primary
 * key (keyset, never OFFSET), read only when the consumer asks for it, so a million entries
 * stream through a batch's worth of memory and leave a few strings a line of garbage.
 */
export async function* readStatementLines(
  db: Queryable,
  span: { accountId: string; first: bigint; last: bigint; batch: number },
): AsyncGenerator<StatementLines> {
  for (const [from, to] of numberBatches(span)) {
    yield await readLinesRange(db, span.accountId, from, to);
  }
}

async function readLinesRange(
  db: Queryable,
  accountId: string,
  from: bigint,
  to: bigint,
): Promise<StatementLines> {
  const rows = await db.query<{
    lines: string;
    credits_kobo: bigint;
    credit_count: bigint;
    debits_kobo: bigint;
    debit_count: bigint;
  }>('SELECT * FROM ledger_statement_lines($1, $2, $3)', [accountId, from, to]);
  const row = rows[0];
  return {
    text: row?.lines ?? '',
    creditsKobo: row?.credits_kobo ?? 0n,
    creditCount: Number(row?.credit_count ?? 0n),
    debitsKobo: row?.debits_kobo ?? 0n,
    debitCount: Number(row?.debit_count ?? 0n),
  };
}

/**
 * The entries numbered `first` to `last`, as the rows of the CSV statement, one text a
 * batch written whole by PostgreSQL (ledger_statement_csv): no row objects, Dates or amounts
 * in this process, so a million-entry export makes a thousand strings of garbage, not millions.
 */
export async function* readStatementCsv(
  db: Queryable,
  span: { accountId: string; first: bigint; last: bigint; batch: number },
): AsyncGenerator<string> {
  for (const [from, to] of numberBatches(span)) {
    yield await readCsvRange(db, span.accountId, from, to);
  }
}

async function readCsvRange(db: Queryable, accountId: string, from: bigint, to: bigint) {
  const rows = await db.query<{ csv: string }>('SELECT ledger_statement_csv($1, $2, $3) AS csv', [
    accountId,
    from,
    to,
  ]);
  return rows[0]?.csv ?? '';
}

/** An export's entry numbers cut into batches: [from, to] each, both included, in order. */
function* numberBatches(span: { first: bigint; last: bigint; batch: number }) {
  for (let from = span.first; from <= span.last; from += BigInt(span.batch)) {
    yield [from, minBigInt(span.last, from + BigInt(span.batch) - 1n)] as const;
  }
}

function minBigInt(left: bigint, right: bigint): bigint {
  return left < right ? left : right;
}

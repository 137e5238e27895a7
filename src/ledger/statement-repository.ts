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
 * One statement: the counter, the probes and the page are its CTEs, and the total comes back
 * on every row (on a lone row of NULL entry columns when the page is past the end). The range
 * holds a page at most; its LIMIT only tells the planner so, which cannot see the bounds and
 * would guess 0.5% of the account's entries, then hash every journal to join them.
 */
export async function readStatementPage(
  db: Queryable,
  filter: StatementFilter,
): Promise<{ entries: StatementEntry[]; total: number }> {
  const { number, direction } = numbering(filter);
  const rows = await db.query<NullableEntryRow & { total: bigint }>(
    `WITH ${numberRangeSql(filter)},
          span AS (SELECT low, high - $5::bigint AS top FROM bounds),
          page AS (
            SELECT e.*, j.reference, j.transfer_id
              FROM (SELECT ${number} AS number, seq, amount_kobo, balance_after_kobo, narration,
                           journal_id, created_at
                      FROM ledger_entries
                     WHERE account_id = $1 ${direction}
                       AND ${number} BETWEEN (SELECT greatest(low, top - $6::bigint + 1) FROM span)
                                         AND (SELECT top FROM span)
                     ORDER BY ${number} DESC LIMIT $6) e
              JOIN ledger_journals j ON j.id = e.journal_id)
     SELECT greatest(bounds.high - bounds.low + 1, 0) AS total, page.*
       FROM bounds LEFT JOIN page ON true
      ORDER BY page.number DESC`,
    [
      filter.accountId,
      filter.credits ?? null,
      filter.from ?? null,
      filter.to ?? null,
      filter.page * filter.limit,
      filter.limit,
    ],
  );
  return {
    entries: rows.flatMap((row) => (row.seq === null ? [] : [toEntry(row)])),
    total: Number(rows[0]?.total ?? 0n),
  };
}

/**
 * The CTE `bounds` (one row: low, high) of the entry numbers in a filter's range, for a
 * statement whose parameters are $1 the account, $2 credits (NULL for both directions), $3 from
 * and $4 to (NULL for open ends). The count comes from the account's counters (zero for an
 * account with no ledger row); each end is one index probe, made only when the filter has it.
 */
function numberRangeSql(filter: Pick<StatementFilter, 'credits'>): string {
  const { number, direction } = numbering(filter);
  return `counted AS (
            SELECT coalesce((SELECT CASE WHEN $2::boolean IS NULL THEN entry_count
                                         WHEN $2 THEN credit_count ELSE debit_count END
                               FROM ledger_accounts WHERE id = $1), 0) AS n),
          bounds AS (
            SELECT CASE WHEN $3::timestamptz IS NULL THEN 1 ELSE coalesce(
                     (SELECT ${number} FROM ledger_entries
                       WHERE account_id = $1 ${direction} AND created_at >= $3
                       ORDER BY created_at, ${number} LIMIT 1), n + 1) END AS low,
                   CASE WHEN $4::timestamptz IS NULL THEN n ELSE coalesce(
                     (SELECT ${number} FROM ledger_entries
                       WHERE account_id = $1 ${direction} AND created_at <= $4
                       ORDER BY created_at DESC, ${number} DESC LIMIT 1), 0) END AS high
              FROM counted)`;
}

/** A filter's numbers: seq for both directions, else direction_seq among its own. */
function numbering(filter: Pick<StatementFilter, 'credits'>) {
  return filter.credits === undefined
    ? { number: 'seq', direction: '' }
    : { number: 'direction_seq', direction: 'AND is_credit = $2' };
}

type NullableEntryRow = EntryRow | { [Column in keyof EntryRow]: null };

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
 * The range of a statement export, in one statement: two index probes for its numbers and one
 * primary-key read for each balance, all from one snapshot. The last number is fixed here, so entries posted while an export streams
 * never join it: the statement is the account as it stood when it was asked for.
 */
export async function readStatementSpan(
  db: Queryable,
  range: { accountId: string; from: Date | undefined; to: Date | undefined },
): Promise<StatementSpan> {
  const rows = await db.query<{
    first: bigint;
    last: bigint;
    opening_kobo: bigint;
    closing_kobo: bigint;
  }>(
    `WITH ${numberRangeSql({ credits: undefined })}
     SELECT b.low AS first, b.high AS last, o.kobo AS opening_kobo,
            CASE WHEN b.high >= b.low THEN coalesce(
              (SELECT balance_after_kobo FROM ledger_entries WHERE account_id = $1 AND seq = b.high),
              0) ELSE o.kobo END AS closing_kobo
       FROM bounds b, LATERAL (SELECT coalesce(
              (SELECT balance_after_kobo FROM ledger_entries
                WHERE account_id = $1 AND seq = b.low - 1), 0) AS kobo) o`,
    [range.accountId, null, range.from ?? null, range.to ?? null],
  );
  const row = rows[0];
  if (row === undefined) {
    throw new Error('A statement span is always one row.');
  }
  return {
    first: row.first,
    last: row.last,
    openingKobo: row.opening_kobo,
    closingKobo: row.closing_kobo,
  };
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

import { randomBytes } from 'node:crypto';
import type { Db, Tx } from '../src/db/db.ts';

export interface SeedOptions {
  /** The customer account that receives the history. */
  readonly accountId: string;
  /** The other side of every journal; must allow a negative balance (a float/settlement GL). */
  readonly counterpartId: string;
  readonly entries: number;
  /** Seconds between consecutive journals; the history ends about an hour before now. */
  readonly stepSeconds: number;
}

export interface SeedSummary {
  readonly entries: number;
  readonly credits: number;
  readonly debits: number;
  /** Time of the first generated journal; journal i (1-based) is at firstAt + (i-1) * step. */
  readonly firstAt: Date;
  readonly stepSeconds: number;
  /** The account's seq of generated journal 1 (its entry_count before, plus one). */
  readonly firstSeq: number;
  readonly balanceKobo: bigint;
  readonly elapsedMs: number;
}

interface Counters {
  id: string;
  allow_negative: boolean;
  balance_kobo: bigint;
  held_kobo: bigint;
  entry_count: bigint;
  credit_count: bigint;
  debit_count: bigint;
  last_entry_at: Date | null;
}

// Kind 'test' is one of the JournalKind values: these journals move no real money.
const JOURNAL_KIND = 'test';

/**
 * Fills one customer account with a long history, set-based, in one transaction. Every row is
 * what ledger_post would have written had it posted the same journals one by one: each journal
 * is a pair of entries summing to zero (the customer and a GL account that may go negative),
 * seq and direction_seq run on from the accounts' counters without gaps, balance_after_kobo is
 * the running balance, times never go backwards, and the counters end where ledger_post would
 * leave them. Posting 1M journals through ledger_post, one transaction each, would take about
 * 20 minutes on the dev machine (1.2 ms a post); this takes well under a minute on PostgreSQL.
 */
export async function seedLedger(db: Db, options: SeedOptions): Promise<SeedSummary> {
  const started = performance.now();
  const summary = await db.transaction(async (tx) => {
    // The same lock ledger_post takes, in the same (id) order.
    await tx.query('SELECT ledger_lock_accounts($1)', [[options.accountId, options.counterpartId]]);
    const { account, counterpart } = await readCounters(tx, options);
    const firstAt = timelineStart(options, [account.last_entry_at, counterpart.last_entry_at]);
    await stageJournals(tx, options, firstAt);
    const totals = await readTotals(tx, options.entries);
    assertNeverOverdrawn(account, totals.minRunningAtDebit);
    await insertJournals(tx);
    const restore = await dropEntryIndexesAndForeignKeys(tx);
    await insertEntries(tx, account, 1n);
    await insertEntries(tx, counterpart, -1n);
    for (const statement of restore) {
      await tx.exec(statement);
    }
    await bumpCounters(tx, account.id, totals, 1n);
    await bumpCounters(tx, counterpart.id, totals, -1n);
    return {
      entries: options.entries,
      credits: totals.credits,
      debits: totals.debits,
      firstAt,
      stepSeconds: options.stepSeconds,
      firstSeq: Number(account.entry_count) + 1,
      balanceKobo: account.balance_kobo + totals.sum,
    };
  });
  return { ...summary, elapsedMs: performance.now() - started };
}

async function readCounters(tx: Tx, options: SeedOptions) {
  const rows = await tx.query<Counters>(
    `SELECT id, allow_negative, balance_kobo, held_kobo, entry_count, credit_count, debit_count,
            last_entry_at
       FROM ledger_accounts WHERE id = ANY ($1)`,
    [[options.accountId, options.counterpartId]],
  );
  const account = rows.find((row) => row.id === options.accountId);
  const counterpart = rows.find((row) => row.id === options.counterpartId);
  if (account === undefined || counterpart === undefined) {
    throw new Error('seed: unknown ledger account');
  }
  if (!counterpart.allow_negative) {
    // It takes the opposite of every credit, so its balance goes far below zero.
    throw new Error(`seed: ${counterpart.id} must allow a negative balance`);
  }
  return { account, counterpart };
}

/** Whole seconds, so every generated time is exact and date filters have exact expectations. */
function timelineStart(options: SeedOptions, lastEntries: readonly (Date | null)[]): Date {
  const span = options.entries * options.stepSeconds * 1000;
  let start = Math.floor((Date.now() - span - 3_600_000) / 1000) * 1000;
  // Times must never go backwards within an account: start after either account's last entry.
  for (const last of lastEntries) {
    if (last !== null) {
      start = Math.max(start, Math.ceil(last.getTime() / 1000) * 1000);
    }
  }
  return new Date(start);
}

/**
 * One row per journal, from the customer's side: mostly credits, every 4th a smaller debit, so
 * the balance only grows (each debit follows three larger credits). The window sums give the
 * running balance and per-direction numbers in one sorted pass.
 */
async function stageJournals(tx: Tx, options: SeedOptions, firstAt: Date): Promise<void> {
  await tx.query("SELECT set_config('work_mem', '128MB', true)");
  // Journal ids look like ObjectIds (seconds, then 8 bytes): a per-run salt keeps two seeds apart.
  const salt = randomBytes(3).toString('hex');
  await tx.query(
    `CREATE TEMP TABLE bench_seed ON COMMIT DROP AS
     SELECT i, amount, created_at,
            lpad(to_hex(extract(epoch FROM created_at)::bigint), 8, '0') || $4::text || lpad(to_hex(i), 10, '0')
              AS journal_id,
            CASE WHEN amount > 0 THEN 'Bench seed credit ' ELSE 'Bench seed debit ' END || i
              AS narration,
            -- Shaped like a NIP session id: institution code, yyMMddHHmmss, 12-digit serial.
            '999240' || to_char(created_at AT TIME ZONE 'UTC', 'YYMMDDHH24MISS') || lpad(i::text, 12, '0')
              AS reference,
            sum(amount) OVER w AS running,
            count(*) FILTER (WHERE amount > 0) OVER w AS credits_so_far,
            count(*) FILTER (WHERE amount < 0) OVER w AS debits_so_far
       FROM (SELECT i,
                    (CASE WHEN i % 4 = 0 THEN -(5000 + (i % 7) * 100)
                          ELSE 10000 + (i % 97) * 100 END)::bigint AS amount,
                    $2::timestamptz + make_interval(secs => ((i - 1) * $3::bigint)::double precision)
                      AS created_at
               FROM generate_series(1::bigint, $1::bigint) AS i) g
     WINDOW w AS (ORDER BY i ROWS UNBOUNDED PRECEDING)`,
    [options.entries, firstAt, options.stepSeconds, salt],
  );
}

async function readTotals(tx: Tx, entries: number) {
  const rows = await tx.query<{
    credits: bigint;
    debits: bigint;
    sum: bigint;
    min_running_at_debit: bigint | null;
  }>(
    `SELECT credits_so_far AS credits, debits_so_far AS debits, running::bigint AS sum,
            (SELECT min(running)::bigint FROM bench_seed WHERE amount < 0) AS min_running_at_debit
       FROM bench_seed WHERE i = $1::bigint`,
    [entries],
  );
  const row = rows[0];
  if (row === undefined) {
    throw new Error('seed: nothing staged');
  }
  return {
    credits: Number(row.credits),
    debits: Number(row.debits),
    sum: row.sum,
    minRunningAtDebit: row.min_running_at_debit,
  };
}

/** ledger_post refuses a debit that leaves available funds below zero; so must the seed. */
function assertNeverOverdrawn(account: Counters, minRunningAtDebit: bigint | null): void {
  if (account.allow_negative || minRunningAtDebit === null) {
    return;
  }
  if (account.balance_kobo + minRunningAtDebit - account.held_kobo < 0n) {
    throw new Error(`seed: the generated history would overdraw ${account.id}`);
  }
}

async function insertJournals(tx: Tx): Promise<void> {
  // In id (= time) order, so the primary key index is filled at its right edge.
  await tx.query(
    `INSERT INTO ledger_journals (id, kind, narration, reference, transfer_id, created_at)
     SELECT journal_id, $1::text, narration, reference, NULL, created_at FROM bench_seed ORDER BY i`,
    [JOURNAL_KIND],
  );
}

/**
 * The PostgreSQL manual's advice for bulk loads ("Populating a Database"): building an index
 * once, sorted, beats 2M incremental insertions into five indexes, and one set-based foreign
 * key validation beats 4M per-row trigger checks (together 77 s -> 28 s for 1M journals on the
 * dev machine). Returns the statements that put everything back exactly as the catalog had it.
 * DDL is transactional: if the seed fails, the rollback restores the schema. The primary key
 * and any constraint-backed index stay, so (account_id, seq) is still checked on every row, and
 * the rebuilt unique index and foreign keys check every row again when they are recreated.
 */
async function dropEntryIndexesAndForeignKeys(tx: Tx): Promise<string[]> {
  const indexes = await tx.query<{ drop_sql: string; restore_sql: string }>(
    `SELECT format('DROP INDEX %s', x.indexrelid::regclass) AS drop_sql,
            pg_get_indexdef(x.indexrelid) AS restore_sql
       FROM pg_index x
      WHERE x.indrelid = 'ledger_entries'::regclass
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)
      ORDER BY x.indexrelid`,
  );
  const foreignKeys = await tx.query<{ drop_sql: string; restore_sql: string }>(
    `SELECT format('ALTER TABLE ledger_entries DROP CONSTRAINT %I', conname) AS drop_sql,
            format('ALTER TABLE ledger_entries ADD CONSTRAINT %I %s', conname,
                   pg_get_constraintdef(oid)) AS restore_sql
       FROM pg_constraint
      WHERE conrelid = 'ledger_entries'::regclass AND contype = 'f'
      ORDER BY conname`,
  );
  for (const { drop_sql } of [...foreignKeys, ...indexes]) {
    await tx.exec(drop_sql);
  }
  // Sorting for the index builds in memory rather than in temporary files.
  await tx.query("SELECT set_config('maintenance_work_mem', '128MB', true)");
  return [...indexes, ...foreignKeys].map((row) => row.restore_sql);
}

/**
 * The entries of one side. sign 1 is the customer's view of each amount; -1 the counterpart's,
 * for which a customer credit is a debit, so its credit numbers follow the customer's debits.
 */
async function insertEntries(tx: Tx, account: Counters, sign: 1n | -1n): Promise<void> {
  const [sameDirection, otherDirection] =
    sign === 1n ? ['credits_so_far', 'debits_so_far'] : ['debits_so_far', 'credits_so_far'];
  await tx.query(
    `INSERT INTO ledger_entries (account_id, seq, direction_seq, is_credit, journal_id,
         amount_kobo, balance_after_kobo, narration, created_at)
     SELECT $1::text, $2::bigint + i,
            CASE WHEN $6::bigint * amount > 0 THEN $3::bigint + ${sameDirection}
                 ELSE $4::bigint + ${otherDirection} END,
            $6::bigint * amount > 0, journal_id, $6::bigint * amount,
            $5::bigint + $6::bigint * running, narration, created_at
       FROM bench_seed ORDER BY i`,
    [
      account.id,
      account.entry_count,
      account.credit_count,
      account.debit_count,
      account.balance_kobo,
      sign,
    ],
  );
}

async function bumpCounters(
  tx: Tx,
  accountId: string,
  totals: { credits: number; debits: number; sum: bigint },
  sign: 1n | -1n,
): Promise<void> {
  const [credits, debits] =
    sign === 1n ? [totals.credits, totals.debits] : [totals.debits, totals.credits];
  await tx.query(
    `UPDATE ledger_accounts SET
         balance_kobo = balance_kobo + $2::bigint,
         entry_count = entry_count + $3::bigint + $4::bigint,
         credit_count = credit_count + $3::bigint,
         debit_count = debit_count + $4::bigint,
         last_entry_at = greatest(last_entry_at, (SELECT max(created_at) FROM bench_seed))
       WHERE id = $1`,
    [accountId, sign * totals.sum, credits, debits],
  );
}

/**
 * Fresh statistics: the planner must see 1M rows, not the empty tables it saw at migration.
 * VACUUM as well, as autovacuum would long since have done on an old history: it sets the
 * visibility map (index-only scans skip the heap) and hint bits, and it keeps autovacuum, where
 * it is on, from waking up on 2M new rows in the middle of a measurement.
 */
export async function analyzeLedger(db: Db): Promise<void> {
  await db.exec('VACUUM (ANALYZE) ledger_accounts, ledger_journals, ledger_entries');
}

export interface BalanceCheck {
  readonly balanceKobo: bigint;
  readonly entriesSumKobo: bigint;
  readonly entryCount: bigint;
  readonly lastBalanceAfterKobo: bigint | null;
}

/** The cheap check: one account's stored balance against the sum of its entries. */
export async function checkBalance(db: Db, accountId: string): Promise<BalanceCheck> {
  const rows = await db.query<{
    balance_kobo: bigint;
    entries_sum: bigint;
    entry_count: bigint;
    last_balance_after: bigint | null;
  }>(
    `SELECT l.balance_kobo, l.entry_count,
            (SELECT coalesce(sum(e.amount_kobo), 0)::bigint FROM ledger_entries e
              WHERE e.account_id = l.id) AS entries_sum,
            (SELECT e.balance_after_kobo FROM ledger_entries e
              WHERE e.account_id = l.id ORDER BY e.seq DESC LIMIT 1) AS last_balance_after
       FROM ledger_accounts l WHERE l.id = $1`,
    [accountId],
  );
  const row = rows[0];
  if (row === undefined) {
    throw new Error(`unknown ledger account ${accountId}`);
  }
  return {
    balanceKobo: row.balance_kobo,
    entriesSumKobo: row.entries_sum,
    entryCount: row.entry_count,
    lastBalanceAfterKobo: row.last_balance_after,
  };
}

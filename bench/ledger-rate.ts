/**
 * Server-side parts of the transfer benchmarks, run inside bench-server (the database belongs to
 * that process; PGlite cannot be shared): the raw ledger posting rate (ledger.post in its own
 * transaction, many at a time, no HTTP), a Db wrapper that counts and times round trips, and
 * the queries that check afterwards that every answered transfer left exactly the rows it should.
 */
import type { Db, Tx } from '../src/db/db.ts';
import { GL_ACCOUNTS } from '../src/ledger/gl-accounts.ts';
import type { Posting } from '../src/ledger/journal.ts';
import * as ledger from '../src/ledger/ledger-service.ts';
import { systemClock } from '../src/shared/clock.ts';
import { newObjectId } from '../src/shared/ids.ts';
import { percentile } from './stats.ts';

/**
 * `pair`: one debit, one credit (what an intra-bank transfer posts). `nipSettlement`: what a
 * completed NIP transfer posts: the customer pays amount, fee and VAT (three lines) to the NIP
 * settlement, fee income and VAT payable GL accounts, which every such journal shares.
 */
export type LedgerShape = 'pair' | 'nipSettlement' | 'ceiling';

export interface LedgerRateRequest {
  /** Per lane, the accounts it debits in turn and the accounts it credits in turn. */
  readonly lanes: readonly {
    readonly debit: readonly string[];
    readonly credit: readonly string[];
  }[];
  readonly shape: LedgerShape;
  readonly amountKobo: bigint;
  readonly feeKobo: bigint;
  readonly vatKobo: bigint;
  /**
   * Trivial statements (SELECT 1) after the post, in its transaction: round trips made while
   * the journal's row locks are held, as a transfer's later inserts and checks are.
   */
  readonly tailStatements: number;
  readonly durationMs: number;
  /** Journal references are `${runId}.${lane}.${sequence}`, so the run can be counted after. */
  readonly runId: string;
}

export interface LedgerRateReply {
  readonly posted: number;
  readonly failed: number;
  readonly firstError: string | undefined;
  readonly elapsedMs: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

/**
 * Closed loop: every lane posts one journal (BEGIN, SELECT ledger_post, COMMIT through
 * ledger.post, as services do), waits for its commit, and posts the next, until the time is up;
 * then every lane finishes its journal in flight, so every journal posted is counted.
 */
export async function measureLedgerRate(
  db: Db,
  request: LedgerRateRequest,
): Promise<LedgerRateReply> {
  const started = performance.now();
  const deadline = started + request.durationMs;
  const latencies: number[] = [];
  let failed = 0;
  let firstError: string | undefined;
  let lastDone = started;
  if (request.shape === 'ceiling') {
    await installCeiling(db, request);
  }
  const lane = async (index: number) => {
    const accounts = request.lanes[index];
    if (accounts === undefined) {
      return;
    }
    for (let sequence = 0; performance.now() < deadline; sequence += 1) {
      const debit = accounts.debit[sequence % accounts.debit.length] as string;
      const credit = accounts.credit[sequence % accounts.credit.length] as string;
      const reference = `${request.runId}.${index}.${sequence}`;
      const sent = performance.now();
      try {
        if (request.shape === 'ceiling') {
          await db.query('SELECT bench_ceiling_transfer($1, $2, $3, $4)', [
            reference,
            debit,
            credit,
            request.amountKobo,
          ]);
          lastDone = performance.now();
          latencies.push(lastDone - sent);
          continue;
        }
        const postings = journalPostings(request, debit, credit);
        await db.transaction(async (tx) => {
          await ledger.post(tx, {
            id: newObjectId(systemClock),
            kind: 'test',
            narration: 'Bench ledger post',
            reference,
            createdAt: systemClock.now(),
            postings,
          });
          for (let statement = 0; statement < request.tailStatements; statement += 1) {
            await tx.query('SELECT 1');
          }
        });
        lastDone = performance.now();
        latencies.push(lastDone - sent);
      } catch (error) {
        failed += 1;
        firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(request.lanes.map((_, index) => lane(index)));
  return {
    posted: latencies.length,
    failed,
    firstError,
    elapsedMs: lastDone - started,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
  };
}

/**
 * The ceiling (L): the least a transfer can be, one round trip to a plpgsql function that locks
 * both accounts in id order, moves the balances and writes a journal and its two entries. On
 * tables of its own in the bench database, so the ledger and its invariants are untouched.
 */
async function installCeiling(db: Db, request: LedgerRateRequest): Promise<void> {
  await db.exec(`
    CREATE TABLE IF NOT EXISTS bench_ceiling_accounts (id text PRIMARY KEY, balance bigint NOT NULL);
    CREATE TABLE IF NOT EXISTS bench_ceiling_journals (
      id text PRIMARY KEY, created_at timestamptz NOT NULL DEFAULT now());
    CREATE TABLE IF NOT EXISTS bench_ceiling_entries (
      journal_id text NOT NULL, account_id text NOT NULL, amount bigint NOT NULL);
    CREATE OR REPLACE FUNCTION bench_ceiling_transfer(
      p_journal text, p_from text, p_to text, p_amount bigint) RETURNS void AS $$
    BEGIN
      PERFORM 1 FROM bench_ceiling_accounts WHERE id IN (p_from, p_to) ORDER BY id FOR UPDATE;
      UPDATE bench_ceiling_accounts SET balance = balance - p_amount WHERE id = p_from;
      UPDATE bench_ceiling_accounts SET balance = balance + p_amount WHERE id = p_to;
      INSERT INTO bench_ceiling_journals (id) VALUES (p_journal);
      INSERT INTO bench_ceiling_entries VALUES (p_journal, p_from, -p_amount), (p_journal, p_to, p_amount);
    END $$ LANGUAGE plpgsql;`);
  const ids = [...new Set(request.lanes.flatMap((lane) => [...lane.debit, ...lane.credit]))];
  await db.query(
    `INSERT INTO bench_ceiling_accounts (id, balance)
     SELECT id, 1000000000000 FROM unnest($1::text[]) AS id ON CONFLICT DO NOTHING`,
    [ids],
  );
}

function journalPostings(request: LedgerRateRequest, debit: string, credit: string): Posting[] {
  const { amountKobo, feeKobo, vatKobo } = request;
  if (request.shape === 'pair') {
    return [
      { accountId: debit, amountKobo: -amountKobo },
      { accountId: credit, amountKobo },
    ];
  }
  return [
    { accountId: debit, amountKobo: -amountKobo },
    { accountId: GL_ACCOUNTS.nipSettlement, amountKobo },
    { accountId: debit, amountKobo: -feeKobo },
    { accountId: GL_ACCOUNTS.feeIncome, amountKobo: feeKobo },
    { accountId: debit, amountKobo: -vatKobo },
    { accountId: GL_ACCOUNTS.vatPayable, amountKobo: vatKobo },
  ];
}

/** Round trips to the database since the server started: statements, and transactions. */
export interface DbCounters {
  statements: number;
  transactions: number;
  /**
   * Per statement (its first words) the calls and the milliseconds from sending to the answer,
   * as the server waits for them: database work, round trip and any lock wait. Two synthetic
   * keys per transaction: `(pool wait + BEGIN)` and `(COMMIT)` (the commit and its WAL flush).
   * Statements outside a transaction (keys starting `* `) include the wait for a pooled
   * connection.
   */
  timings: Record<string, StatementTiming>;
}

export interface StatementTiming {
  calls: number;
  ms: number;
}

export const POOL_WAIT_AND_BEGIN = '(pool wait + BEGIN)';
export const COMMIT = '(COMMIT)';

/**
 * The server's Db with every round trip counted and timed: each query, and BEGIN and COMMIT of
 * each transaction (a retried transaction counts its statements again, its BEGIN/COMMIT once).
 * A counter and two clock reads per call: nothing the measurements could see.
 */
export function countingDb(db: Db): { db: Db; counters: DbCounters } {
  const counters: DbCounters = { statements: 0, transactions: 0, timings: {} };
  const record = (key: string, ms: number) => {
    const timing = counters.timings[key];
    if (timing === undefined) {
      counters.timings[key] = { calls: 1, ms };
    } else {
      timing.calls += 1;
      timing.ms += ms;
    }
  };
  const timed = async <T>(key: string, run: () => Promise<T>): Promise<T> => {
    counters.statements += 1;
    const started = performance.now();
    try {
      return await run();
    } finally {
      record(key, performance.now() - started);
    }
  };
  const countTx = (tx: Tx): Tx => ({
    query: (sql, params) => timed(statementKey(sql), () => tx.query(sql, params)),
    exec: (sql) => timed(statementKey(sql), () => tx.exec(sql)),
  });
  const counted: Db = {
    kind: db.kind,
    query: (sql, params) => timed(`* ${statementKey(sql)}`, () => db.query(sql, params)),
    exec: (sql) => timed(`* ${statementKey(sql)}`, () => db.exec(sql)),
    transaction: async (fn) => {
      counters.transactions += 1;
      counters.statements += 2;
      const started = performance.now();
      let bodyEnded = started;
      try {
        return await db.transaction(async (tx) => {
          record(POOL_WAIT_AND_BEGIN, performance.now() - started);
          try {
            return await fn(countTx(tx));
          } finally {
            bodyEnded = performance.now();
          }
        });
      } finally {
        record(COMMIT, performance.now() - bodyEnded);
      }
    },
    close: () => db.close(),
  };
  return { db: counted, counters };
}

const statementKeys = new Map<string, string>();

/** A statement's first words, enough to tell the statements of a transfer apart (cached). */
function statementKey(sql: string): string {
  let key = statementKeys.get(sql);
  if (key === undefined) {
    const words = sql.replace(/\s+/g, ' ').trim();
    key = words.length > 64 ? `${words.slice(0, 61)}...` : words;
    statementKeys.set(sql, key);
  }
  return key;
}

/** What one bench run (all references `${runId}.…`) left in the database. */
export interface RunRows {
  /** Outwards transfers by status. */
  readonly outwards: Record<string, number>;
  readonly inwards: number;
  readonly idempotencyKeys: number;
  readonly outboxEvents: number;
  readonly journals: number;
  /** Holds of the run's NIP transfers, by status. */
  readonly holds: Record<string, number>;
  /** Inbound credits of the run, their journals and their outbox events. */
  readonly credits: number;
  readonly creditJournals: number;
  readonly creditEvents: number;
  /**
   * Payments into the run's virtual accounts: payment rows whose Inwards transfer paid the
   * virtual account made for it, the virtual accounts Paid, and their outbox events.
   */
  readonly collections: number;
  readonly paidVirtualAccounts: number;
  readonly collectionEvents: number;
  /**
   * VAS purchases of the run, found by their Idempotency-Key (`${runId}.…`, scope 'vas'): the
   * keys claimed, the purchases they point at, those successful whose hold (same account and
   * amount) is posted, and their vas_purchase journals (by the purchase's reference).
   */
  readonly vasKeys: number;
  readonly vasPurchases: number;
  readonly vasSuccessful: number;
  readonly vasJournals: number;
}

export function emptyRunRows(): RunRows {
  return {
    outwards: {},
    inwards: 0,
    idempotencyKeys: 0,
    outboxEvents: 0,
    journals: 0,
    holds: {},
    credits: 0,
    creditJournals: 0,
    creditEvents: 0,
    collections: 0,
    paidVirtualAccounts: 0,
    collectionEvents: 0,
    vasKeys: 0,
    vasPurchases: 0,
    vasSuccessful: 0,
    vasJournals: 0,
  };
}

export interface RunRowsReply {
  readonly runs: Record<string, RunRows>;
  readonly pendingHolds: number;
  /** Every VAS purchase of the client, keyed or not: the bench makes none but (g)'s. */
  readonly vasPurchases: number;
}

/**
 * Counts, per run id, the transfers, idempotency keys, outbox events, journals, holds, virtual
 * account payments and VAS purchases the bench's requests left. Reads whole tables once each,
 * after the measurements.
 */
export async function countRunRows(db: Db, request: { clientId: string }): Promise<RunRowsReply> {
  const { clientId } = request;
  // The run just wrote most of these rows: fresh statistics keep the joins below on hash joins
  // (stale ones, from nearly empty tables, can pick nested loops that take minutes).
  await db.query(
    `ANALYZE transfers, ledger_journals, ledger_holds, webhook_events, idempotency_requests,
             virtual_account_payments, virtual_accounts, vas_purchases`,
  );
  const runs = new Map<string, MutableRunRows>();
  const of = (runId: string): MutableRunRows => {
    let rows = runs.get(runId);
    if (rows === undefined) {
      rows = emptyRunRows();
      runs.set(runId, rows);
    }
    return rows;
  };
  await countTransfers(db, clientId, of);
  await countPerField(db, clientId, of, TRANSFER_KEY_COUNTS);
  await countOutboxEvents(db, clientId, of);
  await countPerField(db, clientId, of, CREDIT_COUNTS);
  await countPerField(db, clientId, of, VAS_COUNTS);
  const [clientPurchases] = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM vas_purchases WHERE client_id = $1',
    [clientId],
  );
  await countJournals(db, of);
  await countHolds(db, clientId, of);
  const pending = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ledger_holds WHERE status = 'pending'`,
  );
  return {
    runs: Object.fromEntries(runs),
    pendingHolds: pending[0]?.n ?? -1,
    vasPurchases: clientPurchases?.n ?? -1,
  };
}

type MutableRunRows = { -readonly [K in keyof RunRows]: RunRows[K] };
/** A run's counts, made empty the first time its run id is seen. */
type RunRowsOf = (runId: string) => MutableRunRows;
/** The counts that one query fills in directly: one row per run id. */
type CountField = {
  [K in keyof RunRows]: RunRows[K] extends number ? K : never;
}[keyof RunRows];
type FieldCounts = readonly (readonly [CountField, string])[];

/** The run's transfers: Outwards by status, Inwards all together. */
async function countTransfers(db: Db, clientId: string, of: RunRowsOf): Promise<void> {
  const transfers = await db.query<{ run: string; type: string; status: string; n: number }>(
    `SELECT split_part(payment_reference, '.', 1) AS run, type, status, count(*)::int AS n
       FROM transfers WHERE client_id = $1 AND payment_reference LIKE '%.%.%'
      GROUP BY 1, 2, 3`,
    [clientId],
  );
  for (const row of transfers) {
    if (row.type === 'Outwards') {
      of(row.run).outwards[row.status] = row.n;
    } else {
      of(row.run).inwards += row.n;
    }
  }
}

async function countPerField(
  db: Db,
  clientId: string,
  of: RunRowsOf,
  counts: FieldCounts,
): Promise<void> {
  for (const [field, sql] of counts) {
    for (const row of await db.query<{ run: string; n: number }>(sql, [clientId])) {
      of(row.run)[field] = row.n;
    }
  }
}

const TRANSFER_KEY_COUNTS: FieldCounts = [
  [
    'idempotencyKeys',
    `SELECT split_part(key, '.', 1) AS run, count(*)::int AS n FROM idempotency_requests
      WHERE client_id = $1 AND scope IN ('transfers', 'transfers.bulk') AND key LIKE '%.%.%'
      GROUP BY 1`,
  ],
];

/**
 * Every outbox event of the client, its payload parsed once (a json column: each extraction
 * would parse it again), counted three ways: by the transfer's reference, as an inbound credit
 * and as a virtual account payment, the last two by their narration.
 */
async function countOutboxEvents(db: Db, clientId: string, of: RunRowsOf): Promise<void> {
  const events = await db.query<{ field: CountField; run: string; n: number }>(
    `WITH e AS MATERIALIZED (
       SELECT type, (payload::jsonb) -> 'data' AS d FROM webhook_events WHERE client_id = $1
     )
     SELECT 'outboxEvents' AS field, split_part(d ->> 'paymentReference', '.', 1) AS run,
            count(*)::int AS n
       FROM e WHERE d ->> 'paymentReference' LIKE '%.%.%' GROUP BY 2
     UNION ALL
     SELECT 'creditEvents', split_part(d ->> 'narration', '.', 1), count(*)::int
       FROM e WHERE d ->> 'type' = 'Inwards' AND d ->> 'narration' LIKE '%.%.%'
        AND d ->> 'paymentReference' NOT LIKE '%.%.%' GROUP BY 2
     UNION ALL
     SELECT 'collectionEvents', split_part(d ->> 'narration', '.', 1), count(*)::int
       FROM e WHERE type = 'virtualAccount.transfer' AND d ->> 'narration' LIKE '%.%.%'
      GROUP BY 2`,
    [clientId],
  );
  for (const row of events) {
    of(row.run)[row.field] = row.n;
  }
}

/**
 * Inbound credits, virtual account payments included, carry their run id in the narration
 * (their reference is the session id); a virtual account, in its externalReference, which is
 * its payment's narration.
 */
const CREDIT_COUNTS: FieldCounts = [
  [
    'credits',
    `SELECT split_part(narration, '.', 1) AS run, count(*)::int AS n FROM transfers
      WHERE client_id = $1 AND type = 'Inwards' AND narration LIKE '%.%.%'
        AND payment_reference NOT LIKE '%.%.%' GROUP BY 1`,
  ],
  [
    // By the transfer they post: a payment's journal narration starts with the virtual account.
    'creditJournals',
    `SELECT split_part(t.narration, '.', 1) AS run, count(*)::int AS n
       FROM ledger_journals j JOIN transfers t ON t.id = j.transfer_id
      WHERE j.kind = 'inbound_transfer' AND t.client_id = $1 AND t.type = 'Inwards'
        AND t.narration LIKE '%.%.%' AND t.payment_reference NOT LIKE '%.%.%'
      GROUP BY 1`,
  ],
  [
    'collections',
    `SELECT split_part(t.narration, '.', 1) AS run, count(*)::int AS n
       FROM virtual_account_payments p
       JOIN transfers t ON t.id = p.transfer_id
       JOIN virtual_accounts v ON v.id = p.virtual_account_id
      WHERE p.client_id = $1 AND t.type = 'Inwards' AND t.narration LIKE '%.%.%'
        AND v.external_reference = t.narration
      GROUP BY 1`,
  ],
  [
    'paidVirtualAccounts',
    `SELECT split_part(external_reference, '.', 1) AS run, count(*)::int AS n
       FROM virtual_accounts
      WHERE client_id = $1 AND status = 'Paid' AND external_reference LIKE '%.%.%'
      GROUP BY 1`,
  ],
];

/**
 * VAS purchases carry no run id of their own (their reference is random hex): the
 * Idempotency-Key each request sent, `${runId}.${lane}.${sequence}`, points at its purchase.
 */
const VAS_COUNTS: FieldCounts = [
  [
    'vasKeys',
    `SELECT split_part(key, '.', 1) AS run, count(*)::int AS n FROM idempotency_requests
      WHERE client_id = $1 AND scope = 'vas' AND key LIKE '%.%.%' GROUP BY 1`,
  ],
  [
    'vasPurchases',
    `SELECT split_part(i.key, '.', 1) AS run, count(*)::int AS n
       FROM idempotency_requests i JOIN vas_purchases p ON p.id = i.resource_id
      WHERE i.client_id = $1 AND i.scope = 'vas' AND i.key LIKE '%.%.%' AND p.client_id = $1
      GROUP BY 1`,
  ],
  [
    'vasSuccessful',
    `SELECT split_part(i.key, '.', 1) AS run, count(*)::int AS n
       FROM idempotency_requests i JOIN vas_purchases p ON p.id = i.resource_id
       JOIN ledger_holds h ON h.id = p.hold_id
      WHERE i.client_id = $1 AND i.scope = 'vas' AND i.key LIKE '%.%.%' AND p.client_id = $1
        AND p.status = 'successful' AND h.status = 'posted'
        AND h.account_id = p.account_id AND h.amount_kobo = p.amount_kobo
      GROUP BY 1`,
  ],
  [
    'vasJournals',
    `SELECT split_part(i.key, '.', 1) AS run, count(*)::int AS n
       FROM idempotency_requests i JOIN vas_purchases p ON p.id = i.resource_id
       JOIN ledger_journals j ON j.reference = p.reference AND j.kind = 'vas_purchase'
      WHERE i.client_id = $1 AND i.scope = 'vas' AND i.key LIKE '%.%.%' AND p.client_id = $1
      GROUP BY 1`,
  ],
];

/** Journals carry no client: the run ids are what tell the bench's journals apart. */
async function countJournals(db: Db, of: RunRowsOf): Promise<void> {
  const journals = await db.query<{ run: string; n: number }>(
    `SELECT split_part(reference, '.', 1) AS run, count(*)::int AS n FROM ledger_journals
      WHERE reference LIKE '%.%.%' GROUP BY 1`,
  );
  for (const row of journals) {
    of(row.run).journals = row.n;
  }
  // The ceiling's journals live in its own tables (when a ceiling run made them).
  const ceiling = await db
    .query<{ run: string; n: number }>(
      `SELECT split_part(id, '.', 1) AS run, count(*)::int AS n FROM bench_ceiling_journals
      GROUP BY 1`,
    )
    .catch(() => []);
  for (const row of ceiling) {
    of(row.run).journals += row.n;
  }
}

/** Holds of the run's NIP transfers, by status. */
async function countHolds(db: Db, clientId: string, of: RunRowsOf): Promise<void> {
  const holds = await db.query<{ run: string; status: string; n: number }>(
    `SELECT split_part(t.payment_reference, '.', 1) AS run, h.status, count(*)::int AS n
       FROM transfers t JOIN ledger_holds h ON h.id = t.hold_id
      WHERE t.client_id = $1 AND t.payment_reference LIKE '%.%.%'
      GROUP BY 1, 2`,
    [clientId],
  );
  for (const row of holds) {
    of(row.run).holds[row.status] = row.n;
  }
}

// PostgreSQL only: PGlite is one session, so concurrency there proves nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Db } from '../../src/db/db.ts';
import { AppError } from '../../src/errors/app-error.ts';
import { GL_ACCOUNTS } from '../../src/ledger/gl-accounts.ts';
import type { Posting } from '../../src/ledger/journal.ts';
import { insertLedgerAccount } from '../../src/ledger/ledger-repository.ts';
import * as ledger from '../../src/ledger/ledger-service.ts';
import { systemClock } from '../../src/shared/clock.ts';
import { newObjectId } from '../../src/shared/ids.ts';
import { createTestDb, type TestDb } from '../test-db.ts';

const WORKERS = 32;
const JOURNALS = 10_000;
const SHARED_ACCOUNTS = 40;
const HOT_ACCOUNTS = 2;

describe('ledger invariants under concurrency (PostgreSQL)', () => {
  let testDb: TestDb;
  let accounts: string[];
  const outcome = { posted: 0, refused: 0, holdsPosted: 0, holdsVoided: 0 };

  before(async () => {
    testDb = await createTestDb({ poolSize: WORKERS });
    accounts = await openFundedAccounts(testDb.db, SHARED_ACCOUNTS + HOT_ACCOUNTS);
    let next = 0;
    const worker = async () => {
      while (next < JOURNALS) {
        next += 1;
        await randomOperation(testDb.db, accounts, outcome);
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, worker));
  });
  after(() => testDb.close());

  it(`ran ${JOURNALS} random operations from ${WORKERS} workers, some refused for funds`, () => {
    const total = outcome.posted + outcome.refused + outcome.holdsPosted + outcome.holdsVoided;
    assert.equal(total, JOURNALS);
    assert.ok(outcome.refused > 0, 'overdraft attempts were made and refused');
    assert.ok(outcome.posted > JOURNALS / 2);
  });

  it('keeps the ledger balanced: the sum of all entries is zero, and of every journal', async () => {
    const [total] = await testDb.db.query<{ sum: string }>(
      'SELECT coalesce(sum(amount_kobo), 0)::text AS sum FROM ledger_entries',
    );
    assert.equal(total?.sum, '0');
    const unbalanced = await testDb.db.query(
      'SELECT journal_id FROM ledger_entries GROUP BY journal_id HAVING sum(amount_kobo) <> 0',
    );
    assert.deepEqual(unbalanced, []);
  });

  it('keeps every balance equal to the sum of its entries and its last running balance', async () => {
    const mismatched = await testDb.db.query(`
      SELECT a.id FROM ledger_accounts a
        LEFT JOIN (SELECT account_id, sum(amount_kobo) AS total FROM ledger_entries GROUP BY account_id) e
          ON e.account_id = a.id
        LEFT JOIN ledger_entries last ON last.account_id = a.id AND last.seq = a.entry_count
       WHERE a.balance_kobo <> coalesce(e.total, 0)
          OR (a.entry_count > 0 AND last.balance_after_kobo <> a.balance_kobo)`);
    assert.deepEqual(mismatched, []);
  });

  it('lets no account go negative unless its policy allows it, and leaves no hold pending', async () => {
    const negative = await testDb.db.query(
      'SELECT id FROM ledger_accounts WHERE NOT allow_negative AND balance_kobo - held_kobo < 0',
    );
    assert.deepEqual(negative, []);
    const held = await testDb.db.query(
      "SELECT id FROM ledger_accounts WHERE held_kobo <> 0 UNION SELECT id FROM ledger_holds WHERE status = 'pending'",
    );
    assert.deepEqual(held, []);
  });

  it('numbers every account’s entries 1..n without gaps, per account and per direction', async () => {
    const gaps = await testDb.db.query(`
      SELECT a.id FROM ledger_accounts a
        LEFT JOIN (
          SELECT account_id, count(*) AS n, max(seq) AS top,
                 count(*) FILTER (WHERE is_credit) AS credits,
                 max(direction_seq) FILTER (WHERE is_credit) AS credit_top,
                 count(*) FILTER (WHERE NOT is_credit) AS debits,
                 max(direction_seq) FILTER (WHERE NOT is_credit) AS debit_top
            FROM ledger_entries GROUP BY account_id) e ON e.account_id = a.id
       WHERE a.entry_count <> coalesce(e.n, 0) OR a.entry_count <> coalesce(e.top, 0)
          OR a.credit_count <> coalesce(e.credits, 0) OR a.credit_count <> coalesce(e.credit_top, 0)
          OR a.debit_count <> coalesce(e.debits, 0) OR a.debit_count <> coalesce(e.debit_top, 0)`);
    assert.deepEqual(gaps, []);
  });

  it('never lets entry times go backwards within an account', async () => {
    const backwards = await testDb.db.query(`
      SELECT account_id FROM (
        SELECT account_id, created_at < lag(created_at) OVER (PARTITION BY account_id ORDER BY seq) AS back
          FROM ledger_entries) t WHERE back`);
    assert.deepEqual(backwards, []);
  });
});

async function openFundedAccounts(db: Db, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const id = newObjectId(systemClock);
    await insertLedgerAccount(db, {
      id,
      kind: 'customer',
      name: `acct ${index}`,
      createdAt: new Date(),
    });
    await db.transaction((tx) =>
      ledger.post(tx, journal([GL_ACCOUNTS.sandboxExternalFloat, -500_000n], [id, 500_000n])),
    );
    ids.push(id);
  }
  return ids;
}

function journal(...postings: [string, bigint][]) {
  return {
    id: newObjectId(systemClock),
    kind: 'test' as const,
    narration: 'random',
    createdAt: new Date(),
    postings: postings.map(([accountId, amountKobo]): Posting => ({ accountId, amountKobo })),
  };
}

/** A quarter of traffic touches the hot accounts; amounts sometimes exceed what is there. */
function pickAccount(accounts: string[]): string {
  const hot = Math.random() < 0.25;
  const pool = hot ? accounts.slice(-HOT_ACCOUNTS) : accounts.slice(0, SHARED_ACCOUNTS);
  return pool[Math.floor(Math.random() * pool.length)] as string;
}

async function randomOperation(db: Db, accounts: string[], outcome: Record<string, number>) {
  const from = pickAccount(accounts);
  let to = pickAccount(accounts);
  while (to === from) {
    to = pickAccount(accounts);
  }
  const amount = BigInt(1 + Math.floor(Math.random() * 60_000));
  const fee = BigInt(Math.floor(Math.random() * 3) * 1_000);
  const roll = Math.random();
  try {
    if (roll < 0.1) {
      const settle = roll < 0.07;
      await holdThenSettle(db, from, amount, settle);
      count(outcome, settle ? 'holdsPosted' : 'holdsVoided');
      return;
    }
    const postings: [string, bigint][] = [
      [from, -(amount + fee)],
      [to, amount],
    ];
    if (fee > 0n) {
      postings.push([GL_ACCOUNTS.feeIncome, fee]);
    }
    await db.transaction((tx) => ledger.post(tx, journal(...postings)));
    count(outcome, 'posted');
  } catch (error) {
    if (!(error instanceof AppError && error.code === 'INSUFFICIENT_FUNDS')) {
      throw error;
    }
    count(outcome, 'refused');
  }
}

function count(outcome: Record<string, number>, key: string): void {
  outcome[key] = (outcome[key] ?? 0) + 1;
}

/** Two-phase: hold in one transaction, then post or void it in another, as NIP transfers do. */
async function holdThenSettle(db: Db, from: string, amount: bigint, settle: boolean) {
  const holdId = newObjectId(systemClock);
  await db.transaction((tx) =>
    ledger.hold(tx, {
      id: holdId,
      accountId: from,
      amountKobo: amount,
      reference: holdId,
      createdAt: new Date(),
    }),
  );
  await db.transaction(async (tx) => {
    if (settle) {
      await ledger.post(tx, {
        ...journal([from, -amount], [GL_ACCOUNTS.nipSettlement, amount]),
        releaseHoldId: holdId,
      });
    } else {
      await ledger.voidHold(tx, holdId, new Date());
    }
  });
}

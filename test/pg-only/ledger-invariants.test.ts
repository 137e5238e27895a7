// PostgreSQL only: PGlite is one session, so concurrency there proves nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Db } from '../../src/db/db.ts';
import { AppError } from '../../src/errors/app-error.ts';
import { GL_ACCOUNTS } from '../../src/ledger/gl-accounts.ts';
import type { Posting } from '../../src/ledger/journal.ts';
import { verifyLedger } from '../../src/ledger/ledger-audit.ts';
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

  it('keeps the ledger balanced: the sum of all entries is zero', async () => {
    const [total] = await testDb.db.query<{ sum: string }>(
      'SELECT coalesce(sum(amount_kobo), 0)::text AS sum FROM ledger_entries',
    );
    assert.equal(total?.sum, '0');
  });

  it('passes the ledger audit: balanced journals, balance = Σ entries = running balance, entries numbered 1..n per account and direction, no backwards time, no overdrawn entry', async () => {
    const violations = await verifyLedger(testDb.db);
    assert.deepEqual(
      Object.entries(violations).filter(([, count]) => count !== 0),
      [],
    );
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

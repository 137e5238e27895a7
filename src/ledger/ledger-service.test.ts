import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { AppError } from '../errors/app-error.ts';
import { ManualClock } from '../shared/clock.ts';
import { newObjectId } from '../shared/ids.ts';
import { InvariantError } from '../shared/invariant.ts';
import { GL_ACCOUNTS } from './gl-accounts.ts';
import type { Posting } from './journal.ts';
import { findLedgerAccount, insertLedgerAccount } from './ledger-repository.ts';
import * as ledger from './ledger-service.ts';

describe('ledger', () => {
  let testDb: TestDb;
  const clock = new ManualClock(new Date('2026-03-02T09:00:00.000Z'));
  let alice: string;
  let bob: string;

  before(async () => {
    testDb = await createTestDb();
  });
  after(() => testDb.close());

  beforeEach(async () => {
    alice = newObjectId(clock);
    bob = newObjectId(clock);
    for (const id of [alice, bob]) {
      await insertLedgerAccount(testDb.db, {
        id,
        kind: 'customer',
        name: id,
        createdAt: clock.now(),
      });
    }
    await post([
      [GL_ACCOUNTS.sandboxExternalFloat, -10_000n],
      [alice, 10_000n],
    ]);
  });

  function post(postings: [string, bigint][], releaseHoldId?: string) {
    return testDb.db.transaction((tx) =>
      ledger.post(tx, {
        id: newObjectId(clock),
        kind: 'test',
        narration: 'test',
        createdAt: clock.now(),
        postings: postings.map(([accountId, amountKobo]): Posting => ({ accountId, amountKobo })),
        ...(releaseHoldId === undefined ? {} : { releaseHoldId }),
      }),
    );
  }

  async function balances(id: string) {
    const account = await findLedgerAccount(testDb.db, id);
    assert.ok(account);
    return { balance: account.balance_kobo, held: account.held_kobo, entries: account.entry_count };
  }

  describe('posting', () => {
    it('moves money between accounts and numbers entries 1, 2, 3', async () => {
      await post([
        [alice, -2_500n],
        [bob, 2_500n],
      ]);
      assert.deepEqual(await balances(alice), { balance: 7_500n, held: 0n, entries: 2n });
      assert.deepEqual(await balances(bob), { balance: 2_500n, held: 0n, entries: 1n });
      const entries = await testDb.db.query<{ seq: bigint; balance_after_kobo: bigint }>(
        'SELECT seq, balance_after_kobo FROM ledger_entries WHERE account_id = $1 ORDER BY seq',
        [alice],
      );
      assert.deepEqual(entries, [
        { seq: 1n, balance_after_kobo: 10_000n },
        { seq: 2n, balance_after_kobo: 7_500n },
      ]);
    });

    it('applies postings in order, so an account may be credited then charged', async () => {
      await post([
        [GL_ACCOUNTS.sandboxExternalFloat, -1_000_000n],
        [bob, 1_000_000n],
        [bob, -5_000n],
        [GL_ACCOUNTS.stampDutyPayable, 5_000n],
      ]);
      assert.deepEqual(await balances(bob), { balance: 995_000n, held: 0n, entries: 2n });
    });

    it('refuses an unbalanced or one-legged journal before it reaches the database', async () => {
      await assert.rejects(
        post([
          [alice, -1n],
          [bob, 2n],
        ]),
        InvariantError,
      );
      await assert.rejects(post([[alice, -1n]]), InvariantError);
      await assert.rejects(
        post([
          [alice, 0n],
          [bob, 0n],
        ]),
        InvariantError,
      );
    });

    it('refuses an overdraft with INSUFFICIENT_FUNDS and posts nothing', async () => {
      await assert.rejects(
        post([
          [alice, -10_001n],
          [bob, 10_001n],
        ]),
        (error: AppError) => error instanceof AppError && error.code === 'INSUFFICIENT_FUNDS',
      );
      assert.deepEqual(await balances(alice), { balance: 10_000n, held: 0n, entries: 1n });
      assert.deepEqual(await balances(bob), { balance: 0n, held: 0n, entries: 0n });
    });

    it('lets an account whose policy allows it go negative (external float)', async () => {
      const before = await balances(GL_ACCOUNTS.sandboxExternalFloat);
      // More than the float holds: a customer account would refuse this (see the overdraft test).
      const amount = (before.balance < 0n ? -before.balance : before.balance) + 7_000n;
      await post([
        [GL_ACCOUNTS.sandboxExternalFloat, -amount],
        [bob, amount],
      ]);
      const after = await balances(GL_ACCOUNTS.sandboxExternalFloat);
      assert.equal(after.balance, before.balance - amount);
      assert.ok(after.balance < 0n);
      assert.equal(after.entries, before.entries + 1n);
      assert.deepEqual(await balances(bob), { balance: amount, held: 0n, entries: 1n });
      const [entry] = await testDb.db.query<{ balance_after_kobo: bigint }>(
        'SELECT balance_after_kobo FROM ledger_entries WHERE account_id = $1 ORDER BY seq DESC LIMIT 1',
        [GL_ACCOUNTS.sandboxExternalFloat],
      );
      assert.equal(entry?.balance_after_kobo, after.balance);
    });

    it('refuses an unknown account', async () => {
      await assert.rejects(
        post([
          [alice, -1n],
          ['no-such-account', 1n],
        ]),
        /unknown ledger account/,
      );
    });
  });

  describe('holds (two-phase)', () => {
    const hold = (amountKobo: bigint, id = newObjectId(clock)) =>
      testDb.db
        .transaction((tx) =>
          ledger.hold(tx, {
            id,
            accountId: alice,
            amountKobo,
            reference: 'ref',
            createdAt: clock.now(),
          }),
        )
        .then(() => id);

    it('reserves funds: available drops, book balance does not', async () => {
      await hold(4_000n);
      assert.deepEqual(await balances(alice), { balance: 10_000n, held: 4_000n, entries: 1n });
      // 6,000 available: a 6,001 debit fails, and so does a second hold of 6,001.
      await assert.rejects(
        post([
          [alice, -6_001n],
          [bob, 6_001n],
        ]),
        /Insufficient funds/,
      );
      await assert.rejects(hold(6_001n), /Insufficient funds/);
    });

    it('posts a hold: the journal settles it and the money moves once', async () => {
      const holdId = await hold(4_000n);
      await post(
        [
          [alice, -4_000n],
          [GL_ACCOUNTS.nipSettlement, 4_000n],
        ],
        holdId,
      );
      assert.deepEqual(await balances(alice), { balance: 6_000n, held: 0n, entries: 2n });
      // A hold posts once.
      await assert.rejects(
        post(
          [
            [alice, -4_000n],
            [GL_ACCOUNTS.nipSettlement, 4_000n],
          ],
          holdId,
        ),
        /hold is not pending/,
      );
    });

    it('voids a hold: funds return, nothing posts', async () => {
      const holdId = await hold(4_000n);
      await testDb.db.transaction((tx) => ledger.voidHold(tx, holdId, clock.now()));
      assert.deepEqual(await balances(alice), { balance: 10_000n, held: 0n, entries: 1n });
      await assert.rejects(
        testDb.db.transaction((tx) => ledger.voidHold(tx, holdId, clock.now())),
        /hold is not pending/,
      );
    });
  });
});

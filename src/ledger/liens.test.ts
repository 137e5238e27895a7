import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { ManualClock } from '../shared/clock.ts';
import { newObjectId } from '../shared/ids.ts';
import { GL_ACCOUNTS } from './gl-accounts.ts';
import { verifyLedger } from './ledger-audit.ts';
import { findLedgerAccount, insertLedgerAccount } from './ledger-repository.ts';
import * as ledger from './ledger-service.ts';
import { findLien, lienJson, listLiens, writeOffJournalJson } from './liens.ts';

/**
 * The ledger's liens (docs/ledger.md, "Liens"), through its SQL functions: a clawback takes what
 * the debtor has and liens the rest; credits and voided holds pay liens first, oldest first; a
 * release writes off what is left. Every invariant holds after each.
 */
describe('ledger liens', () => {
  let testDb: TestDb;
  const clock = new ManualClock(new Date('2026-03-02T09:00:00.000Z'));
  let debtor: string;

  before(async () => {
    testDb = await createTestDb();
  });
  after(() => testDb.close());

  beforeEach(async () => {
    debtor = newObjectId(clock);
    await insertLedgerAccount(testDb.db, {
      id: debtor,
      kind: 'customer',
      name: debtor,
      createdAt: clock.now(),
    });
    await credit(3_000n);
  });

  function credit(kobo: bigint) {
    return testDb.db.transaction((tx) =>
      ledger.post(tx, {
        id: newObjectId(clock),
        kind: 'test',
        narration: 'credit',
        createdAt: clock.now(),
        postings: [
          { accountId: GL_ACCOUNTS.sandboxExternalFloat, amountKobo: -kobo },
          { accountId: debtor, amountKobo: kobo },
        ],
      }),
    );
  }

  /** Takes back `kobo` for the settlement GL: answers the shortfall, liened. */
  async function clawback(kobo: bigint, reason = 'recalled'): Promise<bigint> {
    clock.advanceSeconds(1);
    const journal = ledger.journalJson({
      id: newObjectId(clock),
      kind: 'inbound_recall',
      narration: reason,
      createdAt: clock.now(),
      postings: [
        { accountId: debtor, amountKobo: -kobo },
        { accountId: GL_ACCOUNTS.nipSettlement, amountKobo: kobo },
      ],
    });
    const lien = lienJson({
      id: newObjectId(clock),
      accountId: debtor,
      reason,
      reference: reason,
      onFilled: null,
    });
    const rows = await testDb.db.query<{ short: bigint }>(
      'SELECT ledger_post_clawback($1::jsonb, $2::jsonb) AS short',
      [JSON.stringify(journal), JSON.stringify(lien)],
    );
    return BigInt(rows[0]?.short ?? -1n);
  }

  async function state() {
    const account = await findLedgerAccount(testDb.db, debtor);
    assert.ok(account);
    const liens = await listLiens(testDb.db, debtor);
    return {
      balance: BigInt(account.balance_kobo),
      held: BigInt(account.held_kobo),
      liens: liens.map((lien) => [lien.status, lien.outstandingKobo]),
    };
  }

  async function assertSound() {
    const violations = await verifyLedger(testDb.db);
    assert.deepEqual(
      Object.entries(violations).filter(([, count]) => count !== 0),
      [],
    );
  }

  it('a clawback the debtor covers takes it all and places no lien', async () => {
    assert.equal(await clawback(1_000n), 0n);
    assert.deepEqual(await state(), { balance: 2_000n, held: 0n, liens: [] });
    await assertSound();
  });

  it('a clawback beyond the funds takes what is there and liens the rest; credits pay it first', async () => {
    assert.equal(await clawback(5_000n), 2_000n);
    assert.deepEqual(await state(), { balance: 0n, held: 0n, liens: [['active', 2_000n]] });
    await credit(500n);
    assert.deepEqual(await state(), { balance: 0n, held: 0n, liens: [['active', 1_500n]] });
    await credit(1_700n);
    assert.deepEqual(await state(), { balance: 200n, held: 0n, liens: [['filled', 0n]] });
    await assertSound();
  });

  it('two liens are paid oldest first; one credit may pay both', async () => {
    await clawback(4_000n, 'first'); // takes 3,000, liens 1,000
    await clawback(2_000n, 'second'); // liens all 2,000
    await credit(2_500n);
    const liens = await listLiens(testDb.db, debtor);
    assert.deepEqual(
      liens.map((lien) => [lien.reason, lien.status, lien.outstandingKobo]),
      [
        ['first', 'filled', 0n],
        ['second', 'active', 500n],
      ],
    );
    await assertSound();
  });

  it('a voided hold pays the lien with the funds it gives back', async () => {
    const holdId = newObjectId(clock);
    await testDb.db.transaction((tx) =>
      ledger.hold(tx, {
        id: holdId,
        accountId: debtor,
        amountKobo: 2_000n,
        reference: 'nip',
        createdAt: clock.now(),
      }),
    );
    assert.equal(await clawback(2_000n), 1_000n, 'only the 1,000 not held is taken');
    await testDb.db.transaction((tx) => ledger.voidHold(tx, holdId, clock.now()));
    assert.deepEqual(await state(), { balance: 1_000n, held: 0n, liens: [['filled', 0n]] });
    await assertSound();
  });

  it('a release writes off what is outstanding, once', async () => {
    await clawback(4_000n); // liens 1,000
    await credit(400n);
    const [lien] = await listLiens(testDb.db, debtor);
    assert.ok(lien);
    const release = () =>
      testDb.db.query<{ written_off: bigint | null }>(
        'SELECT ledger_release_lien($1, $2::jsonb, $3, $4) AS written_off',
        [
          lien.id,
          JSON.stringify(
            writeOffJournalJson({
              id: newObjectId(clock),
              narration: 'released',
              lienId: lien.id,
              createdAt: clock.now(),
            }),
          ),
          'ngozi',
          clock.now(),
        ],
      );
    assert.equal(BigInt((await release())[0]?.written_off ?? -1n), 600n);
    assert.equal((await release())[0]?.written_off, null, 'not active any more');
    const released = await findLien(testDb.db, lien.id);
    assert.deepEqual(
      [released?.status, released?.outstandingKobo, released?.writtenOffKobo, released?.releasedBy],
      ['released', 0n, 600n, 'ngozi'],
    );
    await credit(100n);
    assert.deepEqual(await state(), { balance: 100n, held: 0n, liens: [['released', 0n]] });
    await assertSound();
  });
});

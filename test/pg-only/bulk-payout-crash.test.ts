// PostgreSQL only: the server runs as a real process that is SIGKILLed in the middle of bulk
// batches (some items placed, some pending, one batch holding its total under allOrNothing) and
// restarted on the same database, while this test reads that database directly.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { OTHER_BANK, OTHER_BANK_ACCOUNT } from '../factories.ts';
import { callApi, ServerFixture, sandboxCredit, signUpClient, sleep } from './server-fixture.ts';

const SECRETS = {
  adminToken: 'bulk-crash-admin-token-0123456789abcdefghij',
  tokenSigningSecret: 'bulk-crash-signing-secret-0123456789abcdefghij',
  publicBaseUrl: 'http://bulk-crash.openibs.invalid',
};
/** Each chunk waits for its NIP name enquiries: slow enough to die between chunks. */
const RAIL_LATENCY_MS = '400';
const ITEMS = 240;
const KILL_TIMEOUT_MS = 30_000;
const FINISH_TIMEOUT_MS = 90_000;

describe('bulk batches survive a SIGKILL mid-batch (PostgreSQL)', { timeout: 240_000 }, () => {
  const fixture = new ServerFixture('bulk-crash', SECRETS);
  before(() => fixture.open());
  after(() => fixture.close());

  const count = async (sql: string, params: string[] = []) =>
    Number((await fixture.db.query<{ n: number }>(sql, params))[0]?.n);

  test('every item ends once, nothing half done, one completion event per batch', async () => {
    const life = { STATUS_QUERY_CLAIM_SECONDS: '5', STATUS_QUERY_SCHEDULE_SECONDS: '8,1' };
    const first = await fixture.startServer({ ...life, NIP_SIMULATOR_LATENCY_MS: RAIL_LATENCY_MS });
    const { headers, mainAccount: account } = await signUpClient(
      first.baseUrl,
      SECRETS,
      'Crash Payroll Ltd',
    );
    const payee = await signUpClient(first.baseUrl, SECRETS, 'Crash Payee Ltd', 1);
    await sandboxCredit(first.baseUrl, SECRETS, account.accountNumber, 30_000);
    const batches: string[] = [];
    for (const [index, allOrNothing] of [false, false, true].entries()) {
      const transfers = Array.from({ length: ITEMS }, (_, item) => ({
        debitAccountNumber: account.accountNumber,
        ...(item % 2 === 0
          ? { beneficiaryBankCode: OTHER_BANK, beneficiaryAccountNumber: OTHER_BANK_ACCOUNT }
          : {
              beneficiaryBankCode: '999240',
              beneficiaryAccountNumber: payee.mainAccount.accountNumber,
            }),
        // Enough for most, not all: the first two batches run out of funds near their end.
        amount: allOrNothing ? 5 : 50 + (item % 7),
        paymentReference: `C${index}-${item}`,
      }));
      const accepted = await callApi(
        first.baseUrl,
        'POST',
        '/transfers/bulk',
        { ...headers, 'idempotency-key': `crash-${index}` },
        { transfers, allOrNothing },
      );
      batches.push(accepted.data._id as string);
    }

    // Kill once some items are placed and others still pending.
    const deadline = Date.now() + KILL_TIMEOUT_MS;
    while (
      (await count(`SELECT count(*)::int AS n FROM bulk_items WHERE status = 'Placed'`)) < 60
    ) {
      assert.ok(Date.now() < deadline, `no item placed\n${first.server.log()}`);
      await sleep(20);
    }
    const exit = await first.server.kill();
    assert.equal(exit.signal, 'SIGKILL');
    const pendingAtKill = await count(
      `SELECT count(*)::int AS n FROM bulk_items WHERE status = 'Pending'`,
    );
    assert.ok(pendingAtKill > 0, 'the kill came mid-batch');
    await checkNothingHalfDone(fixture);

    // Second life: a fast network; the worker takes the batches again once their claim ran out.
    const second = await fixture.startServer(life);
    const finishBy = Date.now() + FINISH_TIMEOUT_MS;
    while (
      (await count(`SELECT count(*)::int AS n FROM bulk_batches WHERE status <> 'Completed'`)) > 0
    ) {
      assert.ok(Date.now() < finishBy, `batches still Processing\n${second.server.log()}`);
      await sleep(200);
    }
    await checkNothingHalfDone(fixture);
    assert.equal(
      await count(`SELECT count(*)::int AS n FROM bulk_items WHERE status = 'Pending'`),
      0,
    );
    for (const batchId of batches) {
      assert.equal(
        await count(
          `SELECT count(*)::int AS n FROM webhook_events WHERE type = 'transfer.bulk.completed'
            AND payload::jsonb->'data'->>'_id' = $1`,
          [batchId],
        ),
        1,
      );
    }
    const shown = await callApi(second.baseUrl, 'GET', `/transfers/bulk/${batches[2]}`, headers);
    assert.equal(shown.data.placed, ITEMS, 'the allOrNothing batch placed every item on its hold');
    console.log(`bulk crash: ${pendingAtKill} items pending at the kill, all ended after restart`);
    await second.server.terminate();
  });
});

/**
 * Whatever moment the process died at: a Placed item has exactly its transfer, a transfer of a
 * bulk reference has exactly its Placed item, a refused or pending item none; the account's
 * balance and holds are what its transfers and the pending items' holds say; every ledger
 * invariant holds.
 */
async function checkNothingHalfDone(fixture: ServerFixture): Promise<void> {
  const count = async (sql: string) => Number((await fixture.db.query<{ n: number }>(sql))[0]?.n);
  assert.equal(
    await count(`SELECT count(*)::int AS n FROM bulk_items i WHERE (status = 'Placed') <> EXISTS (
      SELECT 1 FROM transfers t WHERE t.type = 'Outwards' AND t.client_id = i.client_id
         AND t.payment_reference = i.payment_reference
         AND (i.status <> 'Placed' OR t.id = i.transfer_id))`),
    0,
  );
  assert.equal(
    await count(`SELECT count(*)::int AS n FROM transfers t WHERE type = 'Outwards'
      AND payment_reference LIKE 'C%-%'
      AND (SELECT count(*) FROM bulk_items i WHERE i.transfer_id = t.id) <> 1`),
    0,
  );
  // Each batch's counts are its items'.
  assert.equal(
    await count(`SELECT count(*)::int AS n FROM bulk_batches b WHERE (b.placed, b.refused) <> (
        SELECT count(*) FILTER (WHERE status = 'Placed'), count(*) FILTER (WHERE status = 'Refused')
          FROM bulk_items i WHERE i.batch_id = b.id)`),
    0,
  );
  // An allOrNothing hold is pending exactly while its item is.
  assert.equal(
    await count(`SELECT count(*)::int AS n FROM bulk_items i JOIN ledger_holds h ON h.id = i.hold_id
      WHERE (h.status = 'pending') <> (i.status = 'Pending')`),
    0,
  );
  assert.equal(
    await count(`SELECT count(*)::int AS n FROM ledger_accounts l JOIN accounts a ON a.id = l.id
      WHERE l.balance_kobo <> (SELECT coalesce(sum(CASE WHEN t.type = 'Inwards'
          THEN t.amount_kobo - t.stamp_duty_kobo
          ELSE -(t.amount_kobo + t.fee_kobo + t.vat_kobo) END), 0)
        FROM transfers t WHERE t.account_id = a.id AND t.status = 'Completed')
      OR l.held_kobo <> (SELECT coalesce(sum(amount_kobo), 0) FROM ledger_holds h
        WHERE h.account_id = l.id AND h.status = 'pending')`),
    0,
  );
  assert.deepEqual(await fixture.ledgerViolations(), []);
}

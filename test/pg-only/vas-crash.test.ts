// PostgreSQL only: the server runs as a real process that is SIGKILLed with VAS purchases held
// and at the (slow) biller, then restarted on the same database, while this test reads it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ServerFixture, sandboxCredit, signUpClient, sleep } from './server-fixture.ts';

const SECRETS = {
  adminToken: 'vas-crash-admin-token-0123456789abcdefghijkl',
  tokenSigningSecret: 'vas-crash-signing-secret-0123456789abcdefghij',
  publicBaseUrl: 'http://vas-crash.openibs.invalid',
};
const HTTP_TIMEOUT_MS = 10_000;
const SETTLE_TIMEOUT_MS = 60_000;
const MTN_AIRTIME = '61e988830e69308aa37a7a99';
/**
 * Phone endings → what the biller finally did with the purchase (BILLER_MAGIC in
 * src/modules/vas/providers/biller-simulator.ts): asked again after the restart, it answers.
 */
const FINAL_BY_ENDING: Readonly<Record<string, 'successful' | 'failed'>> = {
  '5678': 'successful',
  '0000': 'failed',
  '1111': 'successful',
  '2222': 'failed',
  '3333': 'successful',
  '4444': 'failed',
};
const PURCHASES_PER_ENDING = 3;

interface PurchaseRow {
  id: string;
  beneficiary: string;
  amount_kobo: bigint;
  commission_kobo: bigint;
  status: string;
  hold_id: string;
}

describe('VAS purchases survive a SIGKILL while at the biller (PostgreSQL)', {
  timeout: 240_000,
}, () => {
  const fixture = new ServerFixture('vas-crash', SECRETS);
  const purchasesOf = (accountId: string) =>
    fixture.db.query<PurchaseRow>(
      `SELECT id, beneficiary, amount_kobo, commission_kobo, status, hold_id FROM vas_purchases
        WHERE account_id = $1 ORDER BY id`,
      [accountId],
    );
  const ledgerOf = async (accountId: string) =>
    (
      await fixture.db.query<{ balance_kobo: bigint; held_kobo: bigint }>(
        'SELECT balance_kobo, held_kobo FROM ledger_accounts WHERE id = $1',
        [accountId],
      )
    )[0];

  before(() => fixture.open());
  after(() => fixture.close());

  test('each purchase ends as the biller decided, its hold posted or voided, once', async () => {
    // First life: a slow biller, and no status query before the kill.
    const first = await fixture.startServer({
      VAS_BILLER_SIMULATOR_LATENCY_MS: '3000',
      VAS_STATUS_QUERY_SCHEDULE_SECONDS: '8,1',
    });
    const { headers, mainAccount: account } = await signUpClient(
      first.baseUrl,
      SECRETS,
      'Crash VAS Ltd',
    );
    await sandboxCredit(first.baseUrl, SECRETS, account.accountNumber, 9_000);
    const [opening] = [await ledgerOf(account._id)];
    const endings = Object.keys(FINAL_BY_ENDING);
    const phones = endings.flatMap((ending) =>
      Array.from({ length: PURCHASES_PER_ENDING }, (_, index) => `080312${index}${ending}`),
    );
    const inFlight = phones.map((phoneNumber) =>
      fetch(`${first.baseUrl}/vas/pay/airtime`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({
          serviceCategoryId: MTN_AIRTIME,
          amount: 100,
          channel: 'WEB',
          debitAccountNumber: account.accountNumber,
          phoneNumber,
        }),
      }).then(
        (response) => `answered ${response.status}`,
        () => 'no answer',
      ),
    );

    // Kill once every purchase is held (it is then at the slow biller).
    const deadline = Date.now() + HTTP_TIMEOUT_MS;
    while ((await purchasesOf(account._id)).length < phones.length) {
      assert.ok(Date.now() < deadline, `purchases were not placed\n${first.server.log()}`);
      await sleep(20);
    }
    await sleep(200);
    const exit = await first.server.kill();
    assert.equal(exit.signal, 'SIGKILL');
    assert.deepEqual(new Set(await Promise.all(inFlight)), new Set(['no answer']));
    const held = await purchasesOf(account._id);
    assert.deepEqual(new Set(held.map((row) => row.status)), new Set(['pending']));
    assert.equal((await ledgerOf(account._id))?.held_kobo, BigInt(phones.length) * 10_000n);

    // Second life: a fast biller; the status-query worker settles what the first life left.
    const second = await fixture.startServer({ VAS_STATUS_QUERY_SCHEDULE_SECONDS: '8,1' });
    const settleBy = Date.now() + SETTLE_TIMEOUT_MS;
    let settled = await purchasesOf(account._id);
    while (settled.some((row) => row.status === 'pending')) {
      assert.ok(Date.now() < settleBy, `purchases still pending\n${second.server.log()}`);
      await sleep(200);
      settled = await purchasesOf(account._id);
    }
    for (const row of settled) {
      assert.equal(row.status, FINAL_BY_ENDING[row.beneficiary.slice(-4)], row.beneficiary);
    }
    const holds = await fixture.db.query<{ status: string; count: bigint }>(
      'SELECT status, count(*) FROM ledger_holds WHERE account_id = $1 GROUP BY status ORDER BY status',
      [account._id],
    );
    const successful = settled.filter((row) => row.status === 'successful');
    assert.deepEqual(
      holds.map((row) => [row.status, Number(row.count)]),
      [
        ['posted', successful.length],
        ['voided', settled.length - successful.length],
      ],
    );
    const spent = successful.reduce((sum, row) => sum + row.amount_kobo - row.commission_kobo, 0n);
    assert.deepEqual(await ledgerOf(account._id), {
      balance_kobo: (opening?.balance_kobo ?? 0n) - spent,
      held_kobo: 0n,
    });
    assert.deepEqual(await fixture.ledgerViolations(), []);
    await second.server.terminate();
  });
});

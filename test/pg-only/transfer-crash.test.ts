// PostgreSQL only: the server runs as a real process that is SIGKILLed with NIP transfers in
// flight and restarted on the same database, while this test reads that database directly.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { OTHER_BANK_ACCOUNT as OTHER_ACCOUNT, OTHER_BANK } from '../factories.ts';
import {
  nameEnquiry,
  ServerFixture,
  sandboxCredit,
  signUpClient,
  sleep,
} from './server-fixture.ts';

const SECRETS = {
  adminToken: 'crash-test-admin-token-0123456789abcdefghij',
  tokenSigningSecret: 'crash-test-signing-secret-0123456789abcdefghij',
  publicBaseUrl: 'http://transfer-crash.openibs.invalid',
};
const HTTP_TIMEOUT_MS = 10_000;
const SETTLE_TIMEOUT_MS = 60_000;
/** Long enough that every transfer is held and at the rail when the server dies. */
const RAIL_LATENCY_MS = '3000';
/** Kobo part → what the simulated network finally does with the transfer (docs/sandbox-nip.md). */
const FINAL_STATUS_BY_KOBO: Readonly<Record<number, 'Completed' | 'Failed'>> = {
  0: 'Completed',
  5: 'Failed',
  51: 'Failed',
  97: 'Completed',
  96: 'Completed',
  1: 'Failed',
  9: 'Completed',
  94: 'Completed',
};
const TRANSFERS_PER_OUTCOME = 3;

interface TransferRow {
  id: string;
  session_id: string;
  amount_kobo: bigint;
  fee_kobo: bigint;
  vat_kobo: bigint;
  status: string;
  hold_id: string | null;
}

describe('NIP transfers survive a SIGKILL while in flight (PostgreSQL)', {
  timeout: 240_000,
}, () => {
  const fixture = new ServerFixture('transfer-crash', SECRETS);

  const transfersOf = (accountId: string) =>
    fixture.db.query<TransferRow>(
      `SELECT id, session_id, amount_kobo, fee_kobo, vat_kobo, status, hold_id FROM transfers
        WHERE account_id = $1 AND type = 'Outwards' ORDER BY id`,
      [accountId],
    );

  before(() => fixture.open());
  after(() => fixture.close());

  test('every transfer reaches the final status the network gave it; nothing is debited twice', async () => {
    // First life: a slow network (every answer takes seconds) and no status query before the kill.
    const first = await fixture.startServer({
      NIP_SIMULATOR_LATENCY_MS: RAIL_LATENCY_MS,
      STATUS_QUERY_SCHEDULE_SECONDS: '8,1',
    });
    const {
      headers,
      clientId,
      mainAccount: account,
    } = await signUpClient(first.baseUrl, SECRETS, 'Crash Transfers Ltd');
    await sandboxCredit(first.baseUrl, SECRETS, account.accountNumber, 9_000);
    const enquiryReference = await nameEnquiry(first.baseUrl, headers, OTHER_BANK, OTHER_ACCOUNT);

    const koboParts = Object.keys(FINAL_STATUS_BY_KOBO).map(Number);
    const amounts = koboParts.flatMap((kobo) =>
      Array.from({ length: TRANSFERS_PER_OUTCOME }, (_, index) => 100 + index + kobo / 100),
    );
    const inFlight = amounts.map((amount) =>
      fetch(`${first.baseUrl}/transfers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({
          nameEnquiryReference: enquiryReference,
          debitAccountNumber: account.accountNumber,
          beneficiaryBankCode: OTHER_BANK,
          beneficiaryAccountNumber: OTHER_ACCOUNT,
          amount,
          saveBeneficiary: false,
        }),
      }).then(
        (response) => `answered ${response.status}`,
        () => 'no answer',
      ),
    );

    // Kill once every transfer is held and has reached the (slow) network.
    const deadline = Date.now() + HTTP_TIMEOUT_MS;
    for (;;) {
      const [sent] = await fixture.db.query<{ count: bigint }>(
        'SELECT count(*) FROM nip_simulator_sessions',
      );
      if (Number(sent?.count) === amounts.length) {
        break;
      }
      assert.ok(
        Date.now() < deadline,
        `transfers did not reach the network\n${first.server.log()}`,
      );
      await sleep(20);
    }
    const exit = await first.server.kill();
    assert.equal(exit.signal, 'SIGKILL');
    assert.deepEqual(new Set(await Promise.all(inFlight)), new Set(['no answer']));

    const held = await transfersOf(account._id);
    assert.equal(held.length, amounts.length);
    assert.deepEqual(new Set(held.map((row) => row.status)), new Set(['Processing']));
    const [beforeRestart] = await fixture.db.query<{ balance_kobo: bigint; held_kobo: bigint }>(
      'SELECT balance_kobo, held_kobo FROM ledger_accounts WHERE id = $1',
      [account._id],
    );
    const totalHeld = held.reduce(
      (sum, row) => sum + row.amount_kobo + row.fee_kobo + row.vat_kobo,
      0n,
    );
    assert.equal(
      beforeRestart?.held_kobo,
      totalHeld,
      'every transfer held its funds before the kill',
    );

    // Second life: a fast network; the status-query worker settles what the first life left.
    const second = await fixture.startServer({ STATUS_QUERY_SCHEDULE_SECONDS: '8,1' });
    const settleBy = Date.now() + SETTLE_TIMEOUT_MS;
    let settled = await transfersOf(account._id);
    while (settled.some((row) => row.status === 'Processing')) {
      assert.ok(Date.now() < settleBy, `transfers still Processing\n${second.server.log()}`);
      await sleep(200);
      settled = await transfersOf(account._id);
    }

    // Each transfer ends as the network decided, which its kobo part scripts.
    for (const row of settled) {
      const kobo = Number(row.amount_kobo % 100n);
      assert.equal(row.status, FINAL_STATUS_BY_KOBO[kobo], `transfer of kobo .${kobo}`);
    }
    const journals = await fixture.db.query<{ transfer_id: string; count: bigint }>(
      `SELECT transfer_id, count(*) FROM ledger_journals WHERE transfer_id = ANY ($1)
        GROUP BY transfer_id`,
      [settled.map((row) => row.id)],
    );
    const journalCount = new Map(journals.map((row) => [row.transfer_id, Number(row.count)]));
    for (const row of settled) {
      assert.equal(journalCount.get(row.id) ?? 0, row.status === 'Completed' ? 1 : 0, row.id);
    }
    const holds = await fixture.db.query<{ status: string; count: bigint }>(
      'SELECT status, count(*) FROM ledger_holds WHERE account_id = $1 GROUP BY status ORDER BY status',
      [account._id],
    );
    const completed = settled.filter((row) => row.status === 'Completed');
    assert.deepEqual(
      holds.map((row) => [row.status, Number(row.count)]),
      [
        ['posted', completed.length],
        ['voided', settled.length - completed.length],
      ],
    );

    const spent = completed.reduce(
      (sum, row) => sum + row.amount_kobo + row.fee_kobo + row.vat_kobo,
      0n,
    );
    const [after] = await fixture.db.query<{ balance_kobo: bigint; held_kobo: bigint }>(
      'SELECT balance_kobo, held_kobo FROM ledger_accounts WHERE id = $1',
      [account._id],
    );
    assert.deepEqual(after, { balance_kobo: 900_000n - spent, held_kobo: 0n });
    assert.deepEqual(await fixture.ledgerViolations(), []);
    // One `transfer` event per final status, none for the Processing state.
    const [events] = await fixture.db.query<{ count: bigint }>(
      `SELECT count(*) FROM webhook_events WHERE client_id = $1 AND type = 'transfer'
          AND payload->'data'->>'type' = 'Outwards'`,
      [clientId],
    );
    assert.equal(Number(events?.count), settled.length);
    await second.server.terminate();
  });
});

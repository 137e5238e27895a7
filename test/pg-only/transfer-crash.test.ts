// PostgreSQL only: the server runs as a real process that is SIGKILLed with NIP transfers in
// flight and restarted on the same database, while this test reads that database directly.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { verifyLedger } from '../../src/ledger/ledger-audit.ts';
import { publicKeyPem, rsaKeyPair, signAssertion } from '../factories.ts';
import { type ServerProcess, startServerProcess } from '../server-process.ts';
import { createTestDb, type TestDb } from '../test-db.ts';

const ADMIN_TOKEN = 'crash-test-admin-token-0123456789abcdefghij';
const TOKEN_SIGNING_SECRET = 'crash-test-signing-secret-0123456789abcdefghij';
const PUBLIC_BASE_URL = 'http://transfer-crash.openibs.invalid';
const HTTP_TIMEOUT_MS = 10_000;
const SETTLE_TIMEOUT_MS = 60_000;
/** Long enough that every transfer is held and at the rail when the server dies. */
const RAIL_LATENCY_MS = '3000';
const OTHER_BANK = '000013';
const OTHER_ACCOUNT = '0123456789';
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('NIP transfers survive a SIGKILL while in flight (PostgreSQL)', {
  timeout: 240_000,
}, () => {
  let testDb: TestDb;
  let dataDir: string;
  const servers: ServerProcess[] = [];

  async function startServer(extra: Record<string, string>) {
    const started = await startServerProcess({
      DATABASE_URL: testDb.url,
      IBS_ENV: 'sandbox',
      DATA_DIR: dataDir,
      ADMIN_TOKEN,
      TOKEN_SIGNING_SECRET,
      PUBLIC_BASE_URL,
      WEBHOOK_WORKER_ENABLED: 'false',
      ...extra,
    });
    servers.push(started.server);
    return started;
  }

  async function call(
    baseUrl: string,
    method: string,
    url: string,
    headers: Record<string, string>,
    body?: unknown,
  ) {
    const response = await fetch(`${baseUrl}${url}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    });
    const text = await response.text();
    assert.ok(response.ok, `${method} ${url} answered ${response.status}: ${text}`);
    return JSON.parse(text) as { data: Record<string, unknown> } & Record<string, unknown>;
  }

  const transfersOf = (accountId: string) =>
    testDb.db.query<TransferRow>(
      `SELECT id, session_id, amount_kobo, fee_kobo, vat_kobo, status, hold_id FROM transfers
        WHERE account_id = $1 AND type = 'Outwards' ORDER BY id`,
      [accountId],
    );

  before(async () => {
    testDb = await createTestDb();
    assert.ok(testDb.url !== undefined, 'createTestDb gave a PostgreSQL database');
    dataDir = await mkdtemp(path.join(tmpdir(), 'openibs-transfer-crash-'));
  });

  after(async () => {
    await Promise.all(servers.map((server) => server.kill()));
    await testDb?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  test('every transfer reaches the final status the network gave it; nothing is debited twice', async () => {
    // First life: a slow network (every answer takes seconds) and no status query before the kill.
    const first = await startServer({
      NIP_SIMULATOR_LATENCY_MS: RAIL_LATENCY_MS,
      STATUS_QUERY_SCHEDULE_SECONDS: '8,1',
    });
    const adminHeaders = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const client = (
      await call(first.baseUrl, 'POST', '/admin/clients', adminHeaders, {
        name: 'Crash Transfers Ltd',
      })
    ).data as { _id: string; mainAccount: { _id: string; accountNumber: string } };
    const keys = rsaKeyPair(0);
    const registered = (
      await call(first.baseUrl, 'POST', `/admin/clients/${client._id}/apps`, adminHeaders, {
        name: 'Crash app',
        publicKey: publicKeyPem(keys.publicKey),
      })
    ).data as { clientId: string };
    const assertion = await signAssertion(
      { oauthClientId: registered.clientId, privateKey: keys.privateKey },
      { now: new Date(), audience: PUBLIC_BASE_URL },
    );
    const token = (await call(
      first.baseUrl,
      'POST',
      '/oauth2/token',
      {},
      {
        grant_type: 'client_credentials',
        client_id: registered.clientId,
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: assertion,
      },
    )) as unknown as { access_token: string };
    const headers = { authorization: `Bearer ${token.access_token}`, clientid: client._id };
    const account = client.mainAccount;
    await call(first.baseUrl, 'POST', '/admin/sandbox/credits', adminHeaders, {
      accountNumber: account.accountNumber,
      amount: 9_000,
    });
    const enquiry = await call(first.baseUrl, 'POST', '/transfers/name-enquiry', headers, {
      bankCode: OTHER_BANK,
      accountNumber: OTHER_ACCOUNT,
    });

    const koboParts = Object.keys(FINAL_STATUS_BY_KOBO).map(Number);
    const amounts = koboParts.flatMap((kobo) =>
      Array.from({ length: TRANSFERS_PER_OUTCOME }, (_, index) => 100 + index + kobo / 100),
    );
    const inFlight = amounts.map((amount) =>
      fetch(`${first.baseUrl}/transfers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({
          nameEnquiryReference: enquiry.data.sessionId,
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
      const [sent] = await testDb.db.query<{ count: bigint }>(
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
    const [beforeRestart] = await testDb.db.query<{ balance_kobo: bigint; held_kobo: bigint }>(
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
    const second = await startServer({ STATUS_QUERY_SCHEDULE_SECONDS: '8,1' });
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
    const journals = await testDb.db.query<{ transfer_id: string; count: bigint }>(
      `SELECT transfer_id, count(*) FROM ledger_journals WHERE transfer_id = ANY ($1)
        GROUP BY transfer_id`,
      [settled.map((row) => row.id)],
    );
    const journalCount = new Map(journals.map((row) => [row.transfer_id, Number(row.count)]));
    for (const row of settled) {
      assert.equal(journalCount.get(row.id) ?? 0, row.status === 'Completed' ? 1 : 0, row.id);
    }
    const holds = await testDb.db.query<{ status: string; count: bigint }>(
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
    const [after] = await testDb.db.query<{ balance_kobo: bigint; held_kobo: bigint }>(
      'SELECT balance_kobo, held_kobo FROM ledger_accounts WHERE id = $1',
      [account._id],
    );
    assert.deepEqual(after, { balance_kobo: 900_000n - spent, held_kobo: 0n });
    const violations = await verifyLedger(testDb.db);
    assert.deepEqual(
      Object.entries(violations).filter(([, count]) => count !== 0),
      [],
    );
    // One `transfer` event per final status, none for the Processing state.
    const [events] = await testDb.db.query<{ count: bigint }>(
      `SELECT count(*) FROM webhook_events WHERE client_id = $1 AND type = 'transfer'
          AND payload->'data'->>'type' = 'Outwards'`,
      [client._id],
    );
    assert.equal(Number(events?.count), settled.length);
    await second.server.terminate();
  });
});

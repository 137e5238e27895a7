import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  adminHeaders,
  createClient,
  OTHER_BANK,
  OTHER_BANK_ACCOUNT,
  rsaKeyPair,
  sendTransfer,
  signedInClient,
} from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';
import {
  ACME,
  applyFixtures,
  fixtureClientHeaders,
  RIVAL,
  resetSandbox,
  sampleFixtures,
} from '../../../test/sandbox-fixtures.ts';
import { describeAdminAuthGuards, useRouteContext } from '../../../test/shared-route-tests.ts';
import { WebhookReceiver } from '../../../test/webhook-receiver.ts';
import { ensureDemoClient } from '../../sandbox/demo-client.ts';
import { demoWorld } from '../../sandbox/fixtures/index.ts';
import { createDeliveryWorker } from '../../webhooks/delivery-worker.ts';
import { createHttpSender } from '../../webhooks/http-sender.ts';

type Headers = Record<string, string>;

/** Every table's row count: what a reset must put back exactly. */
async function rowCounts(testApp: TestApp): Promise<Record<string, number>> {
  const tables = await testApp.db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
        AND table_name NOT IN ('audit_events', 'schema_migrations') ORDER BY table_name`,
  );
  const counts: Record<string, number> = {};
  for (const { table_name: table } of tables) {
    const [row] = await testApp.db.query<{ count: bigint }>(`SELECT count(*) FROM ${table}`);
    counts[table] = Number(row?.count ?? 0n);
  }
  return counts;
}

/** What a client sees of its world through the API. */
async function worldOf(testApp: TestApp, headers: Headers) {
  const read = async (url: string) =>
    (await testApp.app.inject({ method: 'GET', url, headers })).json().data;
  return {
    accounts: await read('/accounts'),
    subAccounts: await read('/accounts?isSubAccount=true'),
    transfers: await read('/transfers'),
    beneficiaries: await read('/transfers/beneficiaries'),
    virtualAccounts: await read('/virtual-accounts'),
    webhookSettings: await read('/webhooks/settings'),
  };
}

async function transferToRival(testApp: TestApp, headers: Headers, key: string, amount: number) {
  return sendTransfer(
    testApp.app,
    { ...headers, 'idempotency-key': key },
    {
      debitAccountNumber: ACME.mainAccountNumber,
      beneficiaryBankCode: '999240',
      beneficiaryAccountNumber: RIVAL.mainAccountNumber,
      amount,
    },
  );
}

describe('POST /admin/sandbox/reset', () => {
  let testApp: TestApp;
  let acme: Headers;
  before(async () => {
    testApp = await buildTestApp();
    const applied = await applyFixtures(testApp.app, sampleFixtures({ seed: 'reset-tests' }));
    assert.equal(applied.statusCode, 200, applied.body);
    acme = await fixtureClientHeaders(
      testApp.app,
      { ...ACME, privateKey: rsaKeyPair(0).privateKey },
      testApp.clock.now(),
    );
  });
  after(() => testApp.close());

  describe('200: the bank is its fixtures again', () => {
    it('takes away every record, entry, event and key made since, and brings the fixtures back', async () => {
      // The sign-in of before() made a refresh token: a reset takes that away too.
      assert.equal((await resetSandbox(testApp.app)).statusCode, 200);
      const fixturesWorld = await worldOf(testApp, acme);
      const fixturesRows = await rowCounts(testApp);
      assert.equal((await transferToRival(testApp, acme, 'key-1', 1500)).statusCode, 200);
      const nip = await sendTransfer(testApp.app, acme, {
        debitAccountNumber: ACME.subAccountNumber,
        amount: 100,
        saveBeneficiary: true,
        beneficiaryBankCode: OTHER_BANK,
        beneficiaryAccountNumber: OTHER_BANK_ACCOUNT,
      });
      assert.equal(nip.statusCode, 200, nip.body);
      await createClient(testApp.app, 'Made By An Operator');
      assert.notDeepEqual(await worldOf(testApp, acme), fixturesWorld);

      const response = await resetSandbox(testApp.app);
      assert.equal(response.statusCode, 200, response.body);
      const { data } = response.json();
      assert.equal(typeof data.tookMs, 'number');
      assert.deepEqual(
        data.fixtures.clients.map((client: { ibsClientId: string }) => client.ibsClientId),
        [ACME.ibsClientId, RIVAL.ibsClientId],
      );
      // The token from before still signs the client in: its app is the fixtures' again.
      assert.deepEqual(await worldOf(testApp, acme), fixturesWorld);
      assert.deepEqual(await rowCounts(testApp), fixturesRows);
    });

    it('refuses the tokens of clients it took away with 401, and keeps those it brought back', async () => {
      const gone = await signedInClient(testApp, 'Made Before The Reset', 1);
      await resetSandbox(testApp.app);
      for (const [headers, status] of [
        [gone.headers, 401],
        [acme, 200],
      ] as const) {
        const response = await testApp.app.inject({
          method: 'GET',
          url: '/webhooks/settings',
          headers,
        });
        assert.equal(response.statusCode, status, response.body);
      }
    });

    it('forgets idempotency keys: a key used before the reset starts a new transfer', async () => {
      const first = await transferToRival(testApp, acme, 'key-2', 10);
      assert.equal(first.statusCode, 200, first.body);
      await resetSandbox(testApp.app);
      const again = await transferToRival(testApp, acme, 'key-2', 20);
      assert.equal(again.statusCode, 200, again.body);
      assert.equal(again.json().data.amount, 20);
    });

    it("puts the simulators' queues back to the fixtures' outcomes", async () => {
      const rail = testApp.services.rail as unknown as { queuedOutcomes(): string[] };
      const queued = await testApp.app.inject({
        method: 'POST',
        url: '/admin/sandbox/nip/next-outcome',
        headers: adminHeaders,
        payload: { responseCode: '05' },
      });
      assert.equal(queued.statusCode, 200, queued.body);
      assert.deepEqual(rail.queuedOutcomes(), ['51', '05']);
      await resetSandbox(testApp.app);
      assert.deepEqual(rail.queuedOutcomes(), ['51']);
    });

    it('answers requests that arrive during a reset, before or after it', async () => {
      const during = await Promise.all([
        ...Array.from({ length: 10 }, (_, index) =>
          transferToRival(testApp, acme, `during-${index}`, 1 + index),
        ),
        resetSandbox(testApp.app),
        ...Array.from({ length: 10 }, () =>
          testApp.app.inject({ method: 'GET', url: '/accounts', headers: acme }),
        ),
      ]);
      for (const response of during) {
        // Done, or SANDBOX_RESET for what the reset overtook: never a server error.
        const done = response.statusCode === 200 || response.json().code === 'SANDBOX_RESET';
        assert.ok(done, response.body);
      }
      const [sums] = await testApp.db.query<{ total: bigint }>(
        'SELECT coalesce(sum(amount_kobo), 0)::bigint AS total FROM ledger_entries',
      );
      assert.equal(sums?.total, 0n);
    });
  });
});

describe('POST /admin/sandbox/reset: a request it overtakes', () => {
  let testApp: TestApp;
  before(async () => {
    // The simulated network answers slowly: a NIP transfer is still waiting for it when the
    // test resets the bank.
    testApp = await buildTestApp({ NIP_SIMULATOR_LATENCY_MS: '400' });
    assert.equal((await applyFixtures(testApp.app, sampleFixtures())).statusCode, 200);
  });
  after(() => testApp.close());

  it('answers 409 SANDBOX_RESET when it fails for what the reset took away', async () => {
    const headers = await fixtureClientHeaders(
      testApp.app,
      { ...ACME, privateKey: rsaKeyPair(0).privateKey },
      testApp.clock.now(),
    );
    const { sessionId } = (
      await testApp.app.inject({
        method: 'POST',
        url: '/transfers/name-enquiry',
        headers,
        payload: { bankCode: OTHER_BANK, accountNumber: OTHER_BANK_ACCOUNT },
      })
    ).json().data;
    const transfer = testApp.app.inject({
      method: 'POST',
      url: '/transfers',
      headers,
      payload: {
        nameEnquiryReference: sessionId,
        debitAccountNumber: ACME.mainAccountNumber,
        beneficiaryBankCode: OTHER_BANK,
        beneficiaryAccountNumber: OTHER_BANK_ACCOUNT,
        amount: 100,
        saveBeneficiary: false,
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal((await resetSandbox(testApp.app)).statusCode, 200);
    const answer = await transfer;
    assert.equal(answer.statusCode, 409, answer.body);
    assert.equal(answer.json().code, 'SANDBOX_RESET');
    const [left] = await testApp.db.query<{ count: bigint }>('SELECT count(*) FROM transfers');
    assert.equal(left?.count, 0n);
  });
});

describe('POST /admin/sandbox/reset: rate limits', () => {
  let testApp: TestApp;
  before(async () => {
    testApp = await buildTestApp({ RATE_LIMIT_API_PER_MINUTE_PER_CLIENT: '3' });
    assert.equal((await applyFixtures(testApp.app, sampleFixtures())).statusCode, 200);
  });
  after(() => testApp.close());

  it('starts every count again', async () => {
    const headers = await fixtureClientHeaders(
      testApp.app,
      { ...ACME, privateKey: rsaKeyPair(0).privateKey },
      testApp.clock.now(),
    );
    const call = () => testApp.app.inject({ method: 'GET', url: '/accounts', headers });
    const statuses = [];
    for (let index = 0; index < 4; index += 1) {
      statuses.push((await call()).statusCode);
    }
    assert.deepEqual(statuses, [200, 200, 200, 429]);
    assert.equal((await resetSandbox(testApp.app)).statusCode, 200);
    assert.equal((await call()).statusCode, 200);
  });
});

describe('POST /admin/sandbox/reset: a client held back for walking account numbers', () => {
  let testApp: TestApp;
  before(async () => {
    testApp = await buildTestApp({ RATE_LIMIT_NAME_ENQUIRY_MISSES_PER_HOUR_PER_CLIENT: '1' });
    assert.equal((await applyFixtures(testApp.app, sampleFixtures())).statusCode, 200);
  });
  after(() => testApp.close());

  it('may enquire again after the reset', async () => {
    const headers = await fixtureClientHeaders(
      testApp.app,
      { ...ACME, privateKey: rsaKeyPair(0).privateKey },
      testApp.clock.now(),
    );
    // Sandbox NIP: a number ending 0000 is no account at the other bank.
    const enquire = (accountNumber: string) =>
      testApp.app.inject({
        method: 'POST',
        url: '/transfers/name-enquiry',
        headers,
        payload: { bankCode: '000013', accountNumber },
      });
    assert.equal((await enquire('0123450000')).statusCode, 400);
    assert.equal((await enquire('0123460000')).statusCode, 400, 'counted over the limit');
    assert.equal((await enquire('0123456789')).statusCode, 429, 'held back, found or not');
    assert.equal((await resetSandbox(testApp.app)).statusCode, 200);
    assert.equal((await enquire('0123456789')).statusCode, 200);
  });
});

describe('POST /admin/sandbox/reset: webhooks from before never arrive after', () => {
  const receiver = new WebhookReceiver();
  let testApp: TestApp;
  let acme: Headers;
  before(async () => {
    testApp = await buildTestApp({}, { clockStart: new Date() });
    await receiver.start();
    const fixtures = sampleFixtures({ webhookUrl: receiver.url() });
    assert.equal((await applyFixtures(testApp.app, fixtures)).statusCode, 200);
    acme = await fixtureClientHeaders(
      testApp.app,
      { ...ACME, privateKey: rsaKeyPair(0).privateKey },
      testApp.clock.now(),
    );
  });
  after(async () => {
    await receiver.stop();
    await testApp.close();
  });

  function worker() {
    const sender = createHttpSender({
      timeoutMs: 500,
      policy: { requireHttps: false, allowLoopback: true, allowPrivate: false },
    });
    const delivery = createDeliveryWorker({
      db: testApp.db,
      clock: testApp.clock,
      sender,
      retryScheduleSeconds: [1],
      timeoutMs: 500,
      batchSize: 10,
      pollIntervalMs: 10,
      fence: testApp.services.deliveryFence,
    });
    return { delivery, close: () => sender.close() };
  }

  it('drops the events still in the outbox', async () => {
    assert.equal((await transferToRival(testApp, acme, 'outbox-1', 10)).statusCode, 200);
    await resetSandbox(testApp.app);
    const { delivery, close } = worker();
    try {
      assert.equal(await delivery.runOnce(), 0);
      assert.equal(receiver.requests.length, 0);
    } finally {
      close();
    }
  });

  it('waits for a delivery on the wire, and sends nothing of its batch afterwards', async () => {
    receiver.mode = 'hang';
    for (const key of ['wire-1', 'wire-2']) {
      assert.equal((await transferToRival(testApp, acme, key, 10)).statusCode, 200);
    }
    const { delivery, close } = worker();
    try {
      const round = delivery.runOnce();
      while (receiver.requests.length === 0) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const reset = await resetSandbox(testApp.app);
      assert.equal(reset.statusCode, 200, reset.body);
      const onTheWire = receiver.requests.length;
      await round;
      receiver.mode = 'ok';
      assert.equal(await delivery.runOnce(), 0);
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(receiver.requests.length, onTheWire);
    } finally {
      receiver.mode = 'ok';
      close();
    }
  });
});

describe('POST /admin/sandbox/reset: the default world', () => {
  let testApp: TestApp;
  let dataDir: string;
  before(async () => {
    testApp = await buildTestApp();
    dataDir = await mkdtemp(path.join(tmpdir(), 'openibs-demo-'));
  });
  after(async () => {
    await testApp.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('is the demo client npm start made, with its ids, key and number', async () => {
    const { demo } = await ensureDemoClient({
      dataDir,
      baseUrl: 'http://openibs.test',
      demoBalanceKobo: 100_000_000n,
      clientService: testApp.services.clientService,
      network: testApp.services.rail,
    });
    testApp.services.sandboxFixtures?.useDefaultWorld(await demoWorld(demo, 100_000_000n));
    await createClient(testApp.app, 'Someone Else');
    const response = await resetSandbox(testApp.app);
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json().data.fixtures.clients, [
      {
        name: 'Demo Fintech Ltd',
        ibsClientId: demo.ibsClientId,
        oauthClientIds: [demo.oauthClientId],
        mainAccountNumber: demo.mainAccountNumber,
        accountNumbers: [demo.mainAccountNumber],
        subAccountNumbers: [],
        virtualAccountNumbers: [],
      },
    ]);
    const clients = await testApp.app.inject({
      method: 'GET',
      url: '/admin/clients',
      headers: adminHeaders,
    });
    assert.deepEqual(
      clients.json().data.map((client: { _id: string }) => client._id),
      [demo.ibsClientId],
    );
    const [account] = clients
      .json()
      .data.map((client: { mainAccount: { accountBalance: number } }) => client.mainAccount);
    assert.equal(account.accountBalance, 1_000_000);
  });
});

describe('POST /admin/sandbox/reset: operator access', () => {
  const context = useRouteContext();
  describeAdminAuthGuards(context, () => ({ method: 'POST', url: '/admin/sandbox/reset' }));

  it('403 SANDBOX_ONLY in production', async () => {
    const production = await buildTestApp({
      IBS_ENV: 'production',
      DATABASE_URL: 'postgres://unused.invalid/db',
      ADMIN_TOKEN: 'test-admin-token-0123456789abcdefghijklmnop',
      TOKEN_SIGNING_SECRET: 'test-signing-secret-0123456789abcdefghijklmnop',
      OPERATOR_SECRETS_KEY: 'c'.repeat(64),
      PUBLIC_BASE_URL: 'https://bank.example',
      INSTITUTION_CODE: '090286',
    });
    try {
      const response = await resetSandbox(production.app);
      assert.equal(response.statusCode, 403, response.body);
      assert.equal(response.json().code, 'SANDBOX_ONLY');
      const [clients] = await production.db.query<{ count: bigint }>(
        'SELECT count(*) FROM ledger_accounts',
      );
      assert.ok((clients?.count ?? 0n) > 0n, 'nothing was emptied');
    } finally {
      await production.close();
    }
  });
});

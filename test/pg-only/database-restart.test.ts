// PostgreSQL only: the server runs as a real process whose database goes away under load and
// comes back. The real PostgreSQL server is never restarted (other tests use it): a TCP proxy
// between the server and PostgreSQL is cut (every connection dropped, nothing listening) and
// restored, and pg_terminate_backend does to the server's connections what a restart does.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it, test } from 'node:test';
import { isDatabaseUnavailable } from '../../src/db/database-unavailable.ts';
import type { Db } from '../../src/db/db.ts';
import { createPgDb } from '../../src/db/pg-db.ts';
import { verifyLedger } from '../../src/ledger/ledger-audit.ts';
import { publicKeyPem, rsaKeyPair, signAssertion } from '../factories.ts';
import { freePort, type ServerProcess, startServerProcess } from '../server-process.ts';
import { createTestDb, type TestDb } from '../test-db.ts';

const ADMIN_TOKEN = 'restart-test-admin-token-0123456789abcdefghij';
const TOKEN_SIGNING_SECRET = 'restart-test-signing-secret-0123456789abcdefghij';
const PUBLIC_BASE_URL = 'http://database-restart.openibs.invalid';
/** The server's connections carry this name, so the test can terminate exactly those. */
const APPLICATION_NAME = 'openibs-database-restart-test';
const OUR_BANK = '999240';
const HTTP_TIMEOUT_MS = 10_000;
// How long a busy machine may take: the waits below poll for what they wait for, up to these.
const RECOVERY_TIMEOUT_MS = 30_000;
const LOAD_WAIT_TIMEOUT_MS = 30_000;
/** Answers of 503 allowed once the database is back (see the outage test). */
const RECOVERY_POLLS_ALLOWED = 1;
const LOAD_CONCURRENCY = 4;
const CREDIT_NAIRA = 5_000;

type Headers = Record<string, string>;
type Phase = 'before' | 'outage' | 'recovering' | 'after';

interface Outcome {
  readonly request: string;
  readonly startedIn: Phase;
  readonly endedIn: Phase;
  readonly status: number | 'no answer';
  readonly code: string | undefined;
  readonly retryAfter: string | null;
  readonly body: string;
}

interface TransferBody {
  readonly nameEnquiryReference: string;
  readonly debitAccountNumber: string;
  readonly beneficiaryBankCode: string;
  readonly beneficiaryAccountNumber: string;
  readonly amount: number;
  readonly saveBeneficiary: false;
  readonly paymentReference: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A TCP proxy to PostgreSQL that can be cut (all connections dropped, port closed) and restored. */
class CuttableProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async open(): Promise<void> {
    const server = createServer((downstream) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const [socket, peer] of [
        [downstream, upstream],
        [upstream, downstream],
      ] as const) {
        this.sockets.add(socket);
        socket.on('error', () => socket.destroy());
        socket.on('close', () => {
          this.sockets.delete(socket);
          peer.destroy();
        });
        socket.pipe(peer);
      }
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** The database is gone: every connection drops and new ones are refused. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => {
      if (server === undefined) {
        resolve();
      } else {
        server.close(() => resolve());
      }
    });
    for (const socket of this.sockets) {
      socket.destroy();
    }
    await closed;
  }
}

describe('a database outage does not kill the server (PostgreSQL)', { timeout: 90_000 }, () => {
  let testDb: TestDb;
  let dataDir: string;
  let proxy: CuttableProxy;
  let server: ServerProcess;
  let baseUrl: string;
  let headers: Headers;
  let from: { id: string; accountNumber: string };
  let to: { id: string; accountNumber: string };
  let nameEnquiryReference: string;
  let phase: Phase = 'before';
  let transferSeq = 0;
  /** Stopped by `after` too, should a test fail with load running. */
  let activeLoad: { stop(): Promise<Outcome[]> } | undefined;
  /** Every transfer sent, by paymentReference, with the body to send again. */
  const transfers = new Map<string, TransferBody>();

  async function call(method: string, url: string, extra: Headers, body?: unknown) {
    const response = await fetch(`${baseUrl}${url}`, {
      method,
      headers: { 'content-type': 'application/json', ...extra },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    });
    const text = await response.text();
    assert.ok(response.ok, `${method} ${url} answered ${response.status}: ${text}`);
    return JSON.parse(text) as { data: Record<string, unknown> } & Record<string, unknown>;
  }

  /** One request, recorded whatever happens: status, error code, Retry-After, phase. */
  async function attempt(request: string, init: RequestInit): Promise<Outcome> {
    const startedIn = phase;
    const [method, url] = request.split(' ') as [string, string];
    try {
      const response = await fetch(`${baseUrl}${url}`, {
        ...init,
        method,
        signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
      });
      const body = await response.text();
      let code: string | undefined;
      try {
        code = (JSON.parse(body) as { code?: string }).code;
      } catch {
        code = undefined;
      }
      return {
        request,
        startedIn,
        endedIn: phase,
        status: response.status,
        code,
        retryAfter: response.headers.get('retry-after'),
        body,
      };
    } catch (error) {
      return {
        request,
        startedIn,
        endedIn: phase,
        status: 'no answer',
        code: undefined,
        retryAfter: null,
        body: String(error),
      };
    }
  }

  const listAccounts = () => attempt('GET /accounts', { headers });

  function sendTransfer(paymentReference: string): Promise<Outcome> {
    const body = transfers.get(paymentReference);
    assert.ok(body !== undefined);
    return attempt('POST /transfers', {
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  }

  function newTransfer(): string {
    transferSeq += 1;
    const paymentReference = `RESTART-${transferSeq}`;
    transfers.set(paymentReference, {
      nameEnquiryReference,
      debitAccountNumber: from.accountNumber,
      beneficiaryBankCode: OUR_BANK,
      beneficiaryAccountNumber: to.accountNumber,
      // 1.01 .. 1.99 naira: different amounts, so a double debit would show in the balances.
      amount: (101 + (transferSeq % 99)) / 100,
      saveBeneficiary: false,
      paymentReference,
    });
    return paymentReference;
  }

  /** Account reads and transfers from a few concurrent callers until stopped. */
  function startLoad() {
    const outcomes: Outcome[] = [];
    let running = true;
    /** At least `ms`, then until an outcome so far satisfies `seen` (a busy machine is slow). */
    const waitFor = async (ms: number, what: string, seen: (outcome: Outcome) => boolean) => {
      await sleep(ms);
      const deadline = Date.now() + LOAD_WAIT_TIMEOUT_MS;
      while (!outcomes.some(seen)) {
        assert.ok(Date.now() < deadline, `no ${what} within ${LOAD_WAIT_TIMEOUT_MS} ms`);
        await sleep(50);
      }
    };
    const callers = Array.from({ length: LOAD_CONCURRENCY }, async () => {
      while (running) {
        outcomes.push(await listAccounts());
        outcomes.push(await sendTransfer(newTransfer()));
        await sleep(5);
      }
    });
    const load = {
      waitFor,
      async stop() {
        running = false;
        await Promise.all(callers);
        return outcomes;
      },
    };
    activeLoad = load;
    return load;
  }

  /** Polls GET /accounts until it answers 200; how many answered 503 before. */
  /**
   * Terminates every connection the server has open, once it has one: after the previous round
   * the server reconnects only as requests need it, which a busy machine may not do within a
   * fixed pause (CI once found none after 300 ms).
   */
  async function terminateServerConnections(): Promise<void> {
    const deadline = Date.now() + LOAD_WAIT_TIMEOUT_MS;
    for (;;) {
      const terminated = await testDb.db.query<{ terminated: boolean }>(
        `SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity
          WHERE application_name = $1 AND pid <> pg_backend_pid()`,
        [APPLICATION_NAME],
      );
      if (terminated.length > 0) {
        return;
      }
      assert.ok(
        Date.now() < deadline,
        `the server opened no connection to terminate within ${LOAD_WAIT_TIMEOUT_MS} ms`,
      );
      await sleep(50);
    }
  }

  async function waitForRecovery(): Promise<number> {
    const startedAt = Date.now();
    for (let unavailable = 0; ; unavailable += 1) {
      const outcome = await listAccounts();
      if (outcome.status === 200) {
        return unavailable;
      }
      assertUnavailable(outcome);
      assert.ok(
        Date.now() - startedAt < RECOVERY_TIMEOUT_MS,
        `no recovery within ${RECOVERY_TIMEOUT_MS} ms\n${server.log()}`,
      );
      await sleep(100);
    }
  }

  function assertUnavailable(outcome: Outcome): void {
    assert.equal(
      outcome.status,
      503,
      `${outcome.request}: ${outcome.status} ${outcome.body}\n${server.log()}`,
    );
    assert.equal(outcome.code, 'DATABASE_UNAVAILABLE', outcome.body);
    assert.match(outcome.retryAfter ?? '', /^[1-9]\d*$/, 'a Retry-After in seconds');
    const body = JSON.parse(outcome.body) as Record<string, unknown>;
    assert.deepEqual(Object.keys(body).sort(), [
      'code',
      'error',
      'error_description',
      'message',
      'statusCode',
    ]);
    assert.equal(body.statusCode, 503);
  }

  /** Nothing but 200 and 503 DATABASE_UNAVAILABLE, and every request answered. */
  function assertNoFailureButUnavailable(outcomes: readonly Outcome[]): void {
    for (const outcome of outcomes) {
      if (outcome.status !== 200) {
        assertUnavailable(outcome);
      }
    }
  }

  async function assertServerAliveAndReady(): Promise<void> {
    assert.ok(server.running, `the server process exited\n${server.log()}`);
    const health = await attempt('GET /health', {});
    assert.equal(health.status, 200, health.body);
    const ready = await attempt('GET /ready', {});
    assert.equal(ready.status, 200, ready.body);
  }

  /** Sends again every transfer that got no 200, as a client would; then checks the money. */
  async function assertEveryTransferAppliedOnce(outcomes: readonly Outcome[]): Promise<void> {
    const answered = new Set<string>();
    for (const outcome of outcomes) {
      if (outcome.request === 'POST /transfers' && outcome.status === 200) {
        answered.add(
          (JSON.parse(outcome.body) as { data: { paymentReference: string } }).data
            .paymentReference,
        );
      }
    }
    for (const reference of transfers.keys()) {
      if (!answered.has(reference)) {
        const retried = await sendTransfer(reference);
        assert.equal(retried.status, 200, `${reference} sent again: ${retried.body}`);
      }
    }
    const rows = await testDb.db.query<{ payment_reference: string; count: bigint }>(
      `SELECT payment_reference, count(*) FROM transfers
        WHERE account_id = $1 AND type = 'Outwards' GROUP BY payment_reference`,
      [from.id],
    );
    assert.equal(rows.length, transfers.size, 'one transfer per paymentReference');
    assert.deepEqual(
      rows.filter((row) => row.count !== 1n),
      [],
      'no paymentReference applied twice',
    );
    const [sent] = await testDb.db.query<{ total: bigint; count: bigint }>(
      `SELECT coalesce(sum(amount_kobo + fee_kobo + vat_kobo), 0)::bigint AS total,
              count(*) AS count
         FROM transfers WHERE account_id = $1 AND type = 'Outwards' AND status = 'Completed'`,
      [from.id],
    );
    assert.equal(sent?.count, BigInt(transfers.size), 'every intra-bank transfer completed');
    const expected = [...transfers.values()].reduce(
      (sum, body) => sum + BigInt(Math.round(body.amount * 100)),
      0n,
    );
    const balances = await testDb.db.query<{ id: string; balance_kobo: bigint; held_kobo: bigint }>(
      'SELECT id, balance_kobo, held_kobo FROM ledger_accounts WHERE id = ANY ($1) ORDER BY id',
      [[from.id, to.id]],
    );
    const byId = new Map(balances.map((row) => [row.id, row]));
    assert.deepEqual(byId.get(from.id), {
      id: from.id,
      balance_kobo: BigInt(CREDIT_NAIRA) * 100n - (sent?.total ?? 0n),
      held_kobo: 0n,
    });
    assert.equal(byId.get(to.id)?.balance_kobo, expected, 'the beneficiary got each one once');
    const violations = await verifyLedger(testDb.db);
    assert.deepEqual(
      Object.entries(violations).filter(([, count]) => count !== 0),
      [],
    );
  }

  before(async () => {
    testDb = await createTestDb();
    assert.ok(testDb.url !== undefined, 'createTestDb gave a PostgreSQL database');
    dataDir = await mkdtemp(path.join(tmpdir(), 'openibs-database-restart-'));
    const direct = new URL(testDb.url);
    proxy = new CuttableProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    await proxy.open();
    const proxied = new URL(testDb.url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    proxied.searchParams.set('application_name', APPLICATION_NAME);
    const started = await startServerProcess({
      DATABASE_URL: proxied.toString(),
      IBS_ENV: 'sandbox',
      DATA_DIR: dataDir,
      ADMIN_TOKEN,
      TOKEN_SIGNING_SECRET,
      PUBLIC_BASE_URL,
      DATABASE_POOL_SIZE: '5',
      SANDBOX_DEMO_BALANCE_NAIRA: '0',
    });
    server = started.server;
    baseUrl = started.baseUrl;

    const adminHeaders = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const client = (await call('POST', '/admin/clients', adminHeaders, { name: 'Restart Ltd' }))
      .data as { _id: string; mainAccount: { _id: string; accountNumber: string } };
    const keys = rsaKeyPair(0);
    const registered = (
      await call('POST', `/admin/clients/${client._id}/apps`, adminHeaders, {
        name: 'Restart app',
        publicKey: publicKeyPem(keys.publicKey),
      })
    ).data as { clientId: string };
    const token = (await call(
      'POST',
      '/oauth2/token',
      {},
      {
        grant_type: 'client_credentials',
        client_id: registered.clientId,
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: await signAssertion(
          { oauthClientId: registered.clientId, privateKey: keys.privateKey },
          { now: new Date(), audience: PUBLIC_BASE_URL },
        ),
      },
    )) as unknown as { access_token: string };
    headers = { authorization: `Bearer ${token.access_token}`, clientid: client._id };
    from = { id: client.mainAccount._id, accountNumber: client.mainAccount.accountNumber };
    const opened = (await call('POST', '/accounts', headers, {})).data as {
      _id: string;
      accountNumber: string;
    };
    to = { id: opened._id, accountNumber: opened.accountNumber };
    await call('POST', '/admin/sandbox/credits', adminHeaders, {
      accountNumber: from.accountNumber,
      amount: CREDIT_NAIRA,
    });
    const enquiry = await call('POST', '/transfers/name-enquiry', headers, {
      bankCode: OUR_BANK,
      accountNumber: to.accountNumber,
    });
    nameEnquiryReference = enquiry.data.sessionId as string;
  });

  after(async () => {
    await activeLoad?.stop();
    await server?.kill();
    await proxy?.cut();
    await testDb?.close();
    if (dataDir !== undefined) {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  test('the database goes away under load: 503 DATABASE_UNAVAILABLE, then service resumes', async () => {
    phase = 'before';
    const load = startLoad();
    await load.waitFor(700, 'answer before the outage', (o) => o.status === 200);

    await proxy.cut();
    phase = 'outage';
    await sleep(1_500);
    assert.ok(server.running, `the server process exited\n${server.log()}`);
    const outageChecks = await Promise.all([
      listAccounts(),
      sendTransfer(newTransfer()),
      attempt('GET /ready', {}),
    ]);
    for (const outcome of outageChecks) {
      assertUnavailable(outcome);
    }
    const health = await attempt('GET /health', {});
    assert.equal(health.status, 200, 'liveness does not depend on the database');

    phase = 'recovering';
    await proxy.open();
    const unavailableAfterReopening = await waitForRecovery();
    phase = 'after';
    await load.waitFor(700, 'request sent after the recovery', (o) => o.startedIn === 'after');
    const outcomes = [...(await load.stop()), ...outageChecks];

    // Each request opens the connection it lacks: once the database is back, the next one is
    // served (no back-off, no breaker to wait out), whatever the machine's speed.
    assert.ok(
      unavailableAfterReopening <= RECOVERY_POLLS_ALLOWED,
      `${unavailableAfterReopening} answers of 503 after the database came back`,
    );
    assertNoFailureButUnavailable(outcomes);
    const during = outcomes.filter((o) => o.startedIn === 'outage' && o.endedIn === 'outage');
    assert.ok(during.length > 0, 'requests were made during the outage');
    for (const outcome of during) {
      assertUnavailable(outcome);
    }
    const afterwards = outcomes.filter((o) => o.startedIn === 'after');
    assert.ok(afterwards.length > 0, 'requests were made after the recovery');
    assert.deepEqual(
      afterwards.filter((o) => o.status !== 200),
      [],
      'every request succeeds once the database is back',
    );
    assert.ok(outcomes.some((o) => o.startedIn === 'before' && o.status === 200));
    await assertServerAliveAndReady();
    await assertEveryTransferAppliedOnce(outcomes);
    // Broken connections and failed worker rounds are logged, not once per attempt.
    for (const message of [
      'database connection lost',
      'status query round failed',
      'webhook delivery round failed',
    ]) {
      const lines = server.fullOutput.split('\n').filter((line) => line.includes(message));
      assert.ok(lines.length <= 2, `${lines.length} times "${message}"`);
    }
  });

  test("PostgreSQL terminates the server's connections (as a restart does): it serves on", async () => {
    phase = 'before';
    const load = startLoad();
    await load.waitFor(500, 'answer before the terminations', (o) => o.status === 200);
    for (let round = 0; round < 3; round += 1) {
      await terminateServerConnections();
      await sleep(300);
    }
    phase = 'after';
    await sleep(300);
    assert.ok(server.running, `the server process exited\n${server.log()}`);
    await waitForRecovery();
    await sleep(500);
    const outcomes = await load.stop();
    assertNoFailureButUnavailable(outcomes);
    assert.ok(outcomes.filter((o) => o.status === 200).length > 0);
    await assertServerAliveAndReady();
    await assertEveryTransferAppliedOnce(outcomes);
    const exit = await server.terminate();
    assert.deepEqual(exit, { code: 0, signal: null }, server.log());
  });
});

describe('the PostgreSQL driver when a connection dies (PostgreSQL)', () => {
  let testDb: TestDb;
  let url: string;
  const opened: Db[] = [];

  /** A pool of one: after a broken connection, only a fresh one can answer. */
  function poolOfOne(): Db {
    const db = createPgDb({
      connectionString: url,
      poolSize: 1,
      applicationName: 'openibs-dying-connection-test',
    });
    opened.push(db);
    return db;
  }

  const terminate = (pid: number) => testDb.db.query('SELECT pg_terminate_backend($1)', [pid]);

  before(async () => {
    testDb = await createTestDb();
    assert.ok(testDb.url !== undefined, 'createTestDb gave a PostgreSQL database');
    url = testDb.url;
    await testDb.db.exec('CREATE TABLE dying_probe (id int PRIMARY KEY)');
  });

  after(async () => {
    await Promise.all(opened.map((db) => db.close()));
    await testDb?.close();
  });

  it('a transaction whose connection dies between two queries rolls back; the pool serves on', async () => {
    const db = poolOfOne();
    const failure = await db
      .transaction(async (tx) => {
        await tx.query('INSERT INTO dying_probe VALUES (1)');
        const [backend] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        await terminate(Number(backend?.pid));
        // The checked-out client learns of it with no query running: an 'error' event that
        // would crash the process without a listener.
        await sleep(200);
        await tx.query('INSERT INTO dying_probe VALUES (2)');
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    assert.ok(isDatabaseUnavailable(failure), `a connection error: ${String(failure)}`);
    assert.deepEqual(await db.query('SELECT id FROM dying_probe'), [], 'nothing was committed');
  });

  it('a query in flight when its backend is terminated fails as unavailable', async () => {
    const db = poolOfOne();
    const sleeping = db.transaction(async (tx) => {
      await tx.query('INSERT INTO dying_probe VALUES (3)');
      await tx.query('SELECT pg_sleep(10)');
    });
    // Handled from the start: it may reject before terminate() below has answered, and a
    // rejection without a handler for a moment fails the test on its own.
    const settled = sleeping.then(
      () => undefined,
      (error: unknown) => error,
    );
    let pid: number | undefined;
    for (let tries = 0; pid === undefined && tries < 100; tries += 1) {
      const [row] = await testDb.db.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity
          WHERE application_name = 'openibs-dying-connection-test' AND query LIKE '%pg_sleep%'`,
      );
      pid = row?.pid;
      await sleep(20);
    }
    assert.ok(pid !== undefined, 'the sleeping backend');
    await terminate(pid);
    const error = await settled;
    assert.equal((error as { code?: string } | undefined)?.code, '57P01');
    assert.ok(isDatabaseUnavailable(error));
    assert.deepEqual(await db.query('SELECT id FROM dying_probe'), []);
  });

  it('an idle pooled connection terminated (a restart) is replaced', async () => {
    const db = poolOfOne();
    const [first] = await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    await terminate(Number(first?.pid));
    await sleep(200);
    const [second] = await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    assert.notEqual(second?.pid, first?.pid);
  });

  it('a server that cannot be reached: queries and transactions fail as unavailable', async () => {
    const unreachable = new URL(url);
    unreachable.port = String(await freePort());
    const db = createPgDb({ connectionString: unreachable.toString(), poolSize: 1 });
    opened.push(db);
    await assert.rejects(db.query('SELECT 1'), isDatabaseUnavailable);
    await assert.rejects(
      db.transaction(async (tx) => tx.query('SELECT 1')),
      isDatabaseUnavailable,
    );
  });
});

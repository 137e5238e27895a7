// PostgreSQL only: the alerts worker runs in a real server process that is SIGKILLed in the middle
// of a batch and restarted on the same database, while a real SMTP server on 127.0.0.1 (in this
// test's process) receives the email. PGlite is one session inside one process: it cannot be
// shared with a child process, nor survive its death.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type ServerProcess, startServerProcess } from '../server-process.ts';
import { SmtpReceiver } from '../smtp-receiver.ts';
import { createTestDb, type TestDb } from '../test-db.ts';

const ADMIN_TOKEN = 'alerts-crash-admin-token-0123456789abcdefghij';
const TOKEN_SIGNING_SECRET = 'alerts-crash-signing-secret-0123456789abcdefghij';
const CREDITS = 30;
const HTTP_TIMEOUT_MS = 10_000;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describe('alerts survive a SIGKILL of the worker mid-batch (PostgreSQL)', {
  timeout: 240_000,
}, () => {
  let testDb: TestDb;
  let dataDir: string;
  const receiver = new SmtpReceiver();
  const servers: ServerProcess[] = [];

  async function startServer(extra: Record<string, string>) {
    assert.ok(testDb.url !== undefined);
    const started = await startServerProcess({
      DATABASE_URL: testDb.url,
      IBS_ENV: 'sandbox',
      DATA_DIR: dataDir,
      ADMIN_TOKEN,
      TOKEN_SIGNING_SECRET,
      SMTP_URL: receiver.url(),
      ALERTS_BATCH_SIZE: '4',
      ALERTS_POLL_INTERVAL_MS: '20',
      RATE_LIMIT_ADMIN_PER_MINUTE_PER_IP: '0',
      ...extra,
    });
    servers.push(started.server);
    return started;
  }

  async function admin(baseUrl: string, url: string, body: Record<string, unknown>) {
    const response = await fetch(`${baseUrl}${url}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    });
    const text = await response.text();
    assert.ok(response.ok, `POST ${url} answered ${response.status}: ${text}`);
    return (JSON.parse(text) as { data: Record<string, unknown> }).data;
  }

  const statuses = async (accountNumber: string) =>
    testDb.db.query<{ id: string; status: string }>(
      `SELECT id, status FROM alert_messages WHERE account_number = $1 AND channel = 'email'`,
      [accountNumber],
    );

  before(async () => {
    testDb = await createTestDb();
    assert.ok(testDb.url !== undefined, 'createTestDb gave a PostgreSQL database');
    dataDir = await mkdtemp(path.join(tmpdir(), 'openibs-alerts-crash-'));
    await receiver.start();
  });

  after(async () => {
    await Promise.all(servers.map((server) => server.kill()));
    await receiver.stop();
    await testDb?.close();
    if (dataDir !== undefined) {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  test('every credit alerts once: nothing lost, no Message-ID twice in the database', async () => {
    // First life: the worker is off, so the notices are committed and certainly not sent.
    const first = await startServer({ ALERTS_WORKER_ENABLED: 'false' });
    const client = await admin(first.baseUrl, '/admin/clients', {
      name: 'Crash Alerts Ltd',
      emailAddress: 'crash@alerts.test',
    });
    const accountNumber = (client.mainAccount as { accountNumber: string }).accountNumber;
    for (let i = 0; i < CREDITS; i += 1) {
      await admin(first.baseUrl, '/admin/sandbox/credits', { accountNumber, amount: 100 + i });
    }
    await first.server.terminate();

    // Second life: a slow mail server, so the kill lands while a batch is being sent.
    receiver.delayMs = 150;
    const arrived = () => receiver.received.length;
    const second = await startServer({});
    const deadline = Date.now() + 60_000;
    while (arrived() < 3 && Date.now() < deadline) {
      await sleep(5);
    }
    await second.server.kill();
    receiver.delayMs = 0;
    const atKill = await statuses(accountNumber);
    assert.ok(arrived() >= 3, `some email arrived before the kill (${arrived()})`);
    assert.ok(
      atKill.filter((row) => row.status === 'sent').length < CREDITS,
      'the kill came before the work was done',
    );

    // Third life: the worker takes up what is left.
    const third = await startServer({});
    const done = Date.now() + 90_000;
    for (;;) {
      const rows = await statuses(accountNumber);
      if (rows.length === CREDITS && rows.every((row) => row.status === 'sent')) {
        break;
      }
      assert.ok(Date.now() < done, `not all sent: ${JSON.stringify(rows.map((r) => r.status))}`);
      await sleep(100);
    }
    await third.server.terminate();

    const rows = await statuses(accountNumber);
    const ids = new Set(rows.map((row) => `<${row.id}@alerts.openibs>`));
    assert.equal(ids.size, CREDITS, 'one message per credit');
    const received = receiver.received.filter((m) => m.to === 'crash@alerts.test');
    const distinct = new Set(received.map((m) => m.messageId));
    assert.deepEqual([...distinct].sort(), [...ids].sort(), 'every message arrived');
    // At most the batch in flight at the kill arrives twice, under the same Message-ID, which
    // the receiving side de-duplicates (docs/alerts.md, "Exactly once at the customer's end").
    assert.ok(received.length - distinct.size <= 4, `${received.length - distinct.size} repeats`);
    const [notices] = await testDb.db.query<{ left: number }>(
      'SELECT count(*)::int AS left FROM ledger_notices',
    );
    assert.equal(Number(notices?.left), 0);
  });
});

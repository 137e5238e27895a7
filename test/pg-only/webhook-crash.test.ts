// PostgreSQL only: the server runs as a real process that is SIGKILLed and restarted on the same
// database, while this test reads that database from its own connection. Embedded PGlite is one
// session inside one process, so it can neither be shared with the server nor survive its death.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { type ServerProcess, startServerProcess } from '../server-process.ts';
import { createTestDb, type TestDb } from '../test-db.ts';
import { type ReceivedRequest, WebhookReceiver } from '../webhook-receiver.ts';

const DELIVERY_TIMEOUT_MS = 30_000;
const HTTP_TIMEOUT_MS = 10_000;
/** After the delivery, how long to keep listening for a duplicate (many poll intervals). */
const QUIET_PERIOD_MS = 1_000;
const ADMIN_TOKEN = 'crash-test-admin-token-0123456789abcdefghij';
const TOKEN_SIGNING_SECRET = 'crash-test-signing-secret-0123456789abcdefghij';

interface EventRow {
  id: string;
  type: string;
  status: string;
  attempts: number;
  payload: { type: string; data: { _id: string } };
}

interface AttemptRow {
  attempt: number;
  status_code: number | null;
  url: string | null;
  error: string | null;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls until probe answers something other than undefined, or fails after timeoutMs. */
async function waitFor<T>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<T | undefined> | T | undefined,
  context: () => string = () => '',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}\n${context()}`);
    }
    await sleep(50);
  }
}

/** The three Standard Webhooks headers, as the verifier wants them. */
function signedHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
    const value = headers[name];
    assert.equal(typeof value, 'string', `the ${name} header is present once`);
    picked[name] = value as string;
  }
  return picked;
}

describe('webhook delivery survives a SIGKILL between commit and delivery (PostgreSQL)', {
  timeout: 180_000,
}, () => {
  let testDb: TestDb;
  let databaseUrl: string;
  let dataDir: string;
  const receiver = new WebhookReceiver();
  const servers: ServerProcess[] = [];

  async function startServer(extra: Record<string, string>) {
    const started = await startServerProcess({
      DATABASE_URL: databaseUrl,
      IBS_ENV: 'sandbox',
      DATA_DIR: dataDir,
      ADMIN_TOKEN,
      TOKEN_SIGNING_SECRET,
      ...extra,
    });
    servers.push(started.server);
    return started;
  }

  async function admin(
    baseUrl: string,
    method: 'POST' | 'PUT',
    url: string,
    body: Record<string, unknown>,
  ) {
    const response = await fetch(`${baseUrl}${url}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    });
    const text = await response.text();
    assert.ok(response.ok, `${method} ${url} answered ${response.status}: ${text}`);
    return (JSON.parse(text) as { data: Record<string, unknown> }).data;
  }

  const eventsOf = (clientId: string) =>
    testDb.db.query<EventRow>(
      'SELECT id, type, status, attempts, payload FROM webhook_events WHERE client_id = $1',
      [clientId],
    );

  const attemptsOf = (eventId: string) =>
    testDb.db.query<AttemptRow>(
      `SELECT attempt, status_code, url, error FROM webhook_attempts WHERE event_id = $1
        ORDER BY attempt`,
      [eventId],
    );

  before(async () => {
    testDb = await createTestDb();
    assert.ok(testDb.url !== undefined, 'createTestDb gave a PostgreSQL database');
    databaseUrl = testDb.url;
    dataDir = await mkdtemp(path.join(tmpdir(), 'openibs-webhook-crash-'));
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

  test('a committed event is delivered once, signed, after a kill -9 and a restart', async () => {
    // First life: the worker is off, so the credit's event is committed and certainly not sent.
    const first = await startServer({ WEBHOOK_WORKER_ENABLED: 'false' });
    const client = await admin(first.baseUrl, 'POST', '/admin/clients', { name: 'Crash Ltd' });
    const clientId = client._id as string;
    const accountNumber = (client.mainAccount as { accountNumber: string }).accountNumber;
    const settings = await admin(first.baseUrl, 'PUT', `/admin/clients/${clientId}/webhook`, {
      url: receiver.url(),
    });
    assert.equal(settings.url, receiver.url());
    const secret = settings.secret as string;
    assert.match(secret, /^whsec_/);
    const transfer = await admin(first.baseUrl, 'POST', '/admin/sandbox/credits', {
      accountNumber,
      amount: 1234.5,
    });
    const transferId = transfer._id as string;

    const exit = await first.server.kill();
    assert.equal(exit.signal, 'SIGKILL', first.server.log());

    assert.equal(receiver.requests.length, 0, 'nothing was delivered before the kill');
    const pending = await eventsOf(clientId);
    assert.equal(pending.length, 1, JSON.stringify(pending));
    const event = pending[0] as EventRow;
    assert.equal(event.status, 'pending');
    assert.equal(event.attempts, 0);
    assert.equal(event.type, 'transfer');
    assert.equal(event.payload.data._id, transferId);
    assert.deepEqual(await attemptsOf(event.id), []);

    // Second life: the in-process worker finds the committed event and delivers it.
    const second = await startServer({
      WEBHOOK_WORKER_ENABLED: 'true',
      WEBHOOK_POLL_INTERVAL_MS: '50',
    });
    await waitFor(
      'the webhook to reach the receiver',
      DELIVERY_TIMEOUT_MS,
      () => (receiver.requests.length > 0 ? true : undefined),
      () => second.server.log(),
    );
    await waitFor(
      'the event to be marked delivered',
      DELIVERY_TIMEOUT_MS,
      async () => ((await eventsOf(clientId))[0]?.status === 'delivered' ? true : undefined),
      () => second.server.log(),
    );
    // Many poll intervals: a second delivery of the same event would show up here.
    await sleep(QUIET_PERIOD_MS);

    assert.equal(receiver.requests.length, 1, 'exactly one delivery');
    const delivery = receiver.requests[0] as ReceivedRequest;
    assert.equal(delivery.method, 'POST');
    assert.equal(delivery.path, '/hooks');
    assert.match(String(delivery.headers['content-type']), /^application\/json/);
    assert.equal(delivery.headers['webhook-id'], event.id);

    const body = JSON.parse(delivery.body) as { type: string; data: { _id: string } };
    assert.equal(body.type, 'transfer');
    assert.equal(body.data._id, transferId);

    // The signature verifies with the secret the operator was given, and only for this body.
    const headers = signedHeaders(delivery.headers);
    assert.deepEqual(new Webhook(secret).verify(delivery.body, headers), body);
    assert.throws(() =>
      new Webhook(secret).verify(delivery.body.replace(transferId, 'f'.repeat(24)), headers),
    );

    const [delivered] = await eventsOf(clientId);
    assert.equal(delivered?.status, 'delivered');
    assert.equal(delivered?.attempts, 1);
    const attempts = await attemptsOf(event.id);
    assert.equal(attempts.length, 1, JSON.stringify(attempts));
    assert.deepEqual(attempts[0], {
      attempt: 1,
      status_code: 200,
      url: receiver.url(),
      error: null,
    });
  });
});

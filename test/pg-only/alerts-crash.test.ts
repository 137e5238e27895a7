// PostgreSQL only: the alerts worker runs in a real server process that is SIGKILLed in the middle
// of a batch and restarted on the same database, while a real SMTP server on 127.0.0.1 (in this
// test's process) receives the email. PGlite is one session inside one process: it cannot be
// shared with a child process, nor survive its death.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SmtpReceiver } from '../smtp-receiver.ts';
import { callApi, ServerFixture, sleep } from './server-fixture.ts';

const CREDITS = 30;

describe('alerts survive a SIGKILL of the worker mid-batch (PostgreSQL)', {
  timeout: 240_000,
}, () => {
  const fixture = new ServerFixture('alerts-crash', {
    adminToken: 'alerts-crash-admin-token-0123456789abcdefghij',
    tokenSigningSecret: 'alerts-crash-signing-secret-0123456789abcdefghij',
    publicBaseUrl: 'http://127.0.0.1',
  });
  const receiver = new SmtpReceiver();

  const startServer = (extra: Record<string, string>) =>
    fixture.startServer({
      SMTP_URL: receiver.url(),
      ALERTS_BATCH_SIZE: '4',
      ALERTS_POLL_INTERVAL_MS: '20',
      ...extra,
    });

  const admin = async (baseUrl: string, url: string, body: Record<string, unknown>) =>
    (
      await callApi(
        baseUrl,
        'POST',
        url,
        {
          authorization: `Bearer ${fixture.secrets.adminToken}`,
        },
        body,
      )
    ).data;

  const statuses = async (accountNumber: string) =>
    fixture.db.query<{ id: string; status: string }>(
      `SELECT id, status FROM alert_messages WHERE account_number = $1 AND channel = 'email'`,
      [accountNumber],
    );

  before(async () => {
    await fixture.open();
    await receiver.start();
  });

  after(async () => {
    await fixture.close();
    await receiver.stop();
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
    const [notices] = await fixture.db.query<{ left: number }>(
      'SELECT count(*)::int AS left FROM ledger_notices',
    );
    assert.equal(Number(notices?.left), 0);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DashboardBrowser } from '../test/dashboard-browser.ts';
import { nameEnquiry, sandboxCredit, sendTransfer, signedInClient } from '../test/factories.ts';
import { buildTestApp, type TestApp } from '../test/harness.ts';
import { createRetentionWorker } from './retention-worker.ts';

const DAY = 86_400;

describe('the retention worker', () => {
  let testApp: TestApp;
  let client: Awaited<ReturnType<typeof signedInClient>>;

  before(async () => {
    testApp = await buildTestApp({ REFRESH_TOKEN_TTL_SECONDS: String(2 * DAY) });
  });
  after(() => testApp?.close());

  const count = async (table: string) =>
    (await testApp.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]?.n ?? 0;
  const counts = async () => ({
    refreshTokens: await count('refresh_tokens'),
    nameEnquiries: await count('name_enquiries'),
    idempotencyKeys: await count('idempotency_requests'),
    webhookEvents: await count('webhook_events'),
    transfers: await count('transfers'),
    dashboardSessions: await count('dashboard_sessions'),
  });
  const worker = (batchSize = 1000) =>
    createRetentionWorker({
      db: testApp.db,
      clock: testApp.clock,
      config: {
        enabled: true,
        expiredDays: 1,
        idempotencyKeyDays: 7,
        deliveredWebhookDays: 30,
        alertMessageDays: 90,
        batchSize,
        pollIntervalMs: 1000,
      },
    });
  /**
   * Everything the old day leaves: a refresh token, an enquiry, a keyed transfer, events, a
   * dashboard session (it expires DASHBOARD_SESSION_TTL_SECONDS, 12 hours, after sign-in).
   */
  const makeADay = async () => {
    await new DashboardBrowser(testApp.app).signIn('night-shift');
    client = await signedInClient(testApp, `Client ${testApp.clock.now().getTime()}`, 0);
    await sandboxCredit(testApp.app, client.client.mainAccountNumber, 5000);
    const sent = await sendTransfer(
      testApp.app,
      { ...client.headers, 'idempotency-key': `key-${testApp.clock.now().getTime()}` },
      { debitAccountNumber: client.client.mainAccountNumber, amount: 100 },
    );
    assert.equal(sent.statusCode, 200, sent.body);
    await nameEnquiry(testApp.app, client.headers, '000013', '0123456789');
    // Delivery is the webhook worker's business; here every event of the day counts as delivered.
    await testApp.db.query(
      "UPDATE webhook_events SET status = 'delivered', updated_at = $1 WHERE status = 'pending'",
      [testApp.clock.now()],
    );
  };

  it('deletes nothing that still matters', async () => {
    await makeADay();
    const before = await counts();
    assert.equal(await worker().runOnce(), 0);
    assert.deepEqual(await counts(), before);
  });

  it('deletes each kind once it is past its window, in bounded batches, and never a transfer', async () => {
    const start = await counts();
    assert.equal(start.dashboardSessions, 1);
    // A day and a half: enquiries (30 minutes) are over a day expired, nothing else is.
    testApp.clock.advanceSeconds(1.5 * DAY);
    assert.ok((await worker().runOnce()) > 0);
    let now = await counts();
    assert.equal(now.nameEnquiries, 0);
    assert.equal(now.dashboardSessions, start.dashboardSessions, 'expired only half a day ago');
    assert.equal(now.refreshTokens, start.refreshTokens);
    assert.equal(now.idempotencyKeys, start.idempotencyKeys);
    // Refresh tokens live two days here: a day after that they go.
    testApp.clock.advanceSeconds(2 * DAY);
    await worker().runOnce();
    now = await counts();
    assert.equal(now.refreshTokens, 0);
    assert.equal(now.dashboardSessions, 0);
    assert.equal(now.idempotencyKeys, start.idempotencyKeys);
    // Keys after a week, delivered events after 30 days: in batches of one row per table.
    testApp.clock.advanceSeconds(30 * DAY);
    const small = worker(1);
    let rounds = 0;
    while ((await small.runOnce()) > 0) {
      rounds++;
    }
    now = await counts();
    assert.equal(now.idempotencyKeys, 0);
    assert.equal(now.webhookEvents, 0);
    assert.ok(rounds >= start.webhookEvents, `${rounds} rounds for ${start.webhookEvents} events`);
    assert.equal(now.transfers, start.transfers, 'money records are never purged');
    const attempts = await count('webhook_attempts');
    assert.equal(attempts, 0);
  });

  it('deletes customer alerts once settled 90 days ago, never one still waiting to be sent', async () => {
    const message = (id: string, status: string) =>
      testApp.db.query(
        `INSERT INTO alert_messages (id, account_id, account_number, client_id, channel,
           destination, status, text_body, created_at)
         VALUES ($1, 'acc', '0123456789', 'client', 'sms', '+2348030000000', $2, 'Debit', $3)`,
        [id, status, testApp.clock.now()],
      );
    await message('alert-sent', 'sent');
    await message('alert-failed', 'failed');
    await message('alert-pending', 'pending');
    const left = async () =>
      (
        await testApp.db.query<{ id: string }>(
          "SELECT id FROM alert_messages WHERE id LIKE 'alert-%' ORDER BY id",
        )
      ).map((row) => row.id);
    testApp.clock.advanceSeconds(89 * DAY);
    await worker().runOnce();
    assert.deepEqual(await left(), ['alert-failed', 'alert-pending', 'alert-sent']);
    testApp.clock.advanceSeconds(2 * DAY);
    await worker().runOnce();
    assert.deepEqual(await left(), ['alert-pending']);
  });
});

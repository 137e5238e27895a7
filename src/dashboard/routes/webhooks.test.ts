/**
 * A client's webhook deliveries as the admin API answers them, each with its attempts, and
 * replaying one now.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminAnswer, column, DashboardBrowser } from '../../../test/dashboard-browser.ts';
import { sandboxCredit, signedInClient } from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';

describe('dashboard: webhook deliveries', () => {
  let testApp: TestApp;
  let browser: DashboardBrowser;
  let signedIn: Awaited<ReturnType<typeof signedInClient>>;
  let base: string;

  const deliveries = async () =>
    (
      await adminAnswer(
        testApp.app,
        `/admin/clients/${signedIn.client.ibsClientId}/webhooks/deliveries`,
      )
    ).data;

  before(async () => {
    testApp = await buildTestApp();
    signedIn = await signedInClient(testApp, 'Flutter Shop');
    base = `/dashboard/clients/${signedIn.client.ibsClientId}`;
    await testApp.services.webhookService.updateSettings(signedIn.client.ibsClientId, {
      url: 'http://127.0.0.1:9/unreachable',
    });
    await sandboxCredit(testApp.app, signedIn.client.mainAccountNumber, 10);
    browser = new DashboardBrowser(testApp.app);
    await browser.signIn('ada');
  });
  after(async () => testApp?.close());

  it('lists the deliveries as the admin API answers them, each with a replay button', async () => {
    const page = await browser.get(`${base}/webhooks`);
    assert.equal(page.statusCode, 200, page.body);
    type Listed = { _id: string; type: string; status: string };
    const listed: Listed[] = await deliveries();
    assert.ok(listed.length > 0);
    assert.deepEqual(
      column(page.body, 'Event'),
      listed.map((each) => `${each.type}${each._id}`),
    );
    assert.deepEqual(
      column(page.body, 'Status'),
      listed.map((each) => each.status),
    );
    for (const delivery of listed) {
      assert.ok(page.body.includes(`action="${base}/webhooks/${delivery._id}/replay"`));
    }
  });

  it('replays a delivery now: the admin API has it due, and the page says so', async () => {
    const [delivery] = await deliveries();
    await browser.get(`${base}/webhooks`);
    const replayed = await browser.post(`${base}/webhooks/${delivery._id}/replay`);
    assert.equal(replayed.statusCode, 303);
    const page = await browser.get(`${base}/webhooks`);
    assert.ok(page.body.includes(`Delivery ${delivery._id} queued to be sent now.`));
    const [after] = await deliveries();
    assert.equal(after.status, 'pending');
    assert.ok(new Date(after.nextAttemptAt).getTime() <= testApp.clock.now().getTime());
  });

  it('an unknown delivery comes back as a notice', async () => {
    await browser.get(`${base}/webhooks`);
    await browser.post(`${base}/webhooks/nothing-like-it/replay`);
    assert.match((await browser.get(`${base}/webhooks`)).body, /notice-error/);
  });
});

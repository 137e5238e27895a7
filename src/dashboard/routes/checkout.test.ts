/** A client's checkout sessions as the admin API (and the merchant's verify) answers them. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminAnswer, column, DashboardBrowser } from '../../../test/dashboard-browser.ts';
import { openCheckoutSession, signedInClient } from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';
import { naira } from '../components.ts';

describe('dashboard: checkout sessions', () => {
  let testApp: TestApp;
  let browser: DashboardBrowser;
  let signedIn: Awaited<ReturnType<typeof signedInClient>>;
  let base: string;

  before(async () => {
    testApp = await buildTestApp();
    signedIn = await signedInClient(testApp, 'Flutter Shop');
    base = `/dashboard/clients/${signedIn.client.ibsClientId}`;
    browser = new DashboardBrowser(testApp.app);
    await browser.signIn('ada');
  });
  after(async () => testApp?.close());

  it('says so while the client has no session', async () => {
    const page = await browser.get(`${base}/checkout`);
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.body, /No checkout session yet/);
  });

  it('lists the sessions as the admin API answers them, filtered by status', async () => {
    await openCheckoutSession(
      testApp.app,
      {
        oauthClientId: signedIn.client.oauthClientId,
        accountNumber: signedIn.client.mainAccountNumber,
      },
      'ORDER-DASH-1',
      { remoteAddress: '10.1.2.3' },
    );
    const page = await browser.get(`${base}/checkout?status=Pending`);
    const sessions = (
      await adminAnswer(
        testApp.app,
        `/admin/clients/${signedIn.client.ibsClientId}/checkout-sessions?status=Pending`,
      )
    ).data;
    type Listed = { referenceCode: string; amount: number; status: string };
    assert.deepEqual(
      column(page.body, 'Reference code'),
      sessions.map((each: Listed) => each.referenceCode),
    );
    assert.deepEqual(
      column(page.body, 'Amount'),
      sessions.map((each: Listed) => naira(each.amount)),
    );
    assert.deepEqual(
      column(page.body, 'Status'),
      sessions.map((each: Listed) => each.status),
    );
    assert.deepEqual(column(page.body, 'Reference code'), ['ORDER-DASH-1']);
    assert.deepEqual(column(page.body, 'Amount'), ['₦2,500.00']);
    const completed = await browser.get(`${base}/checkout?status=Completed`);
    assert.deepEqual(column(completed.body, 'Reference code'), []);
  });
});

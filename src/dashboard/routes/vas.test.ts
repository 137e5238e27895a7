/** A client's VAS purchases as the admin API answers them, filtered by status. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminAnswer, column, DashboardBrowser } from '../../../test/dashboard-browser.ts';
import { sandboxCredit, signedInClient, VAS, vasPurchase } from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';
import { naira } from '../components.ts';

describe('dashboard: VAS purchases', () => {
  let testApp: TestApp;
  let browser: DashboardBrowser;
  let signedIn: Awaited<ReturnType<typeof signedInClient>>;
  let base: string;

  before(async () => {
    testApp = await buildTestApp();
    signedIn = await signedInClient(testApp, 'Flutter Shop');
    base = `/dashboard/clients/${signedIn.client.ibsClientId}`;
    await sandboxCredit(testApp.app, signedIn.client.mainAccountNumber, 10_000);
    const bought = await vasPurchase(testApp.app, signedIn.headers, 'airtime', {
      serviceCategoryId: VAS.mtnAirtime,
      amount: 100,
      debitAccountNumber: signedIn.client.mainAccountNumber,
      phoneNumber: '08031234567',
    });
    assert.equal(bought.statusCode, 200, bought.body);
    browser = new DashboardBrowser(testApp.app);
    await browser.signIn('ada');
  });
  after(async () => testApp?.close());

  it('lists the purchases as the admin API answers them', async () => {
    const page = await browser.get(`${base}/vas`);
    assert.equal(page.statusCode, 200, page.body);
    const purchases = (
      await adminAnswer(testApp.app, `/admin/clients/${signedIn.client.ibsClientId}/vas-purchases`)
    ).data;
    type Listed = { beneficiary: string; amount: number; status: string; reference: string };
    assert.equal(purchases.length, 1);
    assert.deepEqual(
      column(page.body, 'Beneficiary'),
      purchases.map((each: Listed) => each.beneficiary),
    );
    assert.deepEqual(
      column(page.body, 'Amount'),
      purchases.map((each: Listed) => naira(each.amount)),
    );
    assert.deepEqual(
      column(page.body, 'Status'),
      purchases.map((each: Listed) => each.status),
    );
    assert.deepEqual(
      column(page.body, 'Reference'),
      purchases.map((each: Listed) => each.reference),
    );
    assert.deepEqual(column(page.body, 'Beneficiary'), ['08031234567']);
  });

  it('filters by status', async () => {
    assert.deepEqual(
      column((await browser.get(`${base}/vas?status=successful`)).body, 'Beneficiary'),
      ['08031234567'],
    );
    const failed = await browser.get(`${base}/vas?status=failed`);
    assert.deepEqual(column(failed.body, 'Beneficiary'), []);
    assert.match(failed.body, /No purchase yet\./);
  });
});

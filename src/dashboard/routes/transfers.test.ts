/**
 * A client's transfers: the list as the admin API answers it, filtered by status and direction,
 * and the live fragment the page refreshes itself with.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminAnswer, column, DashboardBrowser } from '../../../test/dashboard-browser.ts';
import { sandboxCredit, sendTransfer, signedInClient } from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';
import { naira } from '../components.ts';

describe('dashboard: transfers', () => {
  let testApp: TestApp;
  let browser: DashboardBrowser;
  let signedIn: Awaited<ReturnType<typeof signedInClient>>;
  let base: string;
  let transferId: string;

  before(async () => {
    testApp = await buildTestApp();
    signedIn = await signedInClient(testApp, 'Flutter Shop');
    base = `/dashboard/clients/${signedIn.client.ibsClientId}`;
    await sandboxCredit(testApp.app, signedIn.client.mainAccountNumber, 100_000);
    const sent = await sendTransfer(testApp.app, signedIn.headers, {
      debitAccountNumber: signedIn.client.mainAccountNumber,
      amount: 1234.5,
      narration: 'Supplier 42',
      paymentReference: 'DASH-1',
    });
    assert.equal(sent.statusCode, 200, sent.body);
    transferId = sent.json().data._id;
    // .05 kobo: the NIP simulator fails it.
    await sendTransfer(testApp.app, signedIn.headers, {
      debitAccountNumber: signedIn.client.mainAccountNumber,
      amount: 200.05,
      narration: 'will fail',
      paymentReference: 'DASH-FAIL',
    });
    browser = new DashboardBrowser(testApp.app);
    await browser.signIn('ada');
  });
  after(async () => testApp?.close());

  it('lists the transfers as the admin API answers them, each with a link to its story', async () => {
    const page = await browser.get(`${base}/transfers`);
    assert.equal(page.statusCode, 200, page.body);
    const transfers = (
      await adminAnswer(testApp.app, `/admin/clients/${signedIn.client.ibsClientId}/transfers`)
    ).data;
    type Listed = { paymentReference: string | null; amount: number; status: string };
    assert.deepEqual(
      column(page.body, 'Reference'),
      transfers.map((transfer: Listed) => transfer.paymentReference ?? ''),
    );
    assert.deepEqual(
      column(page.body, 'Amount'),
      transfers.map((transfer: Listed) => naira(transfer.amount)),
    );
    assert.deepEqual(
      column(page.body, 'Status'),
      transfers.map((transfer: Listed) => transfer.status),
    );
    assert.ok(page.body.includes(`href="${base}/transfers/${transferId}">Open</a>`));
    assert.match(page.body, /data-live="[^"]*fragment=1/);
  });

  it('filters by status and direction', async () => {
    const completed = await browser.get(`${base}/transfers?direction=Outwards&status=Completed`);
    assert.deepEqual(column(completed.body, 'Reference'), ['DASH-1']);
    const failed = await browser.get(`${base}/transfers?status=Failed`);
    assert.deepEqual(column(failed.body, 'Reference'), ['DASH-FAIL']);
    const inwards = await browser.get(`${base}/transfers?direction=Inwards`);
    assert.equal(column(inwards.body, 'Reference').includes('DASH-1'), false);
    assert.match(inwards.body, /<option value="Inwards" selected>/);
  });

  it('a refused filter shows the admin API’s words instead of the list', async () => {
    const page = await browser.get(`${base}/transfers?status=Lost`);
    assert.equal(page.statusCode, 200);
    assert.deepEqual(column(page.body, 'Reference'), []);
    assert.match(page.body, /<p class="empty">[^<]*status/);
  });

  it('serves the live fragment alone', async () => {
    const fragment = await browser.get(`${base}/transfers?fragment=1`, { 'x-dashboard-live': '1' });
    assert.equal(fragment.statusCode, 200);
    assert.doesNotMatch(fragment.body, /<html/);
    const page = await browser.get(`${base}/transfers`);
    assert.deepEqual(column(fragment.body, 'Reference'), column(page.body, 'Reference'));
    assert.ok(column(fragment.body, 'Reference').includes('DASH-1'));
  });
});

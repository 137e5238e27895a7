/**
 * The money pages through the dashboard: transfers (filters, the live fragment, a transfer's
 * story), virtual accounts paid by the sandbox form, USSD references dialled, VAS, checkout,
 * masked identity checks, the NIP simulator's next outcome, webhook replay, ledger and audit.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DashboardBrowser } from '../../../test/dashboard-browser.ts';
import {
  createUssdReference,
  createVirtualAccount,
  openCheckoutSession,
  SANDBOX_BVN,
  sandboxCredit,
  sendTransfer,
  signedInClient,
  VAS,
  vasPurchase,
  verifyIdentity,
} from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';

describe('dashboard: money pages', () => {
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
    browser = new DashboardBrowser(testApp.app);
    await browser.signIn('ada');
  });
  after(async () => testApp?.close());

  it('lists transfers, filters them, and serves the live fragment alone', async () => {
    const sent = await sendTransfer(testApp.app, signedIn.headers, {
      debitAccountNumber: signedIn.client.mainAccountNumber,
      amount: 1234.5,
      narration: 'Supplier 42',
      paymentReference: 'DASH-1',
    });
    assert.equal(sent.statusCode, 200, sent.body);
    transferId = sent.json().data._id;
    const page = await browser.get(`${base}/transfers`);
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /₦1,234\.50/);
    assert.match(page.body, /data-live="[^"]*fragment=1/);
    const outwards = await browser.get(`${base}/transfers?direction=Outwards&status=Completed`);
    assert.match(outwards.body, /DASH-1/);
    const inwards = await browser.get(`${base}/transfers?direction=Inwards`);
    assert.doesNotMatch(inwards.body, /DASH-1/);
    const fragment = await browser.get(`${base}/transfers?fragment=1`, {
      'x-dashboard-live': '1',
    });
    assert.equal(fragment.statusCode, 200);
    assert.doesNotMatch(fragment.body, /<html/);
    assert.match(fragment.body, /DASH-1/);
  });

  it('tells a transfer’s story: the transfer, its entries, the NIP session, its events', async () => {
    const story = await browser.get(`${base}/transfers/${transferId}`);
    assert.equal(story.statusCode, 200, story.body);
    assert.match(story.body, /Supplier 42/);
    assert.match(story.body, /Ledger entries of this transfer/);
    assert.match(story.body, /NIP session and status queries/);
    assert.match(story.body, /Session id/);
    const other = await signedInClient(testApp, 'Not Yours', 1);
    const foreign = await browser.get(
      `/dashboard/clients/${other.client.ibsClientId}/transfers/${transferId}`,
    );
    assert.equal(foreign.statusCode, 400);
  });

  it('queues the NIP simulator’s next outcome: the next transfer fails with it', async () => {
    await browser.get('/dashboard/sandbox');
    const queued = await browser.post('/dashboard/sandbox/nip-next-outcome', {
      responseCode: '51',
    });
    assert.equal(queued.statusCode, 303);
    assert.match((await browser.get('/dashboard/sandbox')).body, /answered 51/);
    const sent = await sendTransfer(testApp.app, signedIn.headers, {
      debitAccountNumber: signedIn.client.mainAccountNumber,
      amount: 200,
      narration: 'will fail',
      paymentReference: 'DASH-51',
    });
    assert.equal(sent.json().data.status, 'Failed', sent.body);
    const failed = await browser.get(`${base}/transfers?status=Failed`);
    assert.match(failed.body, /DASH-51/);
  });

  it('pays a virtual account with the sandbox form and shows it paid', async () => {
    const account = await createVirtualAccount(
      testApp.app,
      signedIn.headers,
      signedIn.client.mainAccountNumber,
      { amount: 5000 },
    );
    const page = await browser.get(`${base}/virtual-accounts`);
    assert.match(page.body, new RegExp(account.accountNumber));
    const paid = await browser.post(`${base}/virtual-accounts/pay`, {
      accountNumber: account.accountNumber,
      amount: '5000',
      scenario: 'onTime',
    });
    assert.equal(paid.statusCode, 303);
    const after = await browser.get(`${base}/virtual-accounts`);
    assert.match(after.body, /notice-success/);
    assert.match(after.body, /₦5,000\.00<\/td><td class="num" data-label="Amount paid">₦5,000\.00/);
  });

  it('dials a USSD reference with the sandbox form and shows it paid', async () => {
    const reference = await createUssdReference(
      testApp.app,
      signedIn.headers,
      signedIn.client.mainAccountNumber,
    );
    await browser.get(`${base}/ussd`);
    const dialled = await browser.post(`${base}/ussd/dial`, { reference: reference.reference });
    assert.equal(dialled.statusCode, 303);
    const page = await browser.get(`${base}/ussd?status=Paid`);
    assert.match(page.body, new RegExp(reference.reference));
    assert.match(page.body, /badge-good">Paid/);
  });

  it('lists VAS purchases, checkout sessions and masked identity checks', async () => {
    const bought = await vasPurchase(testApp.app, signedIn.headers, 'airtime', {
      serviceCategoryId: VAS.mtnAirtime,
      amount: 100,
      debitAccountNumber: signedIn.client.mainAccountNumber,
      phoneNumber: '08031234567',
    });
    assert.equal(bought.statusCode, 200, bought.body);
    const vas = await browser.get(`${base}/vas?status=successful`);
    assert.equal(vas.statusCode, 200);
    assert.match(vas.body, /08031234567/);
    assert.match((await browser.get(`${base}/checkout`)).body, /No checkout session yet/);
    await openCheckoutSession(
      testApp.app,
      {
        oauthClientId: signedIn.client.oauthClientId,
        accountNumber: signedIn.client.mainAccountNumber,
      },
      'ORDER-DASH-1',
      { remoteAddress: '10.1.2.3' },
    );
    const checkout = await browser.get(`${base}/checkout?status=Pending`);
    assert.equal(checkout.statusCode, 200);
    assert.match(checkout.body, /ORDER-DASH-1/);
    assert.match(checkout.body, /₦2,500\.00/);
    assert.doesNotMatch(
      (await browser.get(`${base}/checkout?status=Completed`)).body,
      /ORDER-DASH-1/,
    );
    await verifyIdentity(testApp.app, signedIn.headers, {
      type: 'BVN',
      number: SANDBOX_BVN,
      debitAccountNumber: signedIn.client.mainAccountNumber,
    });
    const identity = await browser.get(`${base}/identity`);
    assert.equal(identity.statusCode, 200);
    assert.match(identity.body, new RegExp(SANDBOX_BVN.slice(-4)));
    assert.equal(identity.body.includes(SANDBOX_BVN), false);
  });

  it('shows webhook deliveries with their attempts and replays one now', async () => {
    const { webhookService } = testApp.services;
    await webhookService.updateSettings(signedIn.client.ibsClientId, {
      url: 'http://127.0.0.1:9/unreachable',
    });
    await sandboxCredit(testApp.app, signedIn.client.mainAccountNumber, 10);
    const page = await browser.get(`${base}/webhooks`);
    assert.equal(page.statusCode, 200);
    const eventId = /\/webhooks\/([^/"]+)\/replay/.exec(page.body)?.[1];
    assert.ok(eventId, 'a delivery is listed with its replay button');
    const replayed = await browser.post(`${base}/webhooks/${eventId}/replay`);
    assert.equal(replayed.statusCode, 303);
    assert.match((await browser.get(`${base}/webhooks`)).body, /queued to be sent now/);
  });

  it('shows the ledger audit and the audit trail of this operator’s actions', async () => {
    const ledger = await browser.get('/dashboard/ledger');
    assert.equal(ledger.statusCode, 200);
    assert.match(ledger.body, /Invariant audit <span class="badge badge-good">ok/);
    assert.match(ledger.body, /GL accounts/);
    const audit = await browser.get('/dashboard/audit?actor=operator:ada');
    assert.equal(audit.statusCode, 200);
    for (const action of [
      'dashboard.sign-in',
      'admin.post /admin/sandbox/nip/next-outcome',
      'admin.post /admin/sandbox/virtual-account-payments',
      'admin.post /admin/sandbox/ussd-dials',
      'admin.post /admin/clients/:id/webhooks/deliveries/:eventId/replay',
    ]) {
      assert.ok(audit.body.includes(action), action);
    }
  });
});

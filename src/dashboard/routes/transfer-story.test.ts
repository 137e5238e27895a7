/**
 * One transfer's story: the transfer, its ledger entries, its NIP session and its webhook events,
 * as the admin API answers them; another client's transfer is not found.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminAnswer, column, DashboardBrowser } from '../../../test/dashboard-browser.ts';
import { sandboxCredit, sendTransfer, signedInClient } from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';
import { naira } from '../components.ts';

describe('dashboard: transfer story', () => {
  let testApp: TestApp;
  let browser: DashboardBrowser;
  let signedIn: Awaited<ReturnType<typeof signedInClient>>;
  let path: string;
  let transferId: string;

  before(async () => {
    testApp = await buildTestApp();
    signedIn = await signedInClient(testApp, 'Flutter Shop');
    await sandboxCredit(testApp.app, signedIn.client.mainAccountNumber, 100_000);
    const sent = await sendTransfer(testApp.app, signedIn.headers, {
      debitAccountNumber: signedIn.client.mainAccountNumber,
      amount: 1234.5,
      narration: 'Supplier 42',
      paymentReference: 'DASH-1',
    });
    transferId = sent.json().data._id;
    path = `/dashboard/clients/${signedIn.client.ibsClientId}/transfers/${transferId}`;
    browser = new DashboardBrowser(testApp.app);
    await browser.signIn('ada');
  });
  after(async () => testApp?.close());

  it('shows the transfer, its ledger entries and its NIP session as the admin API answers', async () => {
    const page = await browser.get(path);
    assert.equal(page.statusCode, 200, page.body);
    const story = (
      await adminAnswer(
        testApp.app,
        `/admin/clients/${signedIn.client.ibsClientId}/transfers/${transferId}/story`,
      )
    ).data;
    assert.ok(page.body.includes(`<dt>Narration</dt><dd>${story.transfer.narration}</dd>`));
    assert.ok(page.body.includes(`<dt>Amount</dt><dd>${naira(story.transfer.amount)}</dd>`));
    type Entry = { accountName: string; amount: number; type: string };
    assert.ok(story.ledgerEntries.length >= 2);
    assert.deepEqual(
      column(page.body, 'Account name'),
      story.ledgerEntries.map((entry: Entry) => entry.accountName),
    );
    assert.deepEqual(
      column(page.body, 'Amount'),
      story.ledgerEntries.map((entry: Entry) => naira(entry.amount)),
    );
    assert.ok(page.body.includes(`<dt>Session id</dt><dd>${story.nip.sessionId}</dd>`));
    assert.ok(page.body.includes(`<dt>Response code</dt><dd>${story.nip.responseCode}</dd>`));
  });

  it('lists the webhook events about it', async () => {
    const story = (
      await adminAnswer(
        testApp.app,
        `/admin/clients/${signedIn.client.ibsClientId}/transfers/${transferId}/story`,
      )
    ).data;
    assert.ok(story.webhookEvents.length > 0);
    const page = await browser.get(path);
    assert.deepEqual(
      column(page.body, 'Id'),
      story.webhookEvents.map((event: { _id: string }) => event._id),
    );
    assert.deepEqual(
      column(page.body, 'Status'),
      story.webhookEvents.map((event: { status: string }) => event.status),
    );
  });

  it('another client’s transfer is an error page', async () => {
    const other = await signedInClient(testApp, 'Not Yours', 1);
    const page = await browser.get(
      `/dashboard/clients/${other.client.ibsClientId}/transfers/${transferId}`,
    );
    assert.equal(page.statusCode, 400);
    assert.match(page.body, /notice-error/);
  });
});

/**
 * An account's page: its balances, lockedBalance counting what it owes under liens, and its liens
 * as the admin API answers them (reason, amount, outstanding, status), with Release on an active
 * one; another client's account is not shown.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminAnswer, column, DashboardBrowser } from '../../../test/dashboard-browser.ts';
import {
  adminHeaders,
  sandboxCredit,
  sendTransfer,
  signedInClient,
} from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';
import { naira } from '../components.ts';

describe('dashboard: an account’s page', () => {
  let testApp: TestApp;
  let browser: DashboardBrowser;
  let signedIn: Awaited<ReturnType<typeof signedInClient>>;
  let base: string;

  before(async () => {
    testApp = await buildTestApp();
    signedIn = await signedInClient(testApp, 'Lien Foods');
    base = `/dashboard/clients/${signedIn.client.ibsClientId}/accounts`;
    browser = new DashboardBrowser(testApp.app);
    await browser.signIn('olu');
  });
  after(async () => testApp?.close());

  it('an account with no lien: its balances, no lien, a link to its statement', async () => {
    const page = await browser.get(`${base}/${signedIn.client.mainAccountNumber}`);
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.body, new RegExp(`Account ${signedIn.client.mainAccountNumber}`));
    assert.match(page.body, /No lien: the account owes the bank nothing\./);
    assert.match(page.body, new RegExp(`${base}/${signedIn.client.mainAccountId}/statement`));
    const list = await browser.get(base);
    assert.match(list.body, new RegExp(`href="${base}/${signedIn.client.mainAccountNumber}"`));
  });

  it('shows the liens as the admin API answers them, lockedBalance counting them', async () => {
    const { mainAccountNumber } = signedIn.client;
    const credit = await sandboxCredit(testApp.app, mainAccountNumber, 500);
    const spent = await sendTransfer(testApp.app, signedIn.headers, {
      debitAccountNumber: mainAccountNumber,
      amount: 389.25, // ₦400 with the fee and VAT: ₦100 left of the ₦500
    });
    assert.equal(spent.statusCode, 200, spent.body);
    const recalled = await testApp.app.inject({
      method: 'POST',
      url: '/admin/sandbox/nip/recalls',
      headers: adminHeaders,
      payload: { sessionId: credit.sessionId, reason: 'Fraud' },
    });
    assert.equal(recalled.statusCode, 200, recalled.body);
    const page = await browser.get(`${base}/${mainAccountNumber}`);
    assert.equal(page.statusCode, 200, page.body);
    const liens = (await adminAnswer(testApp.app, `/admin/accounts/${mainAccountNumber}/liens`))
      .data as { reason: string; amount: number; outstanding: number; status: string }[];
    assert.equal(liens.length, 1);
    assert.deepEqual(
      column(page.body, 'Reason'),
      liens.map((lien) => lien.reason),
    );
    assert.deepEqual(column(page.body, 'Amount'), [naira(400)]);
    assert.deepEqual(column(page.body, 'Outstanding'), [naira(400)]);
    assert.deepEqual(column(page.body, 'Status'), ['active']);
    assert.match(liens[0]?.reason ?? '', /^Recall of \d{30}: Fraud$/);
    assert.match(page.body, /<dt>Locked \(held and owed under liens\)<\/dt><dd>₦400\.00<\/dd>/);
    assert.match(page.body, /<dt>Owed under liens<\/dt><dd>₦400\.00<\/dd>/);
    assert.match(page.body, /<dt>Available<\/dt><dd>₦0\.00<\/dd>/);
    assert.match(page.body, /<button type="submit" class="button danger">Release<\/button>/);
    const list = await browser.get(base);
    const locked = column(list.body, 'Locked');
    assert.ok(locked.includes(naira(400)), `the accounts list's Locked column: ${locked}`);
  });

  it('another client’s account is not shown, nor its liens', async () => {
    const other = await signedInClient(testApp, 'Not Yours', 1);
    const page = await browser.get(`${base}/${other.client.mainAccountNumber}`);
    assert.equal(page.statusCode, 404);
    assert.match(page.body, /That account is not one of this client\./);
    assert.doesNotMatch(page.body, /Liens on this account/);
  });
});

/**
 * Sandbox: "Recall this credit" on a credit's page. The button shows on a Completed credit from
 * another bank only; pressing it recalls the credit through the admin API (the credit Reversed,
 * what the account lacked a lien); another client's credit is not recalled.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DashboardBrowser } from '../../../test/dashboard-browser.ts';
import {
  accountBalance,
  sandboxCredit,
  sendTransfer,
  signedInClient,
} from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';

describe('dashboard: recall a credit (sandbox)', () => {
  let testApp: TestApp;
  let browser: DashboardBrowser;
  let signedIn: Awaited<ReturnType<typeof signedInClient>>;
  let base: string;

  const balance = () =>
    accountBalance(testApp.app, signedIn.headers, signedIn.client.mainAccountNumber);

  before(async () => {
    testApp = await buildTestApp();
    signedIn = await signedInClient(testApp, 'Recalled Shop');
    base = `/dashboard/clients/${signedIn.client.ibsClientId}/transfers`;
    browser = new DashboardBrowser(testApp.app);
    await browser.signIn('ada');
  });
  after(async () => testApp?.close());

  it('offers the button on a Completed credit from another bank only', async () => {
    const other = await signedInClient(testApp, 'Payer Shop', 1);
    const credit = await sandboxCredit(testApp.app, signedIn.client.mainAccountNumber, 100);
    await sandboxCredit(testApp.app, other.client.mainAccountNumber, 100);
    const intraBank = await sendTransfer(testApp.app, other.headers, {
      debitAccountNumber: other.client.mainAccountNumber,
      beneficiaryBankCode: '999240',
      beneficiaryAccountNumber: signedIn.client.mainAccountNumber,
      amount: 20,
    });
    const [twin] = await testApp.db.query<{ id: string }>(
      "SELECT id FROM transfers WHERE session_id = $1 AND type = 'Inwards'",
      [intraBank.json().data.sessionId],
    );
    assert.ok(twin);
    const offered = async (id: string) =>
      (await browser.get(`${base}/${id}`)).body.includes('Recall this credit');
    assert.deepEqual([await offered(credit._id), await offered(twin.id)], [true, false]);
  });

  it('recalls it: a notice with the lien, the credit Reversed, nothing left available', async () => {
    const credit = await sandboxCredit(testApp.app, signedIn.client.mainAccountNumber, 500);
    const spent = await sendTransfer(testApp.app, signedIn.headers, {
      debitAccountNumber: signedIn.client.mainAccountNumber,
      amount: 589.25, // ₦600 with the fee and VAT, of the ₦620 it holds
    });
    assert.equal(spent.statusCode, 200, spent.body);
    await browser.get(`${base}/${credit._id}`);
    const recalled = await browser.post(`${base}/${credit._id}/recall`, { reason: 'Fraud' });
    assert.equal(recalled.statusCode, 303);
    assert.equal(recalled.headers.location, `${base}/${credit._id}`);
    const page = await browser.get(`${base}/${credit._id}`);
    assert.match(
      page.body,
      new RegExp(`Credit ${credit.sessionId} recalled: the account lacked ₦480`),
    );
    assert.match(page.body, /Reversed/);
    assert.match(page.body, /Recall of \d{30}: Fraud/, 'the ledger entry');
    assert.ok(!page.body.includes('Recall this credit'), 'no button once Reversed');
    assert.equal(await balance(), 0);
  });

  it('does not recall another client’s credit', async () => {
    const credit = await sandboxCredit(testApp.app, signedIn.client.mainAccountNumber, 50);
    const other = await signedInClient(testApp, 'Not Yours', 2);
    await browser.get(`${base}/${credit._id}`);
    const refused = await browser.post(
      `/dashboard/clients/${other.client.ibsClientId}/transfers/${credit._id}/recall`,
      {},
    );
    assert.equal(refused.statusCode, 303);
    assert.equal(
      refused.headers.location,
      `/dashboard/clients/${other.client.ibsClientId}/transfers`,
    );
    const [row] = await testApp.db.query<{ status: string }>(
      'SELECT status FROM transfers WHERE id = $1',
      [credit._id],
    );
    assert.equal(row?.status, 'Completed');
  });
});

/**
 * The client's accounts page through the dashboard as a browser uses it: the list with its
 * balances, freezing and unfreezing, and the sandbox credit form.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminAnswer, column, DashboardBrowser } from '../../../test/dashboard-browser.ts';
import {
  accountBalance,
  sandboxCredit,
  sendTransfer,
  signedInClient,
} from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';
import { naira } from '../components.ts';

describe('dashboard: client accounts page', () => {
  let testApp: TestApp;
  let browser: DashboardBrowser;
  let signedIn: Awaited<ReturnType<typeof signedInClient>>;
  let other: Awaited<ReturnType<typeof signedInClient>>;
  let base: string;

  const balance = () =>
    accountBalance(testApp.app, signedIn.headers, signedIn.client.mainAccountNumber);
  const accountStatus = async () => {
    const listed = await testApp.app.inject({
      method: 'GET',
      url: '/accounts',
      headers: signedIn.headers,
    });
    return (listed.json().data as { accountNumber: string; status: string }[]).find(
      (account) => account.accountNumber === signedIn.client.mainAccountNumber,
    )?.status;
  };

  before(async () => {
    testApp = await buildTestApp();
    signedIn = await signedInClient(testApp, 'Ledger Foods', 0);
    other = await signedInClient(testApp, 'Rival Foods', 1);
    base = `/dashboard/clients/${signedIn.client.ibsClientId}`;
    browser = new DashboardBrowser(testApp.app);
    await browser.signIn('olu');
  });
  after(async () => testApp?.close());

  it('lists the client’s accounts with their balances, and no other client’s', async () => {
    await sandboxCredit(testApp.app, signedIn.client.mainAccountNumber, 1234.5);
    const page = await browser.get(`${base}/accounts`);
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.body, /Accounts and sub-accounts/);
    assert.match(page.body, new RegExp(signedIn.client.mainAccountNumber));
    assert.match(
      page.body,
      new RegExp(`${base}/accounts/${signedIn.client.mainAccountId}/statement`),
    );
    assert.match(page.body, /₦1,234\.50/);
    assert.doesNotMatch(page.body, new RegExp(other.client.mainAccountNumber));
    assert.match(page.body, /Sandbox: money arrives from another bank/);
    const accounts = (
      await adminAnswer(testApp.app, `/admin/clients/${signedIn.client.ibsClientId}/accounts`)
    ).data;
    type Listed = { accountNumber: string; accountBalance: number; bookBalance: number };
    assert.deepEqual(
      column(page.body, 'Number'),
      accounts.map((each: Listed) => each.accountNumber),
    );
    assert.deepEqual(
      column(page.body, 'Available'),
      accounts.map((each: Listed) => naira(each.accountBalance)),
    );
    assert.deepEqual(
      column(page.body, 'Book'),
      accounts.map((each: Listed) => naira(each.bookBalance)),
    );
  });

  it('a sandbox credit from the form lands on the account with a notice', async () => {
    const before = (await balance()) ?? 0;
    await browser.get(`${base}/accounts`);
    const credited = await browser.post(`${base}/accounts/credit`, {
      accountNumber: signedIn.client.mainAccountNumber,
      amount: '300.25',
      narration: 'Dashboard credit',
    });
    assert.equal(credited.statusCode, 303);
    assert.equal(credited.headers.location, `${base}/accounts`);
    assert.match((await browser.get(`${base}/accounts`)).body, /₦300\.25 credited/);
    assert.equal(await balance(), Number((before + 300.25).toFixed(2)));
  });

  it('freezes and unfreezes the account through the API', async () => {
    await browser.get(`${base}/accounts`);
    const frozen = await browser.post(
      `${base}/accounts/${signedIn.client.mainAccountNumber}/freeze`,
    );
    assert.equal(frozen.statusCode, 303);
    assert.equal(await accountStatus(), 'Frozen');
    const page = await browser.get(`${base}/accounts`);
    assert.match(page.body, /frozen: it takes no debit and no credit/);
    assert.match(page.body, /Unfreeze/);
    const refused = await sendTransfer(testApp.app, signedIn.headers, {
      debitAccountNumber: signedIn.client.mainAccountNumber,
      amount: 100,
      narration: 'while frozen',
      paymentReference: 'FROZEN-1',
    });
    assert.equal(refused.statusCode, 402, refused.body);
    await browser.post(`${base}/accounts/${signedIn.client.mainAccountNumber}/unfreeze`);
    assert.equal(await accountStatus(), 'Active');
    assert.match((await browser.get(`${base}/accounts`)).body, /unfrozen\./);
    const recorded = await testApp.services.auditLog.list({
      actor: 'break-glass:olu',
      offset: 0,
      limit: 100,
    });
    const freezes = recorded.events
      .filter((event) => event.action.includes('freeze') && event.outcome === '200')
      .map((event) => `${event.action} ${event.target}`);
    assert.deepEqual(freezes.sort(), [
      `admin.post /admin/accounts/:accountNumber/freeze ${signedIn.client.mainAccountNumber}`,
      `admin.post /admin/accounts/:accountNumber/unfreeze ${signedIn.client.mainAccountNumber}`,
    ]);
  });

  describe('bad input', () => {
    it('an amount with three decimals is refused with a notice; nothing moves', async () => {
      const before = await balance();
      await browser.get(`${base}/accounts`);
      const refused = await browser.post(`${base}/accounts/credit`, {
        accountNumber: signedIn.client.mainAccountNumber,
        amount: '10.005',
      });
      assert.equal(refused.statusCode, 303);
      const page = await browser.get(`${base}/accounts`);
      assert.match(page.body, /notice-error/);
      assert.match(page.body, /at most two decimals/);
      assert.equal(await balance(), before);
    });

    it("another client's account cannot be frozen from this client's page", async () => {
      await browser.get(`${base}/accounts`);
      await browser.post(`${base}/accounts/${other.client.mainAccountNumber}/freeze`);
      assert.match((await browser.get(`${base}/accounts`)).body, /not one of this client/);
      const listed = await testApp.app.inject({
        method: 'GET',
        url: '/accounts',
        headers: other.headers,
      });
      assert.equal(listed.json().data[0].status, 'Active');
    });

    it('an unknown client answers 400 with an error page', async () => {
      const page = await browser.get('/dashboard/clients/ffffffffffffffffffffffff/accounts');
      assert.equal(page.statusCode, 400, page.body);
      assert.match(page.body, /notice-error/);
    });

    it('an unknown action is not found', async () => {
      await browser.get(`${base}/accounts`);
      const answer = await browser.post(
        `${base}/accounts/${signedIn.client.mainAccountNumber}/close`,
      );
      assert.equal(answer.statusCode, 404);
      assert.equal(await accountStatus(), 'Active');
    });
  });

  describe('without a session', () => {
    it('the page redirects to sign-in and shows no account', async () => {
      const stranger = new DashboardBrowser(testApp.app);
      const page = await stranger.get(`${base}/accounts`);
      assert.equal(page.statusCode, 303);
      assert.match(String(page.headers.location), /\/dashboard\/login/);
      assert.doesNotMatch(page.body, new RegExp(signedIn.client.mainAccountNumber));
    });

    it('a credit without a session moves no money', async () => {
      const before = await balance();
      const stranger = new DashboardBrowser(testApp.app);
      const answer = await stranger.post(
        `${base}/accounts/credit`,
        { accountNumber: signedIn.client.mainAccountNumber, amount: '50' },
        { csrf: null },
      );
      assert.ok([303, 401, 403].includes(answer.statusCode), answer.body);
      assert.equal(await balance(), before);
    });
  });
});

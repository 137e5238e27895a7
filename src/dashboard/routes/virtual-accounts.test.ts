/**
 * A client's virtual accounts as the admin API answers them; in the sandbox, a customer of
 * another bank pays one from the page's form.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminAnswer, column, DashboardBrowser } from '../../../test/dashboard-browser.ts';
import { createVirtualAccount, signedInClient } from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';
import { naira } from '../components.ts';

describe('dashboard: virtual accounts', () => {
  let testApp: TestApp;
  let browser: DashboardBrowser;
  let signedIn: Awaited<ReturnType<typeof signedInClient>>;
  let base: string;
  let account: Awaited<ReturnType<typeof createVirtualAccount>>;

  const listed = async () =>
    (
      await adminAnswer(
        testApp.app,
        `/admin/clients/${signedIn.client.ibsClientId}/virtual-accounts`,
      )
    ).data;

  before(async () => {
    testApp = await buildTestApp();
    signedIn = await signedInClient(testApp, 'Flutter Shop');
    base = `/dashboard/clients/${signedIn.client.ibsClientId}`;
    account = await createVirtualAccount(
      testApp.app,
      signedIn.headers,
      signedIn.client.mainAccountNumber,
      { amount: 5000 },
    );
    browser = new DashboardBrowser(testApp.app);
    await browser.signIn('ada');
  });
  after(async () => testApp?.close());

  it('lists the virtual accounts as the admin API answers them, with the sandbox form', async () => {
    const page = await browser.get(`${base}/virtual-accounts`);
    assert.equal(page.statusCode, 200, page.body);
    type Listed = { accountNumber: string; amount: number; amountPaid: number; status: string };
    const accounts: Listed[] = await listed();
    assert.deepEqual(
      column(page.body, 'Account number'),
      accounts.map((each) => each.accountNumber),
    );
    assert.deepEqual(
      column(page.body, 'Amount'),
      accounts.map((each) => naira(each.amount)),
    );
    assert.deepEqual(
      column(page.body, 'Amount paid'),
      accounts.map((each) => naira(each.amountPaid)),
    );
    assert.deepEqual(
      column(page.body, 'Status'),
      accounts.map((each) => each.status),
    );
    assert.match(page.body, /Sandbox: a customer pays a virtual account/);
    assert.ok(page.body.includes(`<option value="${account.accountNumber}">`));
  });

  it('pays a virtual account from the form; the admin API shows it paid', async () => {
    await browser.get(`${base}/virtual-accounts`);
    const paid = await browser.post(`${base}/virtual-accounts/pay`, {
      accountNumber: account.accountNumber,
      amount: '5,000',
      scenario: 'onTime',
    });
    assert.equal(paid.statusCode, 303);
    assert.equal(paid.headers.location, `${base}/virtual-accounts`);
    const [after] = await listed();
    assert.equal(after.amountPaid, 5000);
    const page = await browser.get(`${base}/virtual-accounts`);
    assert.match(page.body, /notice-success/);
    assert.deepEqual(column(page.body, 'Amount paid'), [naira(5000)]);
  });

  it('an amount that is not naira is refused on the page; a refused payment shows why', async () => {
    await browser.get(`${base}/virtual-accounts`);
    await browser.post(`${base}/virtual-accounts/pay`, {
      accountNumber: account.accountNumber,
      amount: '12abc',
    });
    assert.match((await browser.get(`${base}/virtual-accounts`)).body, /at most two decimals/);
    await browser.post(`${base}/virtual-accounts/pay`, {
      accountNumber: '0000000000',
      amount: '10',
    });
    const page = await browser.get(`${base}/virtual-accounts`);
    assert.match(page.body, /notice-error[^>]*>[^<]*\(HTTP 400\)/);
    assert.equal((await listed())[0].amountPaid, 5000);
  });
});

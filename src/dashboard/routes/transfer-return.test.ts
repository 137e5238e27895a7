/**
 * Sandbox: "Return this transfer" on a transfer's page. The button shows on a Completed NIP
 * transfer only; pressing it returns the transfer through the admin API (the customer made
 * whole, the transfer Reversed); another client's transfer is not returned.
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

describe('dashboard: return a transfer (sandbox)', () => {
  let testApp: TestApp;
  let browser: DashboardBrowser;
  let signedIn: Awaited<ReturnType<typeof signedInClient>>;
  let base: string;

  const balance = () =>
    accountBalance(testApp.app, signedIn.headers, signedIn.client.mainAccountNumber);

  async function send(amount: number, extra: Record<string, unknown> = {}) {
    const response = await sendTransfer(testApp.app, signedIn.headers, {
      debitAccountNumber: signedIn.client.mainAccountNumber,
      amount,
      ...extra,
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().data as { _id: string; sessionId: string; status: string };
  }

  before(async () => {
    testApp = await buildTestApp();
    signedIn = await signedInClient(testApp, 'Returning Shop');
    await sandboxCredit(testApp.app, signedIn.client.mainAccountNumber, 10_000);
    base = `/dashboard/clients/${signedIn.client.ibsClientId}/transfers`;
    browser = new DashboardBrowser(testApp.app);
    await browser.signIn('ada');
  });
  after(async () => testApp?.close());

  it('offers the button on a Completed NIP transfer only', async () => {
    const other = await signedInClient(testApp, 'Payee Shop', 1);
    const completed = await send(200);
    const failed = await send(200.05);
    const intraBank = await send(20, {
      beneficiaryBankCode: '999240',
      beneficiaryAccountNumber: other.client.mainAccountNumber,
    });
    const offered = async (id: string) =>
      (await browser.get(`${base}/${id}`)).body.includes('Return this transfer');
    assert.deepEqual(
      [await offered(completed._id), await offered(failed._id), await offered(intraBank._id)],
      [true, false, false],
    );
  });

  it('returns it: a notice, the transfer Reversed, the customer made whole', async () => {
    const before = (await balance()) ?? 0;
    const sent = await send(1_234.5);
    assert.equal(await balance(), Number((before - 1_245.25).toFixed(2)));
    await browser.get(`${base}/${sent._id}`);
    const returned = await browser.post(`${base}/${sent._id}/return`, { reason: 'Account closed' });
    assert.equal(returned.statusCode, 303);
    assert.equal(returned.headers.location, `${base}/${sent._id}`);
    const page = await browser.get(`${base}/${sent._id}`);
    assert.match(page.body, new RegExp(`Transfer ${sent.sessionId} returned`));
    assert.match(page.body, /Reversed/);
    assert.match(page.body, /Return of \d{30}: Account closed/, 'the ledger entry');
    assert.ok(!page.body.includes('Return this transfer'), 'no button once Reversed');
    assert.equal(await balance(), before);

    const again = await browser.post(`${base}/${sent._id}/return`, {});
    assert.equal(again.statusCode, 303);
    assert.match(
      (await browser.get(`${base}/${sent._id}`)).body,
      /notice-error[^>]*>Only a Completed transfer can be returned: this one is Reversed/,
    );
    assert.equal(await balance(), before);
  });

  it('does not return another client’s transfer', async () => {
    const sent = await send(50);
    const before = await balance();
    const other = await signedInClient(testApp, 'Not Yours', 2);
    await browser.get(`${base}/${sent._id}`);
    const refused = await browser.post(
      `/dashboard/clients/${other.client.ibsClientId}/transfers/${sent._id}/return`,
      {},
    );
    assert.equal(refused.statusCode, 303);
    assert.equal(
      refused.headers.location,
      `/dashboard/clients/${other.client.ibsClientId}/transfers`,
    );
    assert.equal(await balance(), before);
    const [row] = await testApp.db.query<{ status: string }>(
      'SELECT status FROM transfers WHERE id = $1',
      [sent._id],
    );
    assert.equal(row?.status, 'Completed');
  });
});

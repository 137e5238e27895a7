/**
 * A client's USSD references as the admin API answers them, filtered by status; in the sandbox a
 * customer dials one from the page's form.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminAnswer, column, DashboardBrowser } from '../../../test/dashboard-browser.ts';
import { createUssdReference, signedInClient } from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';
import { naira } from '../components.ts';

describe('dashboard: USSD references', () => {
  let testApp: TestApp;
  let browser: DashboardBrowser;
  let signedIn: Awaited<ReturnType<typeof signedInClient>>;
  let base: string;
  let reference: Awaited<ReturnType<typeof createUssdReference>>;

  before(async () => {
    testApp = await buildTestApp();
    signedIn = await signedInClient(testApp, 'Flutter Shop');
    base = `/dashboard/clients/${signedIn.client.ibsClientId}`;
    reference = await createUssdReference(
      testApp.app,
      signedIn.headers,
      signedIn.client.mainAccountNumber,
    );
    browser = new DashboardBrowser(testApp.app);
    await browser.signIn('ada');
  });
  after(async () => testApp?.close());

  it('lists the references as the admin API answers them, with the dial form', async () => {
    const page = await browser.get(`${base}/ussd`);
    assert.equal(page.statusCode, 200, page.body);
    const references = (
      await adminAnswer(
        testApp.app,
        `/admin/clients/${signedIn.client.ibsClientId}/ussd-references`,
      )
    ).data;
    type Listed = { reference: string; ussdString: string; amount: number; status: string };
    assert.deepEqual(
      column(page.body, 'Reference'),
      references.map((each: Listed) => each.reference),
    );
    assert.deepEqual(
      column(page.body, 'Ussd string'),
      references.map((each: Listed) => each.ussdString),
    );
    assert.deepEqual(
      column(page.body, 'Amount'),
      references.map((each: Listed) => naira(each.amount)),
    );
    assert.deepEqual(column(page.body, 'Status'), ['Pending']);
    assert.match(page.body, /Sandbox: a customer dials a reference/);
  });

  it('dials a reference from the form: it is paid, and the Paid filter finds it', async () => {
    await browser.get(`${base}/ussd`);
    const dialled = await browser.post(`${base}/ussd/dial`, { reference: reference.reference });
    assert.equal(dialled.statusCode, 303);
    const page = await browser.get(`${base}/ussd?status=Paid`);
    assert.match(page.body, /notice-success[^>]*>The customer paid the reference\./);
    assert.deepEqual(column(page.body, 'Reference'), [reference.reference]);
    assert.deepEqual(column(page.body, 'Status'), ['Paid']);
    assert.deepEqual(
      column((await browser.get(`${base}/ussd?status=Pending`)).body, 'Reference'),
      [],
    );
  });

  it('a reference the gateway does not know comes back as a notice', async () => {
    await browser.get(`${base}/ussd`);
    await browser.post(`${base}/ussd/dial`, { reference: '0000000000' });
    assert.match((await browser.get(`${base}/ussd`)).body, /notice-error[^>]*>[^<]*\(HTTP 400\)/);
  });
});

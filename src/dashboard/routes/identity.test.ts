/** A client's identity checks as the admin API answers them: masked, never the whole number. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminAnswer, column, DashboardBrowser } from '../../../test/dashboard-browser.ts';
import {
  SANDBOX_BVN,
  sandboxCredit,
  signedInClient,
  verifyIdentity,
} from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';

describe('dashboard: identity verifications', () => {
  let testApp: TestApp;
  let browser: DashboardBrowser;
  let signedIn: Awaited<ReturnType<typeof signedInClient>>;
  let base: string;

  before(async () => {
    testApp = await buildTestApp();
    signedIn = await signedInClient(testApp, 'Flutter Shop');
    base = `/dashboard/clients/${signedIn.client.ibsClientId}`;
    await sandboxCredit(testApp.app, signedIn.client.mainAccountNumber, 10_000);
    browser = new DashboardBrowser(testApp.app);
    await browser.signIn('ada');
  });
  after(async () => testApp?.close());

  it('says so while the client has checked no identity', async () => {
    assert.match((await browser.get(`${base}/identity`)).body, /No identity check yet\./);
  });

  it('lists the checks as the admin API answers them, the number masked', async () => {
    await verifyIdentity(testApp.app, signedIn.headers, {
      type: 'BVN',
      number: SANDBOX_BVN,
      debitAccountNumber: signedIn.client.mainAccountNumber,
    });
    const page = await browser.get(`${base}/identity`);
    assert.equal(page.statusCode, 200, page.body);
    const checks = (
      await adminAnswer(
        testApp.app,
        `/admin/clients/${signedIn.client.ibsClientId}/identity-verifications`,
      )
    ).data;
    type Listed = { type: string; number: string; status: string };
    assert.deepEqual(
      column(page.body, 'Type'),
      checks.map((each: Listed) => each.type),
    );
    assert.deepEqual(
      column(page.body, 'Number'),
      checks.map((each: Listed) => each.number),
    );
    assert.deepEqual(
      column(page.body, 'Status'),
      checks.map((each: Listed) => each.status),
    );
    assert.ok(column(page.body, 'Number')[0]?.endsWith(SANDBOX_BVN.slice(-4)));
    assert.equal(page.body.includes(SANDBOX_BVN), false);
  });
});

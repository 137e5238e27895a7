/** The ledger page: the invariant audit, the totals and the GL accounts, as the admin API answers. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminAnswer, column, DashboardBrowser } from '../../../test/dashboard-browser.ts';
import { createClient, sandboxCredit } from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';
import { naira } from '../components.ts';

describe('dashboard: ledger', () => {
  let testApp: TestApp;
  let browser: DashboardBrowser;

  before(async () => {
    testApp = await buildTestApp();
    const client = await createClient(testApp.app, 'Ledger Foods');
    await sandboxCredit(testApp.app, client.mainAccountNumber, 1234.5);
    browser = new DashboardBrowser(testApp.app);
    await browser.signIn('olu');
  });
  after(async () => testApp?.close());

  it('shows the audit’s verdict and each of its counts', async () => {
    const page = await browser.get('/dashboard/ledger');
    assert.equal(page.statusCode, 200, page.body);
    const ledger = (await adminAnswer(testApp.app, '/admin/ledger')).data;
    assert.equal(ledger.ok, true);
    assert.match(page.body, /Invariant audit <span class="badge badge-good">ok/);
    assert.ok(Object.keys(ledger.violations).length > 0);
    for (const count of Object.values(ledger.violations)) {
      assert.equal(count, 0);
    }
    assert.ok(page.body.includes('data-label="Unbalanced journals">0</td>'), page.body);
  });

  it('shows the totals: the customers’ money, the bank’s side, and their sum of zero', async () => {
    const { totals } = (await adminAnswer(testApp.app, '/admin/ledger')).data;
    assert.equal(totals.customerBalances, 1234.5);
    const page = await browser.get('/dashboard/ledger');
    assert.ok(page.body.includes(`<dt>Customer balances</dt><dd>${naira(1234.5)}</dd>`), page.body);
    assert.ok(page.body.includes(`<dt>All balances</dt><dd>${naira(0)}</dd>`));
    assert.ok(page.body.includes(`<dt>Ledger accounts</dt><dd>${totals.ledgerAccounts}</dd>`));
    assert.ok(page.body.includes(`<dt>GL balances</dt><dd>${naira(totals.glBalances)}</dd>`));
  });

  it('lists every GL account with its balance', async () => {
    const { glAccounts } = (await adminAnswer(testApp.app, '/admin/ledger')).data;
    const page = await browser.get('/dashboard/ledger');
    assert.deepEqual(
      column(page.body, 'Id'),
      glAccounts.map((account: { _id: string }) => account._id),
    );
    assert.deepEqual(
      column(page.body, 'Balance'),
      glAccounts.map((account: { balance: number }) => naira(account.balance)),
    );
  });
});

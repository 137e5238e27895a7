/** The overview: the newest clients, the ledger audit's verdict and the latest operator actions. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminAnswer, column, DashboardBrowser } from '../../../test/dashboard-browser.ts';
import { createClient, sandboxCredit } from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';

describe('dashboard: overview', () => {
  let testApp: TestApp;
  let browser: DashboardBrowser;

  before(async () => {
    testApp = await buildTestApp();
    const client = await createClient(testApp.app, 'Ledger Foods');
    testApp.clock.advanceSeconds(1);
    await createClient(testApp.app, 'Rival Foods', 1);
    await sandboxCredit(testApp.app, client.mainAccountNumber, 250);
    browser = new DashboardBrowser(testApp.app);
    await browser.signIn('olu');
  });
  after(async () => testApp?.close());

  it('shows the newest clients and the latest actions as the admin API answers them', async () => {
    const page = await browser.get('/dashboard');
    assert.equal(page.statusCode, 200, page.body);
    const clients = (await adminAnswer(testApp.app, '/admin/clients?page=0&limit=10')).data;
    assert.deepEqual(
      column(page.body, 'Name'),
      clients.map((client: { name: string }) => client.name),
    );
    assert.deepEqual(column(page.body, 'Name'), ['Rival Foods', 'Ledger Foods']);
    for (const client of clients) {
      assert.ok(page.body.includes(`href="/dashboard/clients/${client._id}"`));
    }
    const events = (await adminAnswer(testApp.app, '/admin/audit-events?page=0&limit=10')).data;
    assert.deepEqual(
      column(page.body, 'What'),
      events.map((event: { action: string }) => event.action),
    );
    assert.ok(column(page.body, 'What').includes('admin.post /admin/sandbox/credits'));
  });

  it('shows the ledger audit’s verdict in the sandbox', async () => {
    const ledger = (await adminAnswer(testApp.app, '/admin/ledger')).data;
    assert.equal(ledger.ok, true);
    const page = await browser.get('/dashboard');
    assert.match(page.body, /badge-good">ok<\/span> Every invariant holds/);
  });
});

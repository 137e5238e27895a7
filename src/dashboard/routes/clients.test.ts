/** The clients page: every client as the admin API lists it, a page at a time, and onboarding. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminAnswer, column, DashboardBrowser } from '../../../test/dashboard-browser.ts';
import { adminHeaders } from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';

describe('dashboard: clients', () => {
  let testApp: TestApp;
  let browser: DashboardBrowser;

  before(async () => {
    testApp = await buildTestApp();
    for (let made = 1; made <= 21; made += 1) {
      testApp.clock.advanceSeconds(1);
      await testApp.app.inject({
        method: 'POST',
        url: '/admin/clients',
        headers: adminHeaders,
        payload: { name: `Merchant ${made}`, emailAddress: `ops${made}@merchant.example` },
      });
    }
    browser = new DashboardBrowser(testApp.app);
    await browser.signIn('olu');
  });
  after(async () => testApp?.close());

  it('lists the clients as the admin API answers them, 20 a page', async () => {
    const page = await browser.get('/dashboard/clients');
    assert.equal(page.statusCode, 200, page.body);
    const clients = (await adminAnswer(testApp.app, '/admin/clients?page=0&limit=20')).data;
    type Listed = {
      _id: string;
      name: string;
      emailAddress: string;
      mainAccount: { accountNumber: string };
    };
    assert.deepEqual(
      column(page.body, 'Name'),
      clients.map((client: Listed) => client.name),
    );
    assert.deepEqual(
      column(page.body, 'Client id (ClientID header)'),
      clients.map((client: Listed) => client._id),
    );
    assert.deepEqual(
      column(page.body, 'Main account'),
      clients.map((client: Listed) => client.mainAccount.accountNumber),
    );
    assert.deepEqual(
      column(page.body, 'Email'),
      clients.map((client: Listed) => client.emailAddress),
    );
    assert.match(page.body, /Page 1 of 2 \(21 in all\)/);
    const next = await browser.get('/dashboard/clients?page=1');
    assert.equal(column(next.body, 'Name').length, 1);
  });

  it('onboards a client, lands on its page with a notice, and lists it', async () => {
    await browser.get('/dashboard/clients');
    testApp.clock.advanceSeconds(1);
    const made = await browser.post('/dashboard/clients', {
      name: 'Kobo Wallet',
      emailAddress: 'ops@kobo.example',
    });
    assert.equal(made.statusCode, 303);
    const page = await browser.get(String(made.headers.location));
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /Client Kobo Wallet onboarded\./);
    assert.match(page.body, /ops@kobo\.example/);
    const newest = (await adminAnswer(testApp.app, '/admin/clients?page=0&limit=1')).data[0];
    assert.equal(newest.name, 'Kobo Wallet');
    assert.equal(made.headers.location, `/dashboard/clients/${newest._id}`);
  });

  it('a refused onboarding comes back to the list with the admin API’s reason', async () => {
    await browser.get('/dashboard/clients');
    const refused = await browser.post('/dashboard/clients', { name: ' ' });
    assert.equal(refused.statusCode, 303);
    assert.equal(refused.headers.location, '/dashboard/clients');
    const page = await browser.get('/dashboard/clients');
    assert.match(page.body, /notice-error[^>]*>[^<]*\(HTTP 400\)/);
  });
});

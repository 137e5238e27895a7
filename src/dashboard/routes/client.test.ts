/**
 * A client's page: its details, access, OAuth apps and keys, webhook URL and checkout origins,
 * each as the admin API answers it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminAnswer, column, DashboardBrowser } from '../../../test/dashboard-browser.ts';
import { adminHeaders, createClient, sandboxCredit } from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';
import { naira, when } from '../components.ts';

describe('dashboard: client page', () => {
  let testApp: TestApp;
  let browser: DashboardBrowser;
  let client: Awaited<ReturnType<typeof createClient>>;
  let base: string;

  before(async () => {
    testApp = await buildTestApp();
    client = await createClient(testApp.app, 'Paystack Demo');
    base = `/dashboard/clients/${client.ibsClientId}`;
    await sandboxCredit(testApp.app, client.mainAccountNumber, 4200);
    await testApp.app.inject({
      method: 'PUT',
      url: `/admin/clients/${client.ibsClientId}/webhook`,
      headers: adminHeaders,
      payload: { url: 'https://hooks.paystack.example/openibs' },
    });
    await testApp.app.inject({
      method: 'PUT',
      url: `/admin/clients/${client.ibsClientId}/checkout-settings`,
      headers: adminHeaders,
      payload: { allowedOrigins: ['https://shop.example'] },
    });
    browser = new DashboardBrowser(testApp.app);
    await browser.signIn('olu');
  });
  after(async () => testApp?.close());

  it('shows the client’s details and main account as the admin API answers them', async () => {
    const page = await browser.get(base);
    assert.equal(page.statusCode, 200, page.body);
    const shown = (await adminAnswer(testApp.app, `/admin/clients/${client.ibsClientId}`)).data;
    assert.match(page.body, new RegExp(`<title>${shown.name} · OpenIBS dashboard</title>`));
    const main = `${shown.mainAccount.accountNumber} · ${naira(shown.mainAccount.accountBalance)}`;
    assert.ok(page.body.includes(`<dt>Main account</dt><dd>${main}</dd>`));
    assert.ok(main.endsWith('₦4,200.00'));
    assert.ok(page.body.includes(`<dt>Onboarded</dt><dd>${when(shown.createdAt)}</dd>`));
  });

  it('shows its access, its apps with their keys, its webhook URL and checkout origins', async () => {
    const page = await browser.get(base);
    const id = client.ibsClientId;
    const access = (await adminAnswer(testApp.app, `/admin/clients/${id}/access`)).data;
    assert.equal(access.status, 'Active');
    assert.match(page.body, /<dt>Access<\/dt><dd><span class="badge badge-good">Active<\/span>/);
    assert.match(page.body, /<dt>Tokens last revoked<\/dt><dd>never<\/dd>/);
    const [app] = (await adminAnswer(testApp.app, `/admin/clients/${id}/apps`)).data;
    assert.ok(page.body.includes(`OAuth client id <code>${app.clientId}</code>`));
    assert.deepEqual(column(page.body, 'Status'), [`${app.status}`]);
    assert.ok(page.body.includes(`${base}/apps/${app._id}/keys/${app.keys[0]._id}/revoke`));
    const webhook = (await adminAnswer(testApp.app, `/admin/clients/${id}/webhook`)).data;
    assert.ok(page.body.includes(`Now: ${webhook.url}.`));
    assert.match(page.body, /Checkout sessions open only from https:\/\/shop\.example\./);
  });

  it('an unknown client is an error page in the admin API’s words', async () => {
    const page = await browser.get('/dashboard/clients/ffffffffffffffffffffffff');
    assert.equal(page.statusCode, 400);
    assert.match(page.body, /notice-error[^>]*>[^<]*\(HTTP 400\)/);
  });
});

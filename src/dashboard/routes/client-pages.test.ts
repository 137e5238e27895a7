/**
 * The client pages through the dashboard as a browser uses them (forms, redirects, notices):
 * onboarding, apps and keys, access, webhook settings, accounts, freezing, sandbox credits,
 * statements and their CSV. Each action is checked through the API and in the audit trail.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DashboardBrowser } from '../../../test/dashboard-browser.ts';
import {
  accountBalance,
  issueTokens,
  publicKeyPem,
  rsaKeyPair,
  sendTransfer,
  signedInClient,
} from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';

describe('dashboard: client pages', () => {
  let testApp: TestApp;
  let browser: DashboardBrowser;
  let signedIn: Awaited<ReturnType<typeof signedInClient>>;
  let base: string;

  const auditActions = async () =>
    (await testApp.services.auditLog.list({ actor: 'operator:olu', offset: 0, limit: 200 })).events;

  before(async () => {
    testApp = await buildTestApp();
    signedIn = await signedInClient(testApp, 'Paystack Demo');
    base = `/dashboard/clients/${signedIn.client.ibsClientId}`;
    browser = new DashboardBrowser(testApp.app);
    await browser.signIn('olu');
  });
  after(async () => testApp?.close());

  it('onboards a client, lands on its page with a notice, and lists it', async () => {
    await browser.get('/dashboard/clients');
    const made = await browser.post('/dashboard/clients', {
      name: 'Kobo Wallet',
      emailAddress: 'ops@kobo.example',
    });
    assert.equal(made.statusCode, 303);
    const page = await browser.get(String(made.headers.location));
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /Client Kobo Wallet onboarded\./);
    assert.match(page.body, /ops@kobo\.example/);
    assert.match((await browser.get('/dashboard/clients')).body, /Kobo Wallet/);
    const refused = await browser.post('/dashboard/clients', { name: '' });
    assert.equal(refused.statusCode, 303);
    assert.match((await browser.get('/dashboard/clients')).body, /notice-error/);
  });

  it('registers an app from a pasted PEM, adds and revokes a key, revokes the app', async () => {
    await browser.get(base);
    const registered = await browser.post(`${base}/apps`, {
      name: 'Payouts',
      publicKey: publicKeyPem(rsaKeyPair(1).publicKey),
    });
    assert.equal(registered.statusCode, 303);
    let page = await browser.get(base);
    assert.match(page.body, /App registered: its OAuth client id is [0-9a-f]+\./);
    const apps = (
      await testApp.services.clientService.listApps(signedIn.client.ibsClientId)
    ).filter((app) => app.name === 'Payouts');
    const app = apps[0];
    assert.ok(app);
    await browser.post(`${base}/apps/${app.id}/keys`, {
      publicKey: publicKeyPem(rsaKeyPair(2).publicKey),
    });
    page = await browser.get(base);
    assert.match(page.body, /Key added\./);
    const withKeys = (
      await testApp.services.clientService.listApps(signedIn.client.ibsClientId)
    ).find((each) => each.id === app.id);
    assert.equal(withKeys?.keys.length, 2);
    const firstKey = withKeys?.keys[0]?.id ?? '';
    await browser.post(`${base}/apps/${app.id}/keys/${firstKey}/revoke`);
    assert.match((await browser.get(base)).body, /Key revoked/);
    await browser.post(`${base}/apps/${app.id}/revoke`);
    page = await browser.get(base);
    assert.match(page.body, /App revoked/);
    const revoked = (
      await testApp.services.clientService.listApps(signedIn.client.ibsClientId)
    ).find((each) => each.id === app.id);
    assert.notEqual(revoked?.revokedAt, null);
    const refused = await browser.post(`${base}/apps`, { name: 'Bad', publicKey: 'not a key' });
    assert.equal(refused.statusCode, 303);
    assert.match((await browser.get(base)).body, /notice-error/);
    const actions = (await auditActions()).map((event) => event.action);
    for (const route of [
      'admin.post /admin/clients/:id/apps',
      'admin.post /admin/clients/:id/apps/:appId/keys',
      'admin.post /admin/clients/:id/apps/:appId/keys/:keyId/revoke',
      'admin.post /admin/clients/:id/apps/:appId/revoke',
    ]) {
      assert.ok(actions.includes(route), route);
    }
  });

  it('registers checkout origins from the client page; a bad origin comes back as a notice', async () => {
    const saved = await browser.post(`${base}/checkout-settings`, {
      allowedOrigins: 'https://shop.example\r\n\r\n  http://localhost:3000 ',
      webhookUrls: 'https://api.shop.example/hook',
    });
    assert.equal(saved.statusCode, 303);
    const page = await browser.get(String(saved.headers.location));
    assert.match(page.body, /Checkout origins saved\./);
    assert.match(
      page.body,
      /Checkout sessions open only from https:\/\/shop\.example, http:\/\/localhost:3000\./,
    );
    const read = await testApp.app.inject({
      url: '/checkout/settings',
      headers: signedIn.headers,
    });
    assert.deepEqual(read.json().data.allowedOrigins, [
      'https://shop.example',
      'http://localhost:3000',
    ]);
    assert.deepEqual(read.json().data.webhookUrls, ['https://api.shop.example/hook']);
    const refused = await browser.post(`${base}/checkout-settings`, {
      allowedOrigins: 'https://shop.example/checkout',
    });
    assert.match((await browser.get(String(refused.headers.location))).body, /notice-error/);
    assert.ok(
      (await auditActions()).some(
        (event) => event.action === 'admin.put /admin/clients/:id/checkout-settings',
      ),
    );
  });

  it('disables and enables the client; an unknown access action finds no page', async () => {
    await browser.get(base);
    await browser.post(`${base}/access/disable`);
    assert.match((await browser.get(base)).body, /badge-bad">Disabled/);
    await browser.post(`${base}/access/enable`);
    assert.match((await browser.get(base)).body, /badge-good">Active/);
    const unknown = await browser.post(`${base}/access/delete-everything`);
    assert.equal(unknown.statusCode, 404);
    // Disabling stopped the client's tokens (those issued up to that second); its app signs in again.
    testApp.clock.advanceSeconds(2);
    const tokens = await issueTokens(testApp, signedIn.client);
    signedIn.headers.authorization = `Bearer ${tokens.access_token}`;
  });

  it('lists the accounts with balances; a sandbox credit lands on the statement and its CSV', async () => {
    const accounts = await browser.get(`${base}/accounts`);
    assert.equal(accounts.statusCode, 200);
    assert.match(accounts.body, new RegExp(signedIn.client.mainAccountNumber));
    const credited = await browser.post(`${base}/accounts/credit`, {
      accountNumber: signedIn.client.mainAccountNumber,
      amount: '2,500.75',
      narration: '=1+2 Invoice 7',
    });
    assert.equal(credited.statusCode, 303);
    assert.match((await browser.get(`${base}/accounts`)).body, /₦2,500\.75 credited/);
    assert.equal(
      await accountBalance(testApp.app, signedIn.headers, signedIn.client.mainAccountNumber),
      2500.75,
    );
    const statement = await browser.get(
      `${base}/accounts/${signedIn.client.mainAccountId}/statement`,
    );
    assert.equal(statement.statusCode, 200);
    assert.match(statement.body, /=1\+2 Invoice 7/);
    assert.match(statement.body, /₦2,500\.75/);
    const csv = await browser.get(
      `${base}/accounts/${signedIn.client.mainAccountId}/statement.csv?type=Credit`,
    );
    assert.equal(csv.statusCode, 200);
    assert.match(String(csv.headers['content-type']), /text\/csv/);
    assert.match(String(csv.headers['content-disposition']), /attachment/);
    const lines = csv.body.trim().split('\r\n');
    assert.equal(
      lines[0],
      'entryNumber,createdAt,type,amount,balanceAfter,narration,reference,transferId',
    );
    assert.ok(
      lines.some((line) => line.includes(",2500.75,2500.75,'=1+2 Invoice 7,")),
      csv.body,
    );
    const badAmount = await browser.post(`${base}/accounts/credit`, {
      accountNumber: signedIn.client.mainAccountNumber,
      amount: '12abc',
    });
    assert.equal(badAmount.statusCode, 303);
    assert.match((await browser.get(`${base}/accounts`)).body, /at most two decimals/);
  });

  it('another client’s account cannot be frozen from this client’s page', async () => {
    const other = await signedInClient(testApp, 'Someone Else', 3);
    await browser.get(`${base}/accounts`);
    await browser.post(`${base}/accounts/${other.client.mainAccountNumber}/freeze`);
    assert.match((await browser.get(`${base}/accounts`)).body, /not one of this client/);
    const statement = await browser.get(`${base}/accounts/${other.client.mainAccountId}/statement`);
    assert.equal(statement.statusCode, 400);
  });

  it('freezes an account: a debit through the API is refused (402) until it is unfrozen', async () => {
    await browser.get(`${base}/accounts`);
    await browser.post(`${base}/accounts/${signedIn.client.mainAccountNumber}/freeze`);
    assert.match((await browser.get(`${base}/accounts`)).body, /badge-bad">Frozen/);
    const refused = await sendTransfer(testApp.app, signedIn.headers, {
      debitAccountNumber: signedIn.client.mainAccountNumber,
      amount: 100,
      narration: 'while frozen',
      paymentReference: 'FROZEN-1',
    });
    assert.equal(refused.statusCode, 402, refused.body);
    await browser.post(`${base}/accounts/${signedIn.client.mainAccountNumber}/unfreeze`);
    assert.match((await browser.get(`${base}/accounts`)).body, /badge-good">Active/);
    const actions = (await auditActions()).map((event) => `${event.action} ${event.outcome}`);
    assert.ok(
      actions.includes('admin.post /admin/accounts/:accountNumber/freeze 200'),
      String(actions),
    );
    assert.ok(actions.includes('admin.post /admin/sandbox/credits 201'));
  });
});

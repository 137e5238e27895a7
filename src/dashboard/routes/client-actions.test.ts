/**
 * What an operator does to a client from its page: apps and keys, access, checkout origins and
 * the webhook URL. Each is checked through the API and in the audit trail.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminAnswer, DashboardBrowser } from '../../../test/dashboard-browser.ts';
import { issueTokens, publicKeyPem, rsaKeyPair, signedInClient } from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';

describe('dashboard: client actions', () => {
  let testApp: TestApp;
  let browser: DashboardBrowser;
  let signedIn: Awaited<ReturnType<typeof signedInClient>>;
  let base: string;

  const auditActions = async () =>
    (await testApp.services.auditLog.list({ actor: 'break-glass:olu', offset: 0, limit: 200 }))
      .events;
  const access = async () =>
    (await adminAnswer(testApp.app, `/admin/clients/${signedIn.client.ibsClientId}/access`)).data;

  before(async () => {
    testApp = await buildTestApp();
    signedIn = await signedInClient(testApp, 'Paystack Demo');
    base = `/dashboard/clients/${signedIn.client.ibsClientId}`;
    browser = new DashboardBrowser(testApp.app);
    await browser.signIn('olu');
  });
  after(async () => testApp?.close());

  it('registers an app from a pasted PEM, adds and revokes a key, revokes the app', async () => {
    await browser.get(base);
    const registered = await browser.post(`${base}/apps`, {
      name: 'Payouts',
      publicKey: publicKeyPem(rsaKeyPair(1).publicKey),
    });
    assert.equal(registered.statusCode, 303);
    let page = await browser.get(base);
    const apps = (
      await testApp.services.clientService.listApps(signedIn.client.ibsClientId)
    ).filter((app) => app.name === 'Payouts');
    const app = apps[0];
    assert.ok(app);
    assert.ok(page.body.includes(`App registered: its OAuth client id is ${app.oauthClientId}.`));
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

  it('a key that does not parse is refused with the admin API’s reason; no app is made', async () => {
    const before = (await testApp.services.clientService.listApps(signedIn.client.ibsClientId))
      .length;
    await browser.get(base);
    const refused = await browser.post(`${base}/apps`, { name: 'Bad', publicKey: 'not a key' });
    assert.equal(refused.statusCode, 303);
    assert.match((await browser.get(base)).body, /notice-error/);
    const after = (await testApp.services.clientService.listApps(signedIn.client.ibsClientId))
      .length;
    assert.equal(after, before);
  });

  it('registers checkout origins; a bad origin comes back as a notice', async () => {
    await browser.get(base);
    const saved = await browser.post(`${base}/checkout-settings`, {
      allowedOrigins: 'https://shop.example\r\n\r\n  http://localhost:3000 ',
      webhookUrls: 'https://api.shop.example/hook',
    });
    assert.equal(saved.statusCode, 303);
    const page = await browser.get(String(saved.headers.location));
    assert.match(page.body, /Checkout origins saved\./);
    const read = await testApp.app.inject({ url: '/checkout/settings', headers: signedIn.headers });
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

  it('sets the webhook URL and shows the new secret on the answer page alone', async () => {
    await browser.get(base);
    const saved = await browser.post(`${base}/webhook`, {
      url: 'https://hooks.paystack.example/openibs',
      rotateSecret: 'true',
    });
    assert.equal(saved.statusCode, 200, saved.body);
    assert.match(saved.body, /Webhook URL: https:\/\/hooks\.paystack\.example\/openibs\./);
    const secret = /id="webhook-secret">([^<]+)</.exec(saved.body)?.[1] ?? '';
    assert.match(secret, /^whsec_/);
    const settings = await testApp.services.webhookService.getSettings(signedIn.client.ibsClientId);
    assert.equal(settings.url, 'https://hooks.paystack.example/openibs');
    assert.equal(settings.secret, secret);
    assert.equal((await browser.get(base)).body.includes(secret), false);
    const cleared = await browser.post(`${base}/webhook`, { url: '' });
    assert.match(cleared.body, /Webhook URL: none\./);
  });

  it('disables, enables and revokes every token; an unknown access action finds no page', async () => {
    await browser.get(base);
    await browser.post(`${base}/access/disable`);
    assert.equal((await access()).status, 'Disabled');
    assert.match((await browser.get(base)).body, /badge-bad">Disabled/);
    await browser.post(`${base}/access/enable`);
    assert.equal((await access()).status, 'Active');
    assert.match((await browser.get(base)).body, /Client enabled\./);
    await browser.post(`${base}/access/revoke-tokens`);
    assert.notEqual((await access()).tokensRevokedAt, null);
    assert.match(
      (await browser.get(base)).body,
      /Every token of the client&#39;s apps is revoked\./,
    );
    const refused = await testApp.app.inject({ url: '/accounts', headers: signedIn.headers });
    assert.equal(refused.statusCode, 401);
    const unknown = await browser.post(`${base}/access/delete-everything`);
    assert.equal(unknown.statusCode, 404);
    // The app signs in again for new tokens, issued after the revocation's second.
    testApp.clock.advanceSeconds(2);
    const tokens = await issueTokens(testApp, signedIn.client);
    const again = await testApp.app.inject({
      url: '/accounts',
      headers: { ...signedIn.headers, authorization: `Bearer ${tokens.access_token}` },
    });
    assert.equal(again.statusCode, 200);
  });
});

/**
 * Operators sign in as themselves in a real browser: headless Chromium goes from the dashboard's
 * sign-in page to the organisation's identity provider (a real OpenID Connect provider on
 * 127.0.0.1), picks the user there, and comes back signed in as that operator, with the roles
 * the provider grants deciding what the dashboard lets them do; an unfreeze another operator
 * asked for waits until the signed-in one approves it from the dashboard's queue.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { type Browser, chromium } from 'playwright-core';
import { adminHeaders, signedInClient } from '../factories.ts';
import { buildTestApp, type TestApp } from '../harness.ts';
import { TestIdentityProvider } from '../oidc-provider.ts';
import { operatorWithRoles } from '../operators.ts';

const CHROMIUM = '/usr/bin/chromium';
const WAIT = { timeout: 15_000 };
const skip = existsSync(CHROMIUM)
  ? false
  : `Chromium is not installed at ${CHROMIUM} (apt-get install chromium); browser tests skipped`;

/** A free port on 127.0.0.1: the redirect URI is registered before the bank listens. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  assert.ok(address !== null && typeof address === 'object');
  return address.port;
}

describe('Operators sign in through the identity provider, in a real browser', { skip }, () => {
  let idp: TestIdentityProvider;
  let testApp: TestApp;
  let browser: Browser;
  let base: string;
  let bankClient = { ibsClientId: '', mainAccountNumber: '' };

  before(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const client = {
      clientId: 'openibs-dashboard',
      clientSecret: 'the-dashboard-secret-at-the-identity-provider',
      redirectUri: `${base}/dashboard/sso/callback`,
    };
    idp = await TestIdentityProvider.start({
      clients: [client],
      users: [
        {
          id: 'kemi',
          claims: { email: 'kemi@bank.test', name: 'Kemi', openibs_roles: ['viewer'] },
        },
        { id: 'tunde', claims: { email: 'tunde@bank.test', openibs_roles: ['support'] } },
      ],
    });
    testApp = await buildTestApp({
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: client.clientId,
      OIDC_CLIENT_SECRET: client.clientSecret,
      OIDC_REDIRECT_URL: client.redirectUri,
      OIDC_EXTRA_SCOPES: 'openibs',
      FOUR_EYES: 'POST /admin/accounts/:accountNumber/unfreeze',
    });
    bankClient = (await signedInClient(testApp, 'Kemi Stores', 0)).client;
    await testApp.app.listen({ port, host: '127.0.0.1' });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-background-networking'],
    });
  });
  after(async () => {
    await browser?.close();
    await testApp?.close();
    await idp?.close();
  });

  test('a viewer signs in at the provider, lands on the dashboard as themselves, and is refused an action', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base}/dashboard/login`);
    await page.getByRole('link', { name: 'Sign in with your organisation' }).click();
    await page.getByRole('button', { name: 'kemi' }).click(WAIT);
    await page.waitForURL(`${base}/dashboard`, WAIT);
    assert.match(await page.content(), /kemi@bank\.test/);
    const events = await testApp.services.auditLog.list({
      action: 'dashboard.sso-sign-in',
      offset: 0,
      limit: 5,
    });
    assert.equal(events.events[0]?.actor, 'operator:kemi@bank.test');
    // A viewer reads a client's accounts; the freeze button answers with the role it needs,
    // through the admin API's own check, and the account stays as it was.
    page.on('dialog', (dialog) => dialog.accept());
    await page.goto(`${base}/dashboard/clients/${bankClient.ibsClientId}/accounts`);
    await page
      .locator(`form[action$="/accounts/${bankClient.mainAccountNumber}/freeze"] button`)
      .click(WAIT);
    await page.waitForURL(`${base}/dashboard/clients/${bankClient.ibsClientId}/accounts`, WAIT);
    assert.match(await page.content(), /needs the support role/);
    const account = await testApp.services.accountService.findByNumber(
      bankClient.mainAccountNumber,
    );
    assert.notEqual(account.status, 'Frozen');
    await context.close();
  });

  test('an unfreeze one operator asked for waits in the queue until another approves it in the dashboard', async () => {
    const { accountNumber } = { accountNumber: bankClient.mainAccountNumber };
    const freeze = await testApp.app.inject({
      method: 'POST',
      url: `/admin/accounts/${accountNumber}/freeze`,
      headers: adminHeaders,
    });
    assert.equal(freeze.statusCode, 200, freeze.body);
    const asker = await operatorWithRoles(testApp, ['support']);
    const asked = await testApp.app.inject({
      method: 'POST',
      url: `/admin/accounts/${accountNumber}/unfreeze`,
      headers: asker.headers,
    });
    assert.equal(asked.statusCode, 202, asked.body);
    assert.equal(
      (await testApp.services.accountService.findByNumber(accountNumber)).status,
      'Frozen',
    );

    const context = await browser.newContext();
    const page = await context.newPage();
    page.on('dialog', (dialog) => dialog.accept());
    await page.goto(`${base}/dashboard/login`);
    await page.getByRole('link', { name: 'Sign in with your organisation' }).click();
    await page.getByRole('button', { name: 'tunde' }).click(WAIT);
    await page.waitForURL(`${base}/dashboard`, WAIT);
    await page.goto(`${base}/dashboard/approvals`);
    await page.getByRole('button', { name: 'Approve' }).first().click(WAIT);
    await page.waitForLoadState('load');
    assert.equal(
      (await testApp.services.accountService.findByNumber(accountNumber)).status,
      'Active',
    );
    const decided = await testApp.services.auditLog.list({
      action: 'approval.approved',
      offset: 0,
      limit: 5,
    });
    assert.equal(decided.events[0]?.actor, 'operator:tunde@bank.test');
    await context.close();
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DashboardBrowser } from '../../../test/dashboard-browser.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';
import { TestIdentityProvider } from '../../../test/oidc-provider.ts';
import { BREAK_GLASS } from '../../../test/operators.ts';

const CLIENT = {
  clientId: 'openibs-dashboard',
  clientSecret: 'the-dashboard-secret-at-the-identity-provider',
  redirectUri: 'https://bank.test/dashboard/sso/callback',
};

describe('dashboard: single sign-on through the organisation’s identity provider', () => {
  let idp: TestIdentityProvider;
  let testApp: TestApp;
  before(async () => {
    idp = await TestIdentityProvider.start({
      clients: [CLIENT],
      users: [
        {
          id: 'ada',
          claims: { email: 'ada@bank.test', name: 'Ada Obi', openibs_roles: ['ibs-finance'] },
        },
        { id: 'tayo', claims: { email: 'tayo@bank.test', openibs_roles: ['ibs-support'] } },
        { id: 'visitor', claims: { email: 'visitor@bank.test', openibs_roles: ['all-staff'] } },
      ],
    });
    testApp = await buildTestApp({
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: CLIENT.clientId,
      OIDC_CLIENT_SECRET: CLIENT.clientSecret,
      OIDC_REDIRECT_URL: CLIENT.redirectUri,
      OIDC_EXTRA_SCOPES: 'openibs',
      OIDC_ROLE_MAP: 'ibs-finance=finance,ibs-support=support',
    });
  });
  after(async () => {
    await testApp?.close();
    await idp?.close();
  });

  /** Start at the dashboard, sign in at the provider, come back to the callback. */
  const signInAs = async (browser: DashboardBrowser, user: string) => {
    const start = await browser.get('/dashboard/sso/start');
    assert.equal(start.statusCode, 303, start.body);
    const callback = await idp.signIn(String(start.headers.location), user);
    return browser.get(`/dashboard/sso/callback${callback.search}`);
  };

  it('the sign-in page offers it; a person the provider gives a role signs in, added with that role', async () => {
    const browser = new DashboardBrowser(testApp.app);
    assert.match((await browser.get('/dashboard/login')).body, /\/dashboard\/sso\/start/);
    const back = await signInAs(browser, 'ada');
    assert.equal(back.statusCode, 200, back.body);
    const home = await browser.get('/dashboard');
    assert.equal(home.statusCode, 200);
    assert.match(home.body, /ada@bank\.test/);
    const [operator] = (
      await testApp.services.operators.list({ limit: 50, offset: 0 })
    ).rows.filter((row) => row.email === 'ada@bank.test');
    assert.deepEqual(operator?.roles, ['finance']);
    assert.equal(operator?.ssoIssuer, idp.issuer);
    const events = await testApp.services.auditLog.list({
      action: 'dashboard.sso-sign-in',
      offset: 0,
      limit: 10,
    });
    assert.ok(events.events.some((event) => event.actor === 'operator:ada@bank.test'));
  });

  it('an operator an admin added first is linked by email and takes the provider’s roles', async () => {
    await testApp.services.operators.create(
      { email: 'tayo@bank.test', displayName: 'Tayo', roles: ['viewer'] },
      BREAK_GLASS,
    );
    const back = await signInAs(new DashboardBrowser(testApp.app), 'tayo');
    assert.equal(back.statusCode, 200, back.body);
    const { rows } = await testApp.services.operators.list({ limit: 50, offset: 0 });
    assert.deepEqual(rows.find((row) => row.email === 'tayo@bank.test')?.roles, ['support']);
  });

  it('refused: a person given no role, a disabled operator, a callback this browser did not start', async () => {
    const none = await signInAs(new DashboardBrowser(testApp.app), 'visitor');
    assert.equal(none.statusCode, 403);
    assert.match(none.body, /gives you no role/);
    const { rows } = await testApp.services.operators.list({ limit: 50, offset: 0 });
    const ada = rows.find((row) => row.email === 'ada@bank.test');
    assert.ok(ada);
    await testApp.services.operators.setStatus(ada.id, 'disabled');
    const disabled = await signInAs(new DashboardBrowser(testApp.app), 'ada');
    assert.equal(disabled.statusCode, 403);
    assert.match(disabled.body, /disabled/);
    const stranger = new DashboardBrowser(testApp.app);
    const start = await new DashboardBrowser(testApp.app).get('/dashboard/sso/start');
    const callback = await idp.signIn(String(start.headers.location), 'tayo');
    const forged = await stranger.get(`/dashboard/sso/callback${callback.search}`);
    assert.equal(forged.statusCode, 401);
    assert.equal((await stranger.get('/dashboard')).statusCode, 303);
  });
});

/**
 * Signing in and out: with the admin token and a name, with a one-time link, the wrong token
 * (counted against the address's allowance), and signing out. Each lands in the audit trail.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminAnswer, DashboardBrowser } from '../../../test/dashboard-browser.ts';
import { buildTestApp, TEST_SECRETS, type TestApp } from '../../../test/harness.ts';
import {
  LOCAL_SIGN_IN_ENV,
  newOperator,
  setUpSignIn,
} from '../../../test/operator-sign-in-helpers.ts';

describe('dashboard: sign-in and sign-out', () => {
  let testApp: TestApp;

  const lastEvent = async (action: string) =>
    (await adminAnswer(testApp.app, `/admin/audit-events?action=${action}&limit=1`)).data[0];

  before(async () => {
    // Two wrong tokens a minute per address, so that the third attempt meets the lockout.
    testApp = await buildTestApp({ RATE_LIMIT_ADMIN_FAILURES_PER_MINUTE_PER_IP: '2' });
  });
  after(async () => testApp?.close());

  it('shows the sign-in form with its CSRF token', async () => {
    const page = await new DashboardBrowser(testApp.app).get('/dashboard/login');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /name="_csrf" value="[^"]+"/);
    assert.match(page.body, /name="adminToken"/);
    assert.match(page.body, /name="operator"/);
  });

  it('the admin token and a name open a session, recorded under that name', async () => {
    const browser = new DashboardBrowser(testApp.app, '10.0.0.1');
    await browser.get('/dashboard/login');
    const signedIn = await browser.post('/dashboard/login', {
      adminToken: TEST_SECRETS.adminToken,
      operator: 'ada.obi',
    });
    assert.equal(signedIn.statusCode, 303);
    assert.equal(signedIn.headers.location, '/dashboard');
    const page = await browser.get('/dashboard');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<span class="who">ada\.obi<\/span>/);
    const event = await lastEvent('dashboard.sign-in');
    assert.equal(event.actor, 'break-glass:ada.obi');
    assert.equal(event.outcome, '200');
  });

  it('a name that is no label is refused before the token is looked at', async () => {
    const browser = new DashboardBrowser(testApp.app, '10.0.0.2');
    await browser.get('/dashboard/login');
    const refused = await browser.post('/dashboard/login', {
      adminToken: TEST_SECRETS.adminToken,
      operator: 'ada <script>',
    });
    assert.equal(refused.statusCode, 400);
    assert.match(refused.body, /Your name may hold letters/);
    assert.equal(browser.cookies.has('openibs_dashboard'), false);
  });

  it('a wrong token is refused and counted; an address past its allowance is locked out', async () => {
    const browser = new DashboardBrowser(testApp.app, '10.0.0.3');
    await browser.get('/dashboard/login');
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const refused = await browser.post('/dashboard/login', {
        adminToken: 'not-the-token',
        operator: 'eve',
      });
      assert.equal(refused.statusCode, 401);
      assert.match(refused.body, /That is not the admin token\./);
    }
    assert.equal((await lastEvent('dashboard.sign-in')).outcome, '401');
    const locked = await browser.post('/dashboard/login', {
      adminToken: TEST_SECRETS.adminToken,
      operator: 'eve',
    });
    assert.equal(locked.statusCode, 429);
    assert.equal(browser.cookies.has('openibs_dashboard'), false);
  });

  it('a one-time link signs in once, as break-glass:local', async () => {
    const { ticket } = testApp.services.dashboardLoginLinks.issue();
    const browser = new DashboardBrowser(testApp.app, '10.0.0.4');
    const used = await browser.get(`/dashboard/login/${ticket}`);
    assert.equal(used.statusCode, 303);
    assert.equal((await browser.get('/dashboard')).statusCode, 200);
    assert.equal((await lastEvent('dashboard.sign-in-link')).actor, 'break-glass:local');
    const again = await new DashboardBrowser(testApp.app, '10.0.0.4').get(
      `/dashboard/login/${ticket}`,
    );
    assert.equal(again.statusCode, 401);
    assert.match(again.body, /used already or has expired/);
  });

  it('signing out ends the session and is recorded', async () => {
    const browser = new DashboardBrowser(testApp.app, '10.0.0.5');
    await browser.signIn('bisi');
    const out = await browser.post('/dashboard/logout');
    assert.equal(out.statusCode, 303);
    assert.equal(out.headers.location, '/dashboard/login');
    assert.equal((await browser.get('/dashboard')).statusCode, 303);
    const event = await lastEvent('dashboard.sign-out');
    assert.equal(event.actor, 'break-glass:bisi');
  });
});

describe('dashboard: the sign-in page once break-glass is closed', () => {
  let testApp: TestApp;
  before(async () => {
    // Production's default: the admin token works until an active operator holds the admin role.
    testApp = await buildTestApp({ ...LOCAL_SIGN_IN_ENV, ADMIN_BREAK_GLASS: 'bootstrap' });
  });
  after(async () => testApp?.close());

  it('shows the operator form always, and the admin token form only while break-glass is open', async () => {
    const open = await new DashboardBrowser(testApp.app).get('/dashboard/login');
    assert.match(open.body, /action="\/dashboard\/login\/operator"/);
    assert.match(open.body, /name="adminToken"/);

    // An admin who can sign in as themselves: break-glass has done its work.
    const admin = await newOperator(testApp, 'admin@bank.example', ['admin']);
    await setUpSignIn(testApp, admin.id);
    const closed = await new DashboardBrowser(testApp.app).get('/dashboard/login');
    assert.equal(closed.statusCode, 200);
    assert.match(closed.body, /name="email"/);
    assert.match(closed.body, /name="password"/);
    assert.match(closed.body, /name="code"/);
    assert.doesNotMatch(closed.body, /name="adminToken"/);
    assert.doesNotMatch(closed.body, /npx openibs dashboard/);
  });

  it('the admin token and a one-time link are refused without being looked at', async () => {
    const browser = new DashboardBrowser(testApp.app, '10.0.1.1');
    await browser.get('/dashboard/login');
    const refused = await browser.post('/dashboard/login', {
      adminToken: TEST_SECRETS.adminToken,
      operator: 'ada.obi',
    });
    assert.equal(refused.statusCode, 403);
    assert.match(refused.body, /Sign-in with the admin token is closed/);
    assert.equal(browser.cookies.has('openibs_dashboard'), false);
    const { ticket } = testApp.services.dashboardLoginLinks.issue();
    const link = await browser.get(`/dashboard/login/${ticket}`);
    assert.equal(link.statusCode, 403);
    assert.equal(browser.cookies.has('openibs_dashboard'), false);
  });
});

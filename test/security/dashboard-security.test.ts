/**
 * The dashboard's guards: no page and no action without a session, CSRF refused, the cookie's
 * flags, a webhook secret shown once only, values from outside escaped, the allow-list, and
 * production keeping it off unless asked.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DashboardBrowser } from '../dashboard-browser.ts';
import {
  adminHeaders,
  createClient,
  sandboxCredit,
  sendTransfer,
  signedInClient,
} from '../factories.ts';
import { buildTestApp, TEST_SECRETS, type TestApp } from '../harness.ts';

const PAGES = [
  '/dashboard',
  '/dashboard/clients',
  '/dashboard/ledger',
  '/dashboard/audit',
  '/dashboard/approvals',
  '/dashboard/sandbox',
  '/dashboard/inbox',
  '/dashboard/inbox/al0000',
  '/dashboard/clients/CLIENT',
  '/dashboard/clients/CLIENT/accounts',
  '/dashboard/clients/CLIENT/accounts/NUMBER',
  '/dashboard/clients/CLIENT/accounts/ACCOUNT/statement',
  '/dashboard/clients/CLIENT/accounts/ACCOUNT/statement.csv',
  '/dashboard/clients/CLIENT/transfers',
  '/dashboard/clients/CLIENT/transfers/ffffffffffffffffffffffff',
  '/dashboard/clients/CLIENT/virtual-accounts',
  '/dashboard/clients/CLIENT/vas',
  '/dashboard/clients/CLIENT/ussd',
  '/dashboard/clients/CLIENT/checkout',
  '/dashboard/clients/CLIENT/identity',
  '/dashboard/clients/CLIENT/webhooks',
];

const ACTIONS = [
  '/dashboard/clients',
  '/dashboard/logout',
  '/dashboard/clients/CLIENT/apps',
  '/dashboard/clients/CLIENT/apps/APP/revoke',
  '/dashboard/clients/CLIENT/apps/APP/keys',
  '/dashboard/clients/CLIENT/apps/APP/keys/KEY/revoke',
  '/dashboard/clients/CLIENT/access/disable',
  '/dashboard/clients/CLIENT/access/revoke-tokens',
  '/dashboard/clients/CLIENT/webhook',
  '/dashboard/clients/CLIENT/accounts/NUMBER/freeze',
  '/dashboard/clients/CLIENT/accounts/credit',
  '/dashboard/clients/CLIENT/virtual-accounts/pay',
  '/dashboard/clients/CLIENT/ussd/dial',
  '/dashboard/clients/CLIENT/transfers/ffffffffffffffffffffffff/return',
  '/dashboard/clients/CLIENT/transfers/ffffffffffffffffffffffff/recall',
  '/dashboard/clients/CLIENT/transfers/ffffffffffffffffffffffff/reversal',
  '/dashboard/clients/CLIENT/accounts/NUMBER/liens/ffffffffffffffffffffffff/release',
  '/dashboard/clients/CLIENT/webhooks/EVENT/replay',
  '/dashboard/sandbox/nip-next-outcome',
  '/dashboard/approvals/apr_x/approve',
  '/dashboard/approvals/apr_x/reject',
];

describe('dashboard security', () => {
  let testApp: TestApp;
  let client: Awaited<ReturnType<typeof createClient>>;
  const fill = (path: string) =>
    path
      .replace('CLIENT', client.ibsClientId)
      .replace('ACCOUNT', client.mainAccountId)
      .replace('NUMBER', client.mainAccountNumber);

  before(async () => {
    testApp = await buildTestApp();
    client = await createClient(testApp.app, 'Guarded Ltd');
  });
  after(async () => testApp?.close());

  describe('no session', () => {
    for (const path of PAGES) {
      it(`GET ${path} sends the browser to the sign-in page`, async () => {
        const answer = await testApp.app.inject({ method: 'GET', url: fill(path) });
        assert.equal(answer.statusCode, 303);
        assert.equal(answer.headers.location, '/dashboard/login');
        assert.doesNotMatch(answer.body, /Guarded Ltd/);
      });
    }

    it('a live refresh without a session is 401, not a redirect', async () => {
      const answer = await testApp.app.inject({
        method: 'GET',
        url: fill('/dashboard/clients/CLIENT/transfers?fragment=1'),
        headers: { 'x-dashboard-live': '1' },
      });
      assert.equal(answer.statusCode, 401);
    });

    for (const path of ACTIONS) {
      it(`POST ${path} is refused and does nothing`, async () => {
        const answer = await testApp.app.inject({
          method: 'POST',
          url: fill(path),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: 'name=Sneaky&_csrf=x',
        });
        assert.equal(answer.statusCode, 401);
      });
    }

    it('a forged, tampered or foreign cookie is no session', async () => {
      const browser = new DashboardBrowser(testApp.app);
      await browser.signIn('alice');
      const real = browser.cookies.get('openibs_dashboard') ?? '';
      const forged = encodeURIComponent(JSON.stringify({ o: 'mallory', e: Date.now() + 1e9 }));
      // The same signature over another secret: one character of the secret changed.
      const tampered = `${real[0] === 'A' ? 'B' : 'A'}${real.slice(1)}`;
      const unsigned = real.split('.')[0] ?? '';
      for (const value of [forged, tampered, `${forged}.AAAA`, unsigned]) {
        const answer = await testApp.app.inject({
          method: 'GET',
          url: '/dashboard',
          headers: { cookie: `openibs_dashboard=${value}` },
        });
        assert.equal(answer.statusCode, 303, value);
      }
    });

    it('a session ends when it expires', async () => {
      const browser = new DashboardBrowser(testApp.app);
      await browser.signIn('bob');
      testApp.clock.advanceSeconds(43_201);
      const answer = await browser.get('/dashboard');
      assert.equal(answer.statusCode, 303);
    });
  });

  describe('signing in', () => {
    it('a wrong admin token is refused, recorded, and sets no session', async () => {
      const browser = new DashboardBrowser(testApp.app);
      await browser.get('/dashboard/login');
      const answer = await browser.post('/dashboard/login', {
        adminToken: 'not-the-token',
        operator: 'eve',
      });
      assert.equal(answer.statusCode, 401);
      assert.equal(browser.cookies.has('openibs_dashboard'), false);
      const events = await testApp.services.auditLog.list({
        action: 'dashboard.sign-in',
        offset: 0,
        limit: 50,
      });
      assert.ok(events.events.some((event) => event.outcome === '401'));
    });

    it('the session cookie is HttpOnly, SameSite=Strict, scoped to /dashboard', async () => {
      const browser = new DashboardBrowser(testApp.app);
      await browser.get('/dashboard/login');
      const answer = await browser.post('/dashboard/login', {
        adminToken: TEST_SECRETS.adminToken,
        operator: 'carol',
      });
      const cookie = answer.cookies.find((each) => each.name === 'openibs_dashboard');
      assert.ok(cookie);
      assert.equal(cookie.httpOnly, true);
      assert.equal(cookie.sameSite, 'Strict');
      assert.equal(cookie.path, '/dashboard');
      assert.doesNotMatch(cookie.value, new RegExp(TEST_SECRETS.adminToken));
      const raw = String(answer.headers['set-cookie']);
      assert.match(raw, /openibs_dashboard=[^;]+;.*HttpOnly/i);
    });

    it('the session cookie is Secure when the public URL is https', async () => {
      const secure = await buildTestApp({ PUBLIC_BASE_URL: 'https://bank.example' });
      try {
        const browser = new DashboardBrowser(secure.app);
        await browser.get('/dashboard/login');
        const answer = await browser.post('/dashboard/login', {
          adminToken: TEST_SECRETS.adminToken,
          operator: 'dave',
        });
        const cookie = answer.cookies.find((each) => each.name === 'openibs_dashboard');
        assert.equal(cookie?.secure, true);
      } finally {
        await secure.close();
      }
    });

    it('a one-click link signs in once', async () => {
      const { ticket } = testApp.services.dashboardLoginLinks.issue();
      const first = new DashboardBrowser(testApp.app);
      const used = await first.get(`/dashboard/login/${ticket}`);
      assert.equal(used.statusCode, 303);
      assert.equal(used.headers.location, '/dashboard');
      assert.equal((await first.get('/dashboard')).statusCode, 200);
      const again = await new DashboardBrowser(testApp.app).get(`/dashboard/login/${ticket}`);
      assert.equal(again.statusCode, 401);
      assert.equal(
        again.cookies.some((each) => each.name === 'openibs_dashboard'),
        false,
      );
    });

    it('the admin API makes one-click links for the CLI', async () => {
      const answer = await testApp.app.inject({
        method: 'POST',
        url: '/admin/dashboard/login-links',
        headers: adminHeaders,
      });
      assert.equal(answer.statusCode, 201, answer.body);
      const url = new URL(answer.json().data.url);
      const browser = new DashboardBrowser(testApp.app);
      assert.equal((await browser.get(url.pathname)).statusCode, 303);
      assert.equal((await browser.get('/dashboard')).statusCode, 200);
    });

    it('signing out ends the session in that browser', async () => {
      const browser = new DashboardBrowser(testApp.app);
      await browser.signIn('frank');
      const out = await browser.post('/dashboard/logout');
      assert.equal(out.statusCode, 303);
      assert.equal((await browser.get('/dashboard')).statusCode, 303);
    });
  });

  describe('CSRF', () => {
    it('an action without the token, or with another browser’s, is refused and does nothing', async () => {
      const browser = new DashboardBrowser(testApp.app);
      await browser.signIn('grace');
      const other = new DashboardBrowser(testApp.app);
      await other.signIn('heidi');
      const before = await clientCount(testApp);
      for (const csrf of [null, '', 'forged-token', other.csrf]) {
        const answer = await browser.post('/dashboard/clients', { name: 'Csrf Victim' }, { csrf });
        assert.equal(answer.statusCode, 403, `token ${String(csrf)}`);
        assert.match(answer.body, /expired or did not come from this dashboard/);
      }
      assert.equal(await clientCount(testApp), before);
      const accepted = await browser.post('/dashboard/clients', { name: 'Csrf Control' });
      assert.equal(accepted.statusCode, 303);
      assert.equal(await clientCount(testApp), before + 1);
    });

    it('a reversal or a lien release without the token moves no money', async () => {
      const browser = new DashboardBrowser(testApp.app);
      await browser.signIn('ivan');
      const sender = await signedInClient(testApp, 'Csrf Sender', 2);
      await sandboxCredit(testApp.app, sender.client.mainAccountNumber, 100);
      const sent = await sendTransfer(testApp.app, sender.headers, {
        debitAccountNumber: sender.client.mainAccountNumber,
        beneficiaryBankCode: '999240',
        beneficiaryAccountNumber: client.mainAccountNumber,
        amount: 50,
      });
      assert.equal(sent.statusCode, 200, sent.body);
      const transferId: string = sent.json().data._id;
      const base = `/dashboard/clients/${sender.client.ibsClientId}`;
      for (const path of [
        `${base}/transfers/${transferId}/reversal`,
        `${base}/accounts/${sender.client.mainAccountNumber}/liens/ffffffffffffffffffffffff/release`,
      ]) {
        const answer = await browser.post(path, { reason: 'Forged' }, { csrf: 'forged-token' });
        assert.equal(answer.statusCode, 403, path);
      }
      const [row] = await testApp.db.query<{ status: string }>(
        'SELECT status FROM transfers WHERE id = $1',
        [transferId],
      );
      assert.equal(row?.status, 'Completed');
      const audit = await testApp.services.auditLog.list({
        actor: 'break-glass:ivan',
        offset: 0,
        limit: 50,
      });
      assert.ok(
        !audit.events.some((event) => /reversal|release/.test(event.action)),
        'no admin call was made',
      );
    });

    it('sign-in itself needs the form’s token (no login CSRF)', async () => {
      const answer = await testApp.app.inject({
        method: 'POST',
        url: '/dashboard/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          adminToken: TEST_SECRETS.adminToken,
          operator: 'x',
        }).toString(),
      });
      assert.equal(answer.statusCode, 403);
    });

    it('an operator’s own sign-in and the setup form need the form’s token too', async () => {
      const form = { 'content-type': 'application/x-www-form-urlencoded' };
      const signIn = await testApp.app.inject({
        method: 'POST',
        url: '/dashboard/login/operator',
        headers: form,
        payload: new URLSearchParams({ email: 'a@b.example', password: 'x', code: '1' }).toString(),
      });
      assert.equal(signIn.statusCode, 403);
      const setup = await testApp.app.inject({
        method: 'POST',
        url: `/dashboard/setup/${'A'.repeat(43)}`,
        headers: form,
        payload: new URLSearchParams({ password: 'x', passwordAgain: 'x', code: '1' }).toString(),
      });
      assert.equal(setup.statusCode, 403);
    });
  });

  describe('what pages show', () => {
    it('a webhook secret is shown once, on the answer to setting it, never on a page after', async () => {
      const browser = new DashboardBrowser(testApp.app);
      await browser.signIn('ivan');
      await browser.get(`/dashboard/clients/${client.ibsClientId}`);
      const saved = await browser.post(`/dashboard/clients/${client.ibsClientId}/webhook`, {
        url: 'http://127.0.0.1:9/hooks',
        rotateSecret: 'true',
      });
      assert.equal(saved.statusCode, 200, saved.body);
      const secret = /id="webhook-secret">([^<]+)</.exec(saved.body)?.[1];
      assert.ok(secret !== undefined && secret.length >= 24);
      assert.equal(saved.headers['cache-control'], 'no-store');
      for (const path of ['', '/webhooks']) {
        const page = await browser.get(`/dashboard/clients/${client.ibsClientId}${path}`);
        assert.equal(page.statusCode, 200);
        assert.equal(page.body.includes(secret), false, path);
      }
      assert.match(
        (await browser.get(`/dashboard/clients/${client.ibsClientId}`)).body,
        /http:\/\/127\.0\.0\.1:9\/hooks/,
      );
    });

    it('values from outside are escaped, never markup', async () => {
      const browser = new DashboardBrowser(testApp.app);
      await browser.signIn('judy');
      const made = await browser.post('/dashboard/clients', {
        name: '<script>alert(1)</script>"onmouseover="x',
      });
      const page = await browser.get(String(made.headers.location));
      assert.equal(page.statusCode, 200);
      assert.equal(page.body.includes('<script>alert(1)'), false);
      assert.match(page.body, /&lt;script&gt;alert\(1\)&lt;\/script&gt;&quot;onmouseover=&quot;x/);
    });

    it('every page forbids framing and foreign scripts', async () => {
      const browser = new DashboardBrowser(testApp.app);
      await browser.signIn('ken');
      const page = await browser.get('/dashboard');
      assert.match(String(page.headers['content-security-policy']), /script-src 'self'/);
      assert.match(String(page.headers['content-security-policy']), /frame-ancestors 'none'/);
      assert.equal(page.headers['x-frame-options'], 'DENY');
      assert.equal(page.headers['cache-control'], 'no-store');
    });
  });

  describe('where it is served', () => {
    it('production keeps the dashboard off unless DASHBOARD_ENABLED is set', async () => {
      const production = {
        IBS_ENV: 'production',
        DATABASE_URL: 'postgres://unused@127.0.0.1:1/unused',
        ADMIN_TOKEN: TEST_SECRETS.adminToken,
        TOKEN_SIGNING_SECRET: TEST_SECRETS.tokenSigningSecret,
        OPERATOR_SECRETS_KEY: 'c'.repeat(64),
        PUBLIC_BASE_URL: 'https://bank.example',
        INSTITUTION_CODE: '999240',
      };
      const off = await buildTestApp(production);
      try {
        const answer = await off.app.inject({ method: 'GET', url: '/dashboard/login' });
        assert.equal(answer.statusCode, 404);
        const link = await off.app.inject({
          method: 'POST',
          url: '/admin/dashboard/login-links',
          headers: adminHeaders,
        });
        assert.equal(link.statusCode, 404);
      } finally {
        await off.close();
      }
      const on = await buildTestApp({ ...production, DASHBOARD_ENABLED: 'true' });
      try {
        const answer = await on.app.inject({ method: 'GET', url: '/dashboard/login' });
        assert.equal(answer.statusCode, 200);
        assert.doesNotMatch(answer.body, /Sandbox/);
        const browser = new DashboardBrowser(on.app);
        await browser.signIn('prod-operator');
        const overview = await browser.get('/dashboard');
        assert.match(overview.body, /Production/);
        // The full ledger audit is not run on every visit of the front page in production.
        assert.match(overview.body, /runs when you open the ledger page/);
        assert.equal((await browser.get('/dashboard/sandbox')).statusCode, 404);
        assert.equal((await browser.get('/dashboard/inbox')).statusCode, 404);
        assert.doesNotMatch(overview.body, /Inbox/);
      } finally {
        await on.close();
      }
    });

    it('an address off the admin allow-list finds no dashboard', async () => {
      const listed = await buildTestApp({ ADMIN_ALLOWED_IPS: '10.9.9.9' });
      try {
        for (const url of ['/dashboard/login', '/dashboard', '/dashboard/assets/dashboard.css']) {
          const answer = await listed.app.inject({ method: 'GET', url });
          assert.equal(answer.statusCode, 404, url);
        }
        const allowed = await listed.app.inject({
          method: 'GET',
          url: '/dashboard/login',
          remoteAddress: '10.9.9.9',
        });
        assert.equal(allowed.statusCode, 200);
      } finally {
        await listed.close();
      }
    });
  });
});

async function clientCount(testApp: TestApp): Promise<number> {
  const answer = await testApp.app.inject({
    method: 'GET',
    url: '/admin/clients?page=0&limit=1',
    headers: adminHeaders,
  });
  return answer.json().pagination.total;
}

/**
 * The setup page a setup link opens: the secret and its otpauth URI, a refused password or code
 * that leaves the link live, a setup that completes and spends it, and an expired link.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminAnswer, DashboardBrowser } from '../../../test/dashboard-browser.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';
import {
  BREAK_GLASS,
  LOCAL_SIGN_IN_ENV,
  newOperator,
  PASSWORD,
  secretOnPage,
  signInAsOperator,
} from '../../../test/operator-sign-in-helpers.ts';
import { totpCode } from '../../auth/operator-totp.ts';

describe('dashboard: a local operator sets up their sign-in from a setup link', () => {
  let testApp: TestApp;
  const linkFor = async (operatorId: string) =>
    (await testApp.services.operatorSignIn.issueSetupLink(operatorId, BREAK_GLASS)).ticket;

  before(async () => {
    testApp = await buildTestApp({ ...LOCAL_SIGN_IN_ENV, BANK_NAME: 'Acme Bank' });
  });
  after(async () => testApp?.close());

  it('shows the secret and an otpauth link naming the bank, never cached', async () => {
    const operator = await newOperator(testApp, 'ada@bank.example');
    const ticket = await linkFor(operator.id);
    const page = await new DashboardBrowser(testApp.app).get(`/dashboard/setup/${ticket}`);
    assert.equal(page.statusCode, 200, page.body);
    assert.equal(page.headers['cache-control'], 'no-store');
    const secret = secretOnPage(page.body);
    assert.match(secret, /^[A-Z2-7]{32}$/);
    assert.match(page.body, /ada@bank\.example/);
    const uri = /href="(otpauth:\/\/[^"]+)"/.exec(page.body)?.[1]?.replaceAll('&amp;', '&');
    assert.ok(uri !== undefined, page.body);
    const parsed = new URL(uri);
    assert.equal(parsed.searchParams.get('secret'), secret);
    assert.equal(parsed.searchParams.get('issuer'), 'Acme Bank');
    // The same secret each time the page is opened, until the setup completes.
    const again = await new DashboardBrowser(testApp.app).get(`/dashboard/setup/${ticket}`);
    assert.equal(secretOnPage(again.body), secret);
  });

  it('a short password, two that differ or a wrong code leave the link live', async () => {
    const operator = await newOperator(testApp, 'bisi@bank.example');
    const ticket = await linkFor(operator.id);
    const browser = new DashboardBrowser(testApp.app);
    const secret = secretOnPage((await browser.get(`/dashboard/setup/${ticket}`)).body);
    const code = totpCode(secret, testApp.clock.now());
    const attempts = [
      [{ password: 'short', passwordAgain: 'short', code }, /at least 12 characters/],
      [{ password: PASSWORD, passwordAgain: `${PASSWORD}.`, code }, /two passwords differ/],
      [
        { password: 'bisi@bank.example', passwordAgain: 'bisi@bank.example', code },
        /must not be your email/,
      ],
      [
        {
          password: PASSWORD,
          passwordAgain: PASSWORD,
          code: code === '123456' ? '654321' : '123456',
        },
        /not the one your authenticator app shows/,
      ],
    ] as const;
    for (const [form, problem] of attempts) {
      const refused = await browser.post(`/dashboard/setup/${ticket}`, form);
      assert.equal(refused.statusCode, 400, refused.body);
      assert.match(refused.body, problem);
      // The page again, with the same secret, to try again.
      assert.equal(secretOnPage(refused.body), secret);
    }
    const [row] = await testApp.db.query<{ password_hash: string | null }>(
      'SELECT password_hash FROM operators WHERE id = $1',
      [operator.id],
    );
    assert.equal(row?.password_hash, null);
  });

  it('completes once: the link is spent, the operator signs in with a later code', async () => {
    const operator = await newOperator(testApp, 'chidi@bank.example');
    const ticket = await linkFor(operator.id);
    const browser = new DashboardBrowser(testApp.app, '10.2.0.1');
    const secret = secretOnPage((await browser.get(`/dashboard/setup/${ticket}`)).body);
    const code = totpCode(secret, testApp.clock.now());
    const done = await browser.post(`/dashboard/setup/${ticket}`, {
      password: PASSWORD,
      passwordAgain: PASSWORD,
      code,
    });
    assert.equal(done.statusCode, 303, done.body);
    assert.equal(done.headers.location, '/dashboard/login?setup=done');
    assert.match((await browser.get('/dashboard/login?setup=done')).body, /Your sign-in is set up/);

    const spent = await new DashboardBrowser(testApp.app).get(`/dashboard/setup/${ticket}`);
    assert.equal(spent.statusCode, 401);
    assert.match(spent.body, /used already or has expired/);
    assert.doesNotMatch(spent.body, /data-secret/);
    const twice = await browser.post(`/dashboard/setup/${ticket}`, {
      password: 'another long password',
      passwordAgain: 'another long password',
      code,
    });
    assert.equal(twice.statusCode, 401);

    // The code that confirmed the setup is spent too; the next step's code signs in.
    const reused = await signInAsOperator(browser, {
      email: 'chidi@bank.example',
      password: PASSWORD,
      code,
    });
    assert.equal(reused.statusCode, 401);
    testApp.clock.advanceSeconds(30);
    const signedIn = await signInAsOperator(browser, {
      email: 'chidi@bank.example',
      password: PASSWORD,
      code: totpCode(secret, testApp.clock.now()),
    });
    assert.equal(signedIn.statusCode, 303, signedIn.body);
    const [event] = (
      await adminAnswer(testApp.app, '/admin/audit-events?action=operator.sign-in-setup&limit=5')
    ).data.filter((each: { outcome: string }) => each.outcome === '200');
    assert.equal(event.actor, 'operator:chidi@bank.example');
  });

  it('an expired link opens nothing, and neither does one never made', async () => {
    const operator = await newOperator(testApp, 'dayo@bank.example');
    const ticket = await linkFor(operator.id);
    testApp.clock.advanceSeconds(testApp.config.operators.localSignIn.setupLinkTtlSeconds + 1);
    const expired = await new DashboardBrowser(testApp.app).get(`/dashboard/setup/${ticket}`);
    assert.equal(expired.statusCode, 401);
    assert.match(expired.body, /used already or has expired/);
    const madeUp = await new DashboardBrowser(testApp.app).get(
      `/dashboard/setup/${'A'.repeat(43)}`,
    );
    assert.equal(madeUp.statusCode, 401);
    const malformed = await new DashboardBrowser(testApp.app).get('/dashboard/setup/short');
    assert.equal(malformed.statusCode, 401);
  });

  it('a new link replaces the one before it', async () => {
    const operator = await newOperator(testApp, 'emeka@bank.example');
    const first = await linkFor(operator.id);
    const second = await linkFor(operator.id);
    const browser = new DashboardBrowser(testApp.app);
    assert.equal((await browser.get(`/dashboard/setup/${first}`)).statusCode, 401);
    assert.equal((await browser.get(`/dashboard/setup/${second}`)).statusCode, 200);
  });
});

/**
 * A local operator's sign-in with email, password and TOTP code: a wrong code, a reused code and
 * a correct one; a wrong password told as a wrong code is; an unknown address and a disabled
 * operator refused alike; each attempt audited without what was typed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminAnswer, DashboardBrowser } from '../../../test/dashboard-browser.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';
import {
  LOCAL_SIGN_IN_ENV,
  newOperator,
  PASSWORD,
  setUpSignIn,
  signInAsOperator,
} from '../../../test/operator-sign-in-helpers.ts';
import { totpCode } from '../../auth/operator-totp.ts';

const NO_MATCH = /That email, password and code do not match/;

describe('dashboard: a local operator signs in with a password and a TOTP code', () => {
  let testApp: TestApp;
  const signInEvents = async () =>
    (await adminAnswer(testApp.app, '/admin/audit-events?action=operator.sign-in&limit=50')).data;

  before(async () => {
    testApp = await buildTestApp(LOCAL_SIGN_IN_ENV);
  });
  after(async () => testApp?.close());

  it('a wrong code is refused, a correct one signs in, the same code again is refused', async () => {
    const operator = await newOperator(testApp, 'ada@bank.example', ['viewer']);
    const { secret } = await setUpSignIn(testApp, operator.id);
    const browser = new DashboardBrowser(testApp.app, '10.1.0.1');
    const now = testApp.clock.now();
    const code = totpCode(secret, now);
    const wrongCode = code === '000000' ? '111111' : '000000';

    const wrong = await signInAsOperator(browser, {
      email: 'ada@bank.example',
      password: PASSWORD,
      code: wrongCode,
    });
    assert.equal(wrong.statusCode, 401);
    assert.match(wrong.body, NO_MATCH);
    assert.equal(browser.cookies.has('openibs_dashboard'), false);

    const right = await signInAsOperator(browser, {
      email: 'ADA@bank.example',
      password: PASSWORD,
      code,
    });
    assert.equal(right.statusCode, 303, right.body);
    assert.equal(right.headers.location, '/dashboard');
    const page = await browser.get('/dashboard');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<span class="who">ada@bank\.example<\/span>/);

    const elsewhere = new DashboardBrowser(testApp.app, '10.1.0.2');
    const reused = await signInAsOperator(elsewhere, {
      email: 'ada@bank.example',
      password: PASSWORD,
      code,
    });
    assert.equal(reused.statusCode, 401);
    assert.match(reused.body, NO_MATCH);
    assert.equal(elsewhere.cookies.has('openibs_dashboard'), false);

    const events = (await signInEvents()).filter(
      (event: { target: string | null }) => event.target === operator.id,
    );
    assert.deepEqual(
      events.map((event: { outcome: string; details: { reason?: string } }) => [
        event.outcome,
        event.details.reason ?? null,
      ]),
      [
        ['401', 'reused-code'],
        ['200', null],
        ['401', 'wrong-code'],
      ],
    );
    const signedIn = events[1];
    assert.equal(signedIn.actor, 'operator:ada@bank.example');
    // Never what was typed.
    assert.doesNotMatch(JSON.stringify(events), new RegExp(`${PASSWORD}|${code}`));
  });

  it('the session opened belongs to the operator (their id, not a label)', async () => {
    const operator = await newOperator(testApp, 'bisi@bank.example', ['viewer']);
    const { secret } = await setUpSignIn(testApp, operator.id);
    const browser = new DashboardBrowser(testApp.app, '10.1.0.3');
    const signedIn = await signInAsOperator(browser, {
      email: 'bisi@bank.example',
      password: PASSWORD,
      code: totpCode(secret, testApp.clock.now()),
    });
    assert.equal(signedIn.statusCode, 303, signedIn.body);
    const session = await testApp.db.query<{ operator_id: string | null }>(
      'SELECT operator_id FROM dashboard_sessions WHERE operator = $1',
      ['bisi@bank.example'],
    );
    assert.deepEqual(
      session.map((row) => row.operator_id),
      [operator.id],
    );
  });

  it('a wrong password is refused as a wrong code is, and counted against the operator', async () => {
    const operator = await newOperator(testApp, 'chidi@bank.example');
    const { secret } = await setUpSignIn(testApp, operator.id);
    const browser = new DashboardBrowser(testApp.app, '10.1.0.4');
    const refused = await signInAsOperator(browser, {
      email: 'chidi@bank.example',
      password: `${PASSWORD}!`,
      code: totpCode(secret, testApp.clock.now()),
    });
    assert.equal(refused.statusCode, 401);
    assert.match(refused.body, NO_MATCH);
    const [row] = await testApp.db.query<{ failed_sign_ins: number }>(
      'SELECT failed_sign_ins FROM operators WHERE id = $1',
      [operator.id],
    );
    assert.equal(row?.failed_sign_ins, 1);
    assert.equal((await signInEvents())[0].details.reason, 'wrong-password');
  });

  it('an unknown address, an operator not set up and a disabled one are refused alike', async () => {
    const notSetUp = await newOperator(testApp, 'dayo@bank.example');
    const disabled = await newOperator(testApp, 'emeka@bank.example');
    const { secret } = await setUpSignIn(testApp, disabled.id);
    await testApp.services.operators.setStatus(disabled.id, 'disabled');
    const code = totpCode(secret, testApp.clock.now());
    const cases = [
      ['nobody@bank.example', 'unknown-operator', null],
      ['dayo@bank.example', 'not-set-up', notSetUp.id],
      ['emeka@bank.example', 'disabled', disabled.id],
    ] as const;
    for (const [email, reason, target] of cases) {
      const browser = new DashboardBrowser(testApp.app, '10.1.0.5');
      const refused = await signInAsOperator(browser, { email, password: PASSWORD, code });
      assert.equal(refused.statusCode, 401, email);
      assert.match(refused.body, NO_MATCH, email);
      assert.equal(browser.cookies.has('openibs_dashboard'), false, email);
      const [event] = await signInEvents();
      assert.deepEqual([event.target, event.details.reason], [target, reason], email);
    }
  });

  it('two sign-ins with one code at once: exactly one opens a session', async () => {
    const operator = await newOperator(testApp, 'femi@bank.example');
    const { secret } = await setUpSignIn(testApp, operator.id);
    const code = totpCode(secret, testApp.clock.now());
    const browsers = [
      new DashboardBrowser(testApp.app, '10.1.0.7'),
      new DashboardBrowser(testApp.app, '10.1.0.8'),
    ];
    await Promise.all(browsers.map((browser) => browser.get('/dashboard/login')));
    const answers = await Promise.all(
      browsers.map((browser) =>
        browser.post('/dashboard/login/operator', {
          email: 'femi@bank.example',
          password: PASSWORD,
          code,
        }),
      ),
    );
    assert.deepEqual(answers.map((answer) => answer.statusCode).sort(), [303, 401]);
  });

  it('a form without fields is refused like any wrong answer, not as an error', async () => {
    const browser = new DashboardBrowser(testApp.app, '10.1.0.6');
    await browser.get('/dashboard/login');
    const refused = await browser.post('/dashboard/login/operator', {});
    assert.equal(refused.statusCode, 401);
    assert.match(refused.body, NO_MATCH);
  });
});

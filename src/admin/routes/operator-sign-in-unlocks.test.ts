import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminAnswer, DashboardBrowser } from '../../../test/dashboard-browser.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';
import {
  LOCAL_SIGN_IN_ENV,
  newOperator,
  operatorHeaders,
  PASSWORD,
  setUpSignIn,
  signInAsOperator,
} from '../../../test/operator-sign-in-helpers.ts';
import { totpCode } from '../../auth/operator-totp.ts';

const FAILURES = 3;

describe('lockout after repeated failures; POST /admin/operators/:id/unlock', () => {
  let testApp: TestApp;
  let admin: Record<string, string>;
  let adminId: string;
  before(async () => {
    testApp = await buildTestApp({
      ...LOCAL_SIGN_IN_ENV,
      OPERATOR_LOCKOUT_FAILURES: String(FAILURES),
      OPERATOR_LOCKOUT_SECONDS: '600',
    });
    const operator = await newOperator(testApp, 'admin@bank.example', ['admin']);
    adminId = operator.id;
    admin = await operatorHeaders(testApp, operator.id);
  });
  after(() => testApp?.close());
  const unlock = (id: string, headers: Record<string, string> = admin) =>
    testApp.app.inject({ method: 'POST', url: `/admin/operators/${id}/unlock`, headers });

  /** Wrong passwords until the lock; answers the browser used. */
  async function lockOut(email: string, secret: string) {
    const browser = new DashboardBrowser(testApp.app, '10.4.0.1');
    for (let attempt = 1; attempt <= FAILURES; attempt += 1) {
      const refused = await signInAsOperator(browser, {
        email,
        password: 'not the password at all',
        code: totpCode(secret, testApp.clock.now()),
      });
      assert.equal(refused.statusCode, attempt < FAILURES ? 401 : 429, `attempt ${attempt}`);
    }
    return browser;
  }

  it('locks after the failures; the right password and code are refused while it holds', async () => {
    const operator = await newOperator(testApp, 'ada@bank.example');
    const { secret } = await setUpSignIn(testApp, operator.id);
    const browser = await lockOut('ada@bank.example', secret);
    const locked = await signInAsOperator(browser, {
      email: 'ada@bank.example',
      password: PASSWORD,
      code: totpCode(secret, testApp.clock.now()),
    });
    assert.equal(locked.statusCode, 429);
    assert.match(locked.body, /locked until \d\d:\d\d UTC/);
    const [event] = (
      await adminAnswer(testApp.app, '/admin/audit-events?action=operator.sign-in&limit=1')
    ).data;
    assert.deepEqual([event.outcome, event.details.reason], ['429', 'locked']);

    // The lock ends by itself.
    testApp.clock.advanceSeconds(601);
    const after = await signInAsOperator(browser, {
      email: 'ada@bank.example',
      password: PASSWORD,
      code: totpCode(secret, testApp.clock.now()),
    });
    assert.equal(after.statusCode, 303, after.body);
  });

  it('200: another admin unlocks, and the operator signs in at once', async () => {
    const operator = await newOperator(testApp, 'bisi@bank.example');
    const { secret } = await setUpSignIn(testApp, operator.id);
    const browser = await lockOut('bisi@bank.example', secret);

    const unlocked = await unlock(operator.id);
    assert.equal(unlocked.statusCode, 200, unlocked.body);
    assert.deepEqual(unlocked.json().data, {
      id: operator.id,
      email: 'bisi@bank.example',
      status: 'active',
      hasPassword: true,
      hasSecondFactor: true,
      failedSignIns: 0,
      lockedUntil: null,
    });
    const signedIn = await signInAsOperator(browser, {
      email: 'bisi@bank.example',
      password: PASSWORD,
      code: totpCode(secret, testApp.clock.now()),
    });
    assert.equal(signedIn.statusCode, 303, signedIn.body);
  });

  it('403 for oneself or without the admin role; 400 for no such operator', async () => {
    const self = await unlock(adminId);
    assert.equal(self.statusCode, 403, self.body);
    assert.equal(self.json().code, 'OPERATOR_SELF_SERVICE');
    const target = await newOperator(testApp, 'chidi@bank.example');
    const support = await newOperator(testApp, 'sup@bank.example', ['support']);
    const refused = await unlock(target.id, await operatorHeaders(testApp, support.id));
    assert.equal(refused.json().code, 'ROLE_REQUIRED');
    assert.equal((await unlock('opr_nobody')).statusCode, 400);
  });
});

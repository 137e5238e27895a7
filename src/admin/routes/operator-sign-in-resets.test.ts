import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DashboardBrowser } from '../../../test/dashboard-browser.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';
import {
  LOCAL_SIGN_IN_ENV,
  newOperator,
  operatorHeaders,
  PASSWORD,
  secretOnPage,
  setUpSignIn,
  signInAsOperator,
} from '../../../test/operator-sign-in-helpers.ts';
import { totpCode } from '../../auth/operator-totp.ts';

describe('POST /admin/operators/:id/reset-sign-in', () => {
  let testApp: TestApp;
  let admin: Record<string, string>;
  let adminId: string;
  before(async () => {
    testApp = await buildTestApp(LOCAL_SIGN_IN_ENV);
    const operator = await newOperator(testApp, 'admin@bank.example', ['admin']);
    adminId = operator.id;
    admin = await operatorHeaders(testApp, operator.id);
  });
  after(() => testApp?.close());
  const post = (id: string, headers: Record<string, string> = admin) =>
    testApp.app.inject({ method: 'POST', url: `/admin/operators/${id}/reset-sign-in`, headers });

  it('201: forgets password and second factor, ends their sessions, a new link sets up again', async () => {
    const operator = await newOperator(testApp, 'ada@bank.example');
    const { secret } = await setUpSignIn(testApp, operator.id);
    const browser = new DashboardBrowser(testApp.app, '10.3.0.1');
    const signedIn = await signInAsOperator(browser, {
      email: 'ada@bank.example',
      password: PASSWORD,
      code: totpCode(secret, testApp.clock.now()),
    });
    assert.equal(signedIn.statusCode, 303, signedIn.body);

    const reset = await post(operator.id);
    assert.equal(reset.statusCode, 201, reset.body);
    assert.equal(reset.json().data.operatorId, operator.id);
    assert.equal((await browser.get('/dashboard')).statusCode, 303, 'their session ended');
    testApp.clock.advanceSeconds(30);
    const old = await signInAsOperator(browser, {
      email: 'ada@bank.example',
      password: PASSWORD,
      code: totpCode(secret, testApp.clock.now()),
    });
    assert.equal(old.statusCode, 401, 'the old password and secret open nothing');

    const path = new URL(reset.json().data.url).pathname;
    const page = await browser.get(path);
    assert.equal(page.statusCode, 200, page.body);
    const newSecret = secretOnPage(page.body);
    assert.notEqual(newSecret, secret);
    const done = await browser.post(path, {
      password: 'a brand new passphrase',
      passwordAgain: 'a brand new passphrase',
      code: totpCode(newSecret, testApp.clock.now()),
    });
    assert.equal(done.statusCode, 303, done.body);
  });

  it('403 for oneself, 409 for a disabled operator, 400 for none', async () => {
    const self = await post(adminId);
    assert.equal(self.statusCode, 403, self.body);
    assert.equal(self.json().code, 'OPERATOR_SELF_SERVICE');
    const disabled = await newOperator(testApp, 'bisi@bank.example');
    await testApp.services.operators.setStatus(disabled.id, 'disabled');
    assert.equal((await post(disabled.id)).json().code, 'OPERATOR_DISABLED');
    assert.equal((await post('opr_nobody')).statusCode, 400);
  });

  it('403 for an operator without the admin role', async () => {
    const target = await newOperator(testApp, 'chidi@bank.example');
    const finance = await newOperator(testApp, 'fin@bank.example', ['finance']);
    const refused = await post(target.id, await operatorHeaders(testApp, finance.id));
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.json().code, 'ROLE_REQUIRED');
  });
});

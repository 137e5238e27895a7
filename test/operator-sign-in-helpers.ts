import assert from 'node:assert/strict';
import type { OperatorRole } from '../src/auth/operator-roles.ts';
import { totpCode } from '../src/auth/operator-totp.ts';
import { DashboardBrowser } from './dashboard-browser.ts';
import type { TestApp } from './harness.ts';
import { BREAK_GLASS } from './operators.ts';

export { BREAK_GLASS };

/**
 * The cheapest password hash the stored form takes: these tests sign in dozens of times on a
 * shared machine; the cost itself has its own test (src/auth/operator-passwords.test.ts).
 */
export const LOCAL_SIGN_IN_ENV = { OPERATOR_PASSWORD_SCRYPT_LOG2N: '14' } as const;

export const PASSWORD = 'correct horse battery staple';

export async function newOperator(
  testApp: TestApp,
  email: string,
  roles: readonly OperatorRole[] = ['viewer'],
) {
  return testApp.services.operators.create({ email, displayName: email, roles }, BREAK_GLASS);
}

/** The operator's own API key, as admin API headers. */
export async function operatorHeaders(testApp: TestApp, operatorId: string) {
  const { token } = await testApp.services.operators.issueApiKey(operatorId, { name: 'tests' });
  return { authorization: `Bearer ${token}` };
}

/** The TOTP secret a setup page shows (what the operator types into their app). */
export function secretOnPage(page: string): string {
  const secret = /data-secret="([A-Z2-7]+)"/.exec(page)?.[1];
  assert.ok(secret !== undefined, 'the setup page shows a secret');
  return secret;
}

/**
 * Sets up an operator's sign-in through the setup page of a link made for them, as they would:
 * answers the secret shown. The clock then moves on a step, so the next code is a new one.
 */
export async function setUpSignIn(
  testApp: TestApp,
  operatorId: string,
  password: string = PASSWORD,
): Promise<{ secret: string }> {
  const { ticket } = await testApp.services.operatorSignIn.issueSetupLink(operatorId, BREAK_GLASS);
  const browser = new DashboardBrowser(testApp.app);
  const page = await browser.get(`/dashboard/setup/${ticket}`);
  assert.equal(page.statusCode, 200, page.body);
  const secret = secretOnPage(page.body);
  const done = await browser.post(`/dashboard/setup/${ticket}`, {
    password,
    passwordAgain: password,
    code: totpCode(secret, testApp.clock.now()),
  });
  assert.equal(done.statusCode, 303, done.body);
  testApp.clock.advanceSeconds(30);
  return { secret };
}

/** Posts the operator sign-in form from a fresh page, as a browser would. */
export async function signInAsOperator(
  browser: DashboardBrowser,
  form: { email: string; password: string; code: string },
) {
  await browser.get('/dashboard/login');
  return browser.post('/dashboard/login/operator', form);
}

/**
 * Local operators' TOTP secrets at rest: what the database holds is encrypted, a secret stored in
 * clear before encryption still signs in and is then stored encrypted, a rotated key takes over
 * at the next sign-in, and a key that does not open the row refuses without showing anything.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DashboardBrowser } from '../../test/dashboard-browser.ts';
import { buildSecondApp, buildTestApp, type TestApp } from '../../test/harness.ts';
import {
  BREAK_GLASS,
  LOCAL_SIGN_IN_ENV,
  newOperator,
  PASSWORD,
  secretOnPage,
  setUpSignIn,
  signInAsOperator,
} from '../../test/operator-sign-in-helpers.ts';
import { totpCode } from './operator-totp.ts';

const FIRST_KEY = `k1:${randomBytes(32).toString('base64')}`;
const SECOND_KEY = `k2:${randomBytes(32).toString('base64')}`;
const SEALED = /^v1:k1:[\w-]{16}:[\w-]{22}:[\w-]+$/;

describe('local operators: the TOTP secret is encrypted at rest', () => {
  let testApp: TestApp;
  const storedSecret = async (operatorId: string) =>
    (
      await testApp.db.query<{ totp_secret: string | null }>(
        'SELECT totp_secret FROM operators WHERE id = $1',
        [operatorId],
      )
    )[0]?.totp_secret;
  const signIn = (app: TestApp['app'], email: string, secret: string) =>
    signInAsOperator(new DashboardBrowser(app), {
      email,
      password: PASSWORD,
      code: totpCode(secret, testApp.clock.now()),
    });

  before(async () => {
    testApp = await buildTestApp({ ...LOCAL_SIGN_IN_ENV, OPERATOR_SECRETS_KEY: FIRST_KEY });
  });
  after(async () => testApp?.close());

  it('neither the setup link nor the operator row holds the secret in clear', async () => {
    const operator = await newOperator(testApp, 'ada@bank.example');
    const { ticket } = await testApp.services.operatorSignIn.issueSetupLink(
      operator.id,
      BREAK_GLASS,
    );
    const shown = secretOnPage(
      (await new DashboardBrowser(testApp.app).get(`/dashboard/setup/${ticket}`)).body,
    );
    const [onTicket] = await testApp.db.query<{ totp_secret: string }>(
      'SELECT totp_secret FROM operator_setup_tickets WHERE operator_id = $1',
      [operator.id],
    );
    assert.match(onTicket?.totp_secret ?? '', SEALED);
    assert.ok(!onTicket?.totp_secret.includes(shown));

    // Completing a setup from a second link (it replaces the first) stores the secret sealed.
    const { secret } = await setUpSignIn(testApp, operator.id);
    const stored = await storedSecret(operator.id);
    assert.match(stored ?? '', SEALED);
    assert.ok(!stored?.includes(secret));
    assert.equal((await signIn(testApp.app, 'ada@bank.example', secret)).statusCode, 303);
  });

  it('a secret stored in clear before encryption signs in, and is then stored encrypted', async () => {
    const operator = await newOperator(testApp, 'bisi@bank.example');
    const { secret } = await setUpSignIn(testApp, operator.id);
    await testApp.db.query('UPDATE operators SET totp_secret = $2 WHERE id = $1', [
      operator.id,
      secret,
    ]);
    const wrong = await signInAsOperator(new DashboardBrowser(testApp.app), {
      email: 'bisi@bank.example',
      password: `${PASSWORD}!`,
      code: totpCode(secret, testApp.clock.now()),
    });
    assert.equal(wrong.statusCode, 401);
    assert.equal(await storedSecret(operator.id), secret, 'a refused sign-in changes nothing');

    const right = await signIn(testApp.app, 'bisi@bank.example', secret);
    assert.equal(right.statusCode, 303, right.body);
    const stored = await storedSecret(operator.id);
    assert.match(stored ?? '', SEALED);
    assert.ok(!stored?.includes(secret));
    testApp.clock.advanceSeconds(30);
    assert.equal((await signIn(testApp.app, 'bisi@bank.example', secret)).statusCode, 303);
  });

  it('a setup link stored in clear still sets up, and the operator row is encrypted', async () => {
    const operator = await newOperator(testApp, 'chidi@bank.example');
    const { ticket } = await testApp.services.operatorSignIn.issueSetupLink(
      operator.id,
      BREAK_GLASS,
    );
    const clear = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    await testApp.db.query(
      'UPDATE operator_setup_tickets SET totp_secret = $2 WHERE operator_id = $1',
      [operator.id, clear],
    );
    const browser = new DashboardBrowser(testApp.app);
    assert.equal(secretOnPage((await browser.get(`/dashboard/setup/${ticket}`)).body), clear);
    const done = await browser.post(`/dashboard/setup/${ticket}`, {
      password: PASSWORD,
      passwordAgain: PASSWORD,
      code: totpCode(clear, testApp.clock.now()),
    });
    assert.equal(done.statusCode, 303, done.body);
    const stored = await storedSecret(operator.id);
    assert.match(stored ?? '', SEALED);
    assert.ok(!stored?.includes(clear));
  });

  it('after a key rotation, the next sign-in stores the secret under the new key', async () => {
    const operator = await newOperator(testApp, 'dayo@bank.example');
    const { secret } = await setUpSignIn(testApp, operator.id);
    const rotated = await buildSecondApp(testApp, {
      ...LOCAL_SIGN_IN_ENV,
      OPERATOR_SECRETS_KEY: `${SECOND_KEY},${FIRST_KEY}`,
    });
    try {
      assert.equal((await signIn(rotated, 'dayo@bank.example', secret)).statusCode, 303);
      assert.match((await storedSecret(operator.id)) ?? '', /^v1:k2:/);
    } finally {
      await rotated.close();
    }
  });

  it('a key that does not open the row answers 500, shows nothing and locks nobody out', async () => {
    const operator = await newOperator(testApp, 'efe@bank.example');
    const { secret } = await setUpSignIn(testApp, operator.id);
    const { ticket } = await testApp.services.operatorSignIn.issueSetupLink(
      (await newOperator(testApp, 'femi@bank.example')).id,
      BREAK_GLASS,
    );
    const stored = await storedSecret(operator.id);
    const otherKey = `k1:${randomBytes(32).toString('base64')}`;
    const wrongKey = await buildSecondApp(testApp, {
      ...LOCAL_SIGN_IN_ENV,
      OPERATOR_SECRETS_KEY: otherKey,
    });
    try {
      const answers = [];
      for (let attempt = 0; attempt < 6; attempt += 1) {
        answers.push(await signIn(wrongKey, 'efe@bank.example', secret));
      }
      answers.push(await new DashboardBrowser(wrongKey).get(`/dashboard/setup/${ticket}`));
      for (const answer of answers) {
        assert.equal(answer.statusCode, 500);
        assert.match(answer.body, /Something went wrong; the server log has the details/);
        for (const hidden of [secret, stored ?? '', otherKey, FIRST_KEY]) {
          assert.ok(!answer.body.includes(hidden));
        }
      }
    } finally {
      await wrongKey.close();
    }
    const [row] = await testApp.db.query<{ failed_sign_ins: number; locked_until: Date | null }>(
      'SELECT failed_sign_ins, locked_until FROM operators WHERE id = $1',
      [operator.id],
    );
    assert.deepEqual(row, { failed_sign_ins: 0, locked_until: null });
    assert.equal(await storedSecret(operator.id), stored);
    assert.equal((await signIn(testApp.app, 'efe@bank.example', secret)).statusCode, 303);
  });
});

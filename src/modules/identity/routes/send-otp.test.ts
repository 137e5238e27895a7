import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  getAccount,
  SANDBOX_OTP,
  sandboxCredit,
  verifyIdentity,
} from '../../../../test/factories.ts';
import { describeAuthGuards, useRouteContext } from '../../../../test/shared-route-tests.ts';

// Sandbox NINs (docs/sandbox-identity.md); a NIN check stays Pending until its OTP.
const NIN = '12345678901';

describe('POST /identity/send-otp (legacy)', () => {
  const context = useRouteContext();

  const post = (url: string, payload: object, headers = context().headers) =>
    context().testApp.app.inject({ method: 'POST', url, headers, payload });
  const sendOtp = (number: string | number, headers = context().headers) =>
    post('/identity/send-otp', { number }, headers);
  const balance = async () => {
    const { testApp, headers, ownAccountId } = context();
    return (await getAccount(testApp.app, headers, ownAccountId)).accountBalance as number;
  };
  const start = async (number: string) => {
    const response = await post('/identity/v2', {
      type: 'NIN',
      number,
      debitAccountNumber: context().ownAccountNumber,
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().data as { _id: string; otpExpiresAt: string };
  };
  const validate = (identityId: string, otp: string) =>
    post('/identity/v2/validate', { identityId, type: 'NIN', otp });

  before(async () => {
    const { testApp, ownAccountNumber, otherAccountNumber } = context();
    await sandboxCredit(testApp.app, ownAccountNumber, 5_000);
    await sandboxCredit(testApp.app, otherAccountNumber, 1_000);
  });

  describe('200: a new OTP for your pending verification of the number', () => {
    it('POST /identity/send-otp { number } sends a new OTP for the pending verification', async () => {
      const started = await start(NIN);
      const charged = await balance();
      context().testApp.clock.advanceSeconds(60);
      const resent = await sendOtp(NIN);
      assert.equal(resent.statusCode, 200, resent.body);
      assert.equal(resent.json().message, 'OTP sent successfully.');
      const data = resent.json().data;
      assert.equal(data._id, started._id);
      assert.equal(data.status, 'SUCCESS');
      assert.equal(data.verificationStatus, 'Pending');
      assert.ok(data.otpExpiresAt > started.otpExpiresAt);
      assert.equal(await balance(), charged, 'a resent OTP is not charged');
      const validated = await validate(started._id, SANDBOX_OTP);
      assert.equal(validated.json().data.status, 'Verified');
    });

    it('takes the number as an integer too', async () => {
      const started = await start(NIN);
      const resent = await sendOtp(Number(NIN));
      assert.equal(resent.statusCode, 200, resent.body);
      assert.equal(resent.json().data._id, started._id);
    });

    it('a resend never buys more guesses: the wrong attempts already made still count', async () => {
      const started = await start(NIN);
      const max = context().testApp.config.identity.otpMaxAttempts;
      for (let attempt = 0; attempt < max - 1; attempt += 1) {
        assert.equal((await validate(started._id, '111111')).json().code, 'OTP_INVALID');
      }
      assert.equal((await sendOtp(NIN)).statusCode, 200);
      const last = await validate(started._id, '111111');
      assert.equal(last.json().code, 'OTP_ATTEMPTS_EXCEEDED');
      const right = await validate(started._id, SANDBOX_OTP);
      assert.equal(right.json().code, 'OTP_ATTEMPTS_EXCEEDED', 'the verification failed for good');
    });
  });

  describe('400 "Unable to locate record": no pending verification of the number', () => {
    it('a verified, an unknown, or another client’s pending number is not found', async () => {
      const verifiedNin = '12345678903';
      const started = await start(verifiedNin);
      assert.equal((await validate(started._id, SANDBOX_OTP)).statusCode, 200);
      const theirs = await verifyIdentity(
        context().testApp.app,
        context().otherHeaders,
        { type: 'NIN', number: '12345678902', debitAccountNumber: context().otherAccountNumber },
        false,
      );
      for (const number of [verifiedNin, '12345678999', '12345678902']) {
        const response = await sendOtp(number);
        assert.equal(response.statusCode, 400, `${number}: ${response.body}`);
        assert.equal(response.json().message, 'Unable to locate record');
        assert.equal(response.json().code, 'RECORD_NOT_FOUND');
      }
      const stillTheirs = await sendOtp('12345678902', context().otherHeaders);
      assert.equal(stillTheirs.statusCode, 200, stillTheirs.body);
      assert.equal(stillTheirs.json().data._id, theirs);
    });
  });

  describe('400: bad input', () => {
    it('refuses a missing, empty or non-string number', async () => {
      for (const payload of [{}, { number: '' }, { number: -1 }, { number: true }]) {
        const response = await post('/identity/send-otp', payload);
        assert.equal(response.statusCode, 400, `${JSON.stringify(payload)}: ${response.body}`);
      }
    });
  });

  describeAuthGuards(context, () => ({
    method: 'POST',
    url: '/identity/send-otp',
    payload: { number: NIN },
  }));
});

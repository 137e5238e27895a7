import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  SANDBOX_BVN,
  SANDBOX_OTP,
  sandboxCredit,
  verifyIdentity,
} from '../../../../test/factories.ts';
import {
  describeAuthGuards,
  describeRecordIsolation,
  useRouteContext,
} from '../../../../test/shared-route-tests.ts';

// Every sandbox OTP is 123456 (docs/sandbox-identity.md).
const BVN = SANDBOX_BVN;

describe('POST /identity/v2/validate', () => {
  const context = useRouteContext();

  async function pendingBvn(number = BVN) {
    const { testApp, headers, ownAccountNumber } = context();
    const id = await verifyIdentity(
      testApp.app,
      headers,
      { type: 'BVN', number, debitAccountNumber: ownAccountNumber },
      false,
    );
    return { _id: id };
  }

  const validate = (identityId: string, otp: string, type = 'BVN', headers = context().headers) =>
    context().testApp.app.inject({
      method: 'POST',
      url: '/identity/v2/validate',
      headers,
      payload: { identityId, type, otp },
    });

  before(async () => {
    const { testApp, ownAccountNumber, otherAccountNumber } = context();
    await sandboxCredit(testApp.app, ownAccountNumber, 5_000);
    await sandboxCredit(testApp.app, otherAccountNumber, 100);
  });

  describe('200: the right OTP verifies', () => {
    it('the right OTP verifies and shows the identity, with the phone masked', async () => {
      const pending = await pendingBvn();
      const response = await validate(pending._id, '123456');
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().message, 'Verification validated successfully.');
      const data = response.json().data;
      assert.equal(data.status, 'Verified');
      assert.equal(data.isVerified, true);
      assert.equal(typeof data.data.firstName, 'string');
      assert.match(data.data.dateOfBirth, /^\d{4}-\d{2}-\d{2}$/);
      assert.match(data.data.phoneNumber, /\*/);
      assert.equal(data.otpSentTo, null);
      // Validating again answers the same verification.
      const again = await validate(pending._id, '123456');
      assert.equal(again.statusCode, 200);
      assert.equal(again.json().data.verifiedAt, data.verifiedAt);
    });
  });

  describe('400: wrong, exhausted or expired OTPs', () => {
    it('a wrong OTP is refused; 000000 never validates', async () => {
      const pending = await pendingBvn();
      for (const otp of ['000000', '654321']) {
        const response = await validate(pending._id, otp);
        assert.equal(response.statusCode, 400);
        assert.equal(response.json().code, 'OTP_INVALID');
      }
      assert.equal((await validate(pending._id, '123456')).statusCode, 200);
    });

    it('after too many wrong OTPs even the right one is refused', async () => {
      const pending = await pendingBvn();
      const max = context().testApp.config.identity.otpMaxAttempts;
      const codes: string[] = [];
      for (let attempt = 0; attempt < max; attempt += 1) {
        codes.push((await validate(pending._id, '111111')).json().code);
      }
      assert.deepEqual(codes, [...Array(max - 1).fill('OTP_INVALID'), 'OTP_ATTEMPTS_EXCEEDED']);
      const right = await validate(pending._id, '123456');
      assert.equal(right.statusCode, 400);
      assert.equal(right.json().code, 'OTP_ATTEMPTS_EXCEEDED');
    });

    it('an expired OTP is refused', async () => {
      const pending = await pendingBvn();
      const { testApp } = context();
      const restore = testApp.clock.now();
      testApp.clock.advanceSeconds(testApp.config.identity.otpTtlSeconds);
      try {
        const response = await validate(pending._id, '123456');
        assert.equal(response.statusCode, 400);
        assert.equal(response.json().code, 'OTP_EXPIRED');
      } finally {
        testApp.clock.set(restore);
      }
    });

    it('refuses a malformed OTP or a missing field', async () => {
      const pending = await pendingBvn();
      for (const payload of [
        { identityId: pending._id, type: 'BVN', otp: '12ab56' },
        { identityId: pending._id, type: 'BVN' },
        { identityId: pending._id, otp: SANDBOX_OTP },
      ]) {
        const response = await context().testApp.app.inject({
          method: 'POST',
          url: '/identity/v2/validate',
          headers: context().headers,
          payload,
        });
        assert.equal(response.statusCode, 400, JSON.stringify(payload));
        assert.equal(response.json().code, 'VALIDATION_ERROR');
      }
    });
  });

  describe('400: not this verification', () => {
    it("another client's verification, an unknown id and a different type are refused", async () => {
      const pending = await pendingBvn();
      const foreign = await validate(pending._id, '123456', 'BVN', context().otherHeaders);
      assert.equal(foreign.statusCode, 400);
      assert.equal(foreign.json().message, 'Unable to locate record');
      assert.equal((await validate('0'.repeat(24), '123456')).statusCode, 400);
      const otherType = await validate(pending._id, '123456', 'NIN');
      assert.equal(otherType.json().code, 'IDENTITY_MISMATCH');
      assert.equal((await validate(pending._id, '123456')).json().data.status, 'Verified');
    });
  });

  describeAuthGuards(context, () => ({
    method: 'POST',
    url: '/identity/v2/validate',
    payload: { identityId: 'ffffffffffffffffffffffff', type: 'BVN', otp: SANDBOX_OTP },
  }));
  describeRecordIsolation(
    context,
    (id) => ({
      method: 'POST',
      url: '/identity/v2/validate',
      payload: { identityId: decodeURIComponent(id), type: 'BVN', otp: SANDBOX_OTP },
    }),
    {
      // The other client's pending verification, with the right OTP.
      foreignId: () => {
        const { testApp, otherHeaders, otherAccountNumber } = context();
        return verifyIdentity(
          testApp.app,
          otherHeaders,
          { type: 'BVN', number: BVN, debitAccountNumber: otherAccountNumber },
          false,
        );
      },
    },
  );
});

import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { sandboxCredit } from '../../../../test/factories.ts';
import {
  describeAuthGuards,
  describeRecordIsolation,
  useRouteContext,
} from '../../../../test/shared-route-tests.ts';

// Sandbox bureau magic (docs/sandbox-identity.md): …0000 not found, …9999 unavailable,
// …8888 mismatch; every sandbox OTP is 123456.
const BVN = '22212345671';
const NIN = '70012345672';

describe('identity API', () => {
  const context = useRouteContext();
  let account: { _id: string; accountNumber: string };

  const post = (url: string, payload: object, headers = context().headers) =>
    context().testApp.app.inject({ method: 'POST', url, headers, payload });

  async function accountNow(id = account._id) {
    const response = await context().testApp.app.inject({
      method: 'GET',
      url: `/accounts/${id}`,
      headers: context().headers,
    });
    return response.json().data as { accountBalance: number; bookBalance: number };
  }

  async function verificationCount() {
    const [row] = await context().testApp.db.query<{ count: bigint }>(
      'SELECT count(*) FROM identity_verifications',
    );
    return Number(row?.count);
  }

  const initiate = (body: Record<string, unknown>, headers = context().headers) =>
    post('/identity/v2', { debitAccountNumber: account.accountNumber, ...body }, headers);

  async function pendingBvn(number = BVN) {
    const response = await initiate({ type: 'BVN', number });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().data as { _id: string; status: string };
  }

  const validate = (identityId: string, otp: string, type = 'BVN', headers = context().headers) =>
    post('/identity/v2/validate', { identityId, type, otp }, headers);

  before(async () => {
    const { testApp, ownAccountId, headers } = context();
    const response = await testApp.app.inject({
      method: 'GET',
      url: `/accounts/${ownAccountId}`,
      headers,
    });
    account = response.json().data;
    await sandboxCredit(testApp.app, account.accountNumber, 5_000);
  });

  describe('POST /identity/v2', () => {
    it('BVN: charges fee and VAT, sends the OTP, answers a Pending verification', async () => {
      const before = await accountNow();
      const response = await initiate({ type: 'BVN', number: BVN });
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      assert.equal(body.message, 'Verification initiated successfully.');
      const data = body.data;
      assert.match(data._id, /^[0-9a-f]{24}$/);
      assert.equal(data.type, 'BVN');
      assert.equal(data.number, '*******5671');
      assert.equal(data.status, 'SUCCESS', 'the initiation reached the bureau and sent the OTP');
      assert.equal(data.verificationStatus, 'Pending');
      assert.equal(data.isVerified, false);
      assert.equal(data.data, null, 'no identity data before the OTP');
      assert.match(data.otpSentTo, /^\+234\d{3}\*+\d{3}$/);
      assert.equal(data.fee, 25);
      assert.equal(data.vat, 1.88);
      assert.equal(data.debitAccountNumber, account.accountNumber);
      assert.equal((await accountNow()).bookBalance, before.bookBalance - 26.88);
    });

    it('CAC and CREDITCHECK verify at once and show what the bureau returned', async () => {
      const cac = (await initiate({ type: 'CAC', number: 'RC1234567' })).json().data;
      assert.equal(cac.status, 'SUCCESS');
      assert.equal(cac.verificationStatus, 'Verified');
      assert.equal(typeof cac.data.companyName, 'string');
      assert.ok(cac.data.directors.length >= 1);
      assert.equal('bvn' in cac.data.directors[0], false, 'directors’ BVNs stay private');
      const credit = await initiate({ type: 'CREDITCHECK', number: BVN, provider: 'firstCentral' });
      assert.equal(credit.statusCode, 200, credit.body);
      assert.equal(credit.json().data.data.provider, 'firstCentral');
      assert.equal(typeof credit.json().data.data.score, 'number');
    });

    it('refuses what the bureau cannot find, contradicts or cannot answer, charging nothing', async () => {
      const before = await accountNow();
      const count = await verificationCount();
      const cases = [
        ['22212340000', 400, 'IDENTITY_NOT_FOUND'],
        ['22212348888', 400, 'IDENTITY_MISMATCH'],
        ['22212349999', 402, 'IDENTITY_BUREAU_UNAVAILABLE'],
      ] as const;
      for (const [number, status, code] of cases) {
        const response = await initiate({ type: 'NIN', number });
        assert.equal(response.statusCode, status, `${number}: ${response.body}`);
        assert.equal(response.json().code, code);
      }
      assert.deepEqual(await accountNow(), before);
      assert.equal(await verificationCount(), count);
    });

    it('asks for what each type needs: verifierId (vNIN), provider (CREDITCHECK), otp (BVNUSSD)', async () => {
      for (const body of [
        { type: 'vNIN', number: 'AB12CD34EF56GH78' },
        { type: 'CREDITCHECK', number: BVN },
        { type: 'BVNUSSD', number: BVN },
        { type: 'PASSPORT', number: BVN },
      ]) {
        const response = await initiate(body);
        assert.equal(response.statusCode, 400, JSON.stringify(body));
      }
    });

    it('402 when the account cannot pay the fee, and nothing is created', async () => {
      const { testApp, headers } = context();
      const empty = (
        await testApp.app.inject({ method: 'POST', url: '/accounts', headers, payload: {} })
      ).json().data;
      const count = await verificationCount();
      const response = await post('/identity/v2', {
        type: 'NIN',
        number: NIN,
        debitAccountNumber: empty.accountNumber,
      });
      assert.equal(response.statusCode, 402);
      assert.equal(response.json().code, 'INSUFFICIENT_FUNDS');
      assert.equal(await verificationCount(), count);
    });

    it("refuses another client's account as the debit account", async () => {
      const response = await initiate({ type: 'BVN', number: BVN }, context().otherHeaders);
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().message, 'Unable to locate record');
    });
  });

  describe('POST /identity/v2/validate', () => {
    it('the right OTP verifies and shows the identity, with the phone masked', async () => {
      const pending = await pendingBvn();
      const response = await validate(pending._id, '123456');
      assert.equal(response.statusCode, 200, response.body);
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
      testApp.clock.advanceSeconds(testApp.config.identity.otpTtlSeconds);
      const response = await validate(pending._id, '123456');
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().code, 'OTP_EXPIRED');
    });

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
    url: '/identity/v2',
    payload: { type: 'BVN', number: BVN, debitAccountNumber: '0000000000' },
  }));
  describeRecordIsolation(context, (id) => ({
    method: 'POST',
    url: '/identity/v2/validate',
    payload: { identityId: id, type: 'BVN', otp: '123456' },
  }));
});

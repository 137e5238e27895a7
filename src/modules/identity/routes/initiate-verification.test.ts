import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { getAccount, SANDBOX_BVN, sandboxCredit } from '../../../../test/factories.ts';
import { describeAuthGuards, useRouteContext } from '../../../../test/shared-route-tests.ts';

// Sandbox bureau magic (docs/sandbox-identity.md): …0000 not found, …9999 unavailable,
// …8888 mismatch; every sandbox OTP is 123456.
const BVN = SANDBOX_BVN;
const NIN = '70012345672';

describe('POST /identity/v2 (and the legacy /identity, /identity/)', () => {
  const context = useRouteContext();
  let account: { _id: string; accountNumber: string };

  const post = (url: string, payload: object, headers = context().headers) =>
    context().testApp.app.inject({ method: 'POST', url, headers, payload });
  const accountNow = async (id = account._id) =>
    (await getAccount(context().testApp.app, context().headers, id)) as {
      accountBalance: number;
      bookBalance: number;
    };

  async function verificationCount() {
    const [row] = await context().testApp.db.query<{ count: bigint }>(
      'SELECT count(*) FROM identity_verifications',
    );
    return Number(row?.count);
  }

  const initiate = (body: Record<string, unknown>, headers = context().headers) =>
    post('/identity/v2', { debitAccountNumber: account.accountNumber, ...body }, headers);

  before(async () => {
    const { testApp, ownAccountId, ownAccountNumber } = context();
    account = { _id: ownAccountId, accountNumber: ownAccountNumber };
    await sandboxCredit(testApp.app, account.accountNumber, 5_000);
  });

  describe('200: the check is charged and initiated', () => {
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

    it('the legacy /identity and /identity/ take the v2 body and answer the same', async () => {
      for (const url of ['/identity', '/identity/']) {
        const before = await accountNow();
        const response = await post(url, {
          type: 'BVN',
          number: BVN,
          debitAccountNumber: account.accountNumber,
        });
        assert.equal(response.statusCode, 200, `${url}: ${response.body}`);
        const data = response.json().data;
        assert.equal(data.status, 'SUCCESS', url);
        assert.equal(data.verificationStatus, 'Pending', url);
        assert.equal(data.number, '*******5671', url);
        assert.equal((await accountNow()).bookBalance, before.bookBalance - 26.88, url);
      }
    });

    it('takes the number as an integer too', async () => {
      const response = await initiate({ type: 'BVN', number: Number(BVN) });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().data.number, '*******5671');
    });
  });

  describe('400: what the bureau cannot find or contradicts, and what a type needs', () => {
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

    it("refuses another client's account as the debit account", async () => {
      const response = await initiate({ type: 'BVN', number: BVN }, context().otherHeaders);
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().message, 'Unable to locate record');
    });
  });

  describe('400 and 402: bureau refusals charge nothing', () => {
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
  });

  describe('402: the debit account cannot pay the fee', () => {
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
  });

  for (const url of ['/identity/v2', '/identity', '/identity/']) {
    describe(url, () => {
      describeAuthGuards(context, () => ({
        method: 'POST',
        url,
        payload: { type: 'BVN', number: BVN, debitAccountNumber: '0000000000' },
      }));
    });
  }
});

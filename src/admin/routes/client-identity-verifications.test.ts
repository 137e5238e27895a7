import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  adminHeaders,
  individualSubAccountBody,
  SANDBOX_BVN,
  SANDBOX_OTP,
  sandboxCredit,
  verifyIdentity,
} from '../../../test/factories.ts';
import {
  describeAdminAuthGuards,
  describeAdminRecordIsolation,
  useRouteContext,
} from '../../../test/shared-route-tests.ts';

// Sandbox identities (docs/sandbox-identity.md).
const NIN = '12345678901';
const RC = 'RC1234567';
/** A director of RC1234567: CHIDI ADEBOLA BALOGUN. */
const DIRECTOR_BVN = '21012345671';
const OTHER_CLIENTS_BVN = '22012345672';

interface Listed {
  _id: string;
  client: string;
  type: string;
  number: string;
  status: string;
  isVerified: boolean;
  name: string | null;
  accounts: { _id: string; accountNumber: string; as: 'holder' | 'director' }[];
}

describe('GET /admin/clients/:id/identity-verifications', () => {
  const context = useRouteContext();
  const list = (clientId: string, query = '') =>
    context().testApp.app.inject({
      method: 'GET',
      url: `/admin/clients/${clientId}/identity-verifications${query}`,
      headers: adminHeaders,
    });

  /** The own client's verifications (oldest first) and accounts, and the other client's one. */
  const made = { bvn: '', nin: '', cac: '', director: '', theirs: '' };
  const opened = {
    individual: { _id: '', accountNumber: '' },
    corporate: { _id: '', accountNumber: '' },
  };

  before(async () => {
    const { testApp, headers, ownAccountNumber, otherHeaders, otherAccountNumber } = context();
    await sandboxCredit(testApp.app, ownAccountNumber, 10_000);
    await sandboxCredit(testApp.app, otherAccountNumber, 10_000);
    const check = async (type: string, number: string, validate = true) => {
      // A second apart, so newest first is one order.
      testApp.clock.advanceSeconds(1);
      return verifyIdentity(
        testApp.app,
        headers,
        { type, number, debitAccountNumber: ownAccountNumber },
        validate,
      );
    };
    const subAccount = async (payload: Record<string, unknown>) => {
      const response = await testApp.app.inject({
        method: 'POST',
        url: '/accounts/subaccount',
        headers,
        payload,
      });
      assert.equal(response.statusCode, 200, response.body);
      const { _id, accountNumber } = response.json().data;
      return { _id, accountNumber };
    };
    made.bvn = await check('BVN', SANDBOX_BVN);
    opened.individual = await subAccount(individualSubAccountBody(made.bvn));
    made.nin = await check('NIN', NIN, false);
    made.cac = await check('CAC', RC);
    made.director = await check('BVN', DIRECTOR_BVN);
    opened.corporate = await subAccount({
      phoneNumber: '+2348112345678',
      emailAddress: 'finance@company.example',
      externalReference: 'ADMIN-CORP-1',
      identityType: 'CAC',
      identityNumber: RC,
      identityId: made.cac,
      directorIdentityIds: [made.director],
    });
    made.theirs = await verifyIdentity(testApp.app, otherHeaders, {
      type: 'BVN',
      number: OTHER_CLIENTS_BVN,
      debitAccountNumber: otherAccountNumber,
    });
  });

  describe("200: the client's verifications, newest first, masked", () => {
    it('shows type, status, the masked number, the verified name and the accounts opened with it', async () => {
      const { ibsClientId } = context();
      const response = await list(ibsClientId);
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      assert.equal(body.message, 'Identity verifications fetched successfully.');
      const data = body.data as Listed[];
      assert.deepEqual(
        data.map((item) => item._id),
        [made.director, made.cac, made.nin, made.bvn],
      );
      assert.deepEqual(body.pagination, { total: 4, pages: 1, page: '0', limit: '25' });
      assert.ok(data.every((item) => item.client === ibsClientId));
      const [director, cac, nin, bvn] = data;

      assert.equal(bvn?.type, 'BVN');
      assert.equal(bvn?.status, 'Verified');
      assert.equal(bvn?.number, '*******5671');
      assert.equal(bvn?.name, 'CHIDI ADEBOLA BALOGUN');
      assert.deepEqual(bvn?.accounts, [{ ...opened.individual, as: 'holder' }]);

      assert.equal(nin?.type, 'NIN');
      assert.equal(nin?.status, 'Pending');
      assert.equal(nin?.isVerified, false);
      assert.equal(nin?.number, '*******8901');
      assert.equal(nin?.name, null, 'no name before the OTP is validated');
      assert.deepEqual(nin?.accounts, []);

      assert.equal(cac?.type, 'CAC');
      assert.equal(cac?.number, '*****4567');
      assert.equal(cac?.name, 'OBIOMA PHARMACY LIMITED');
      assert.deepEqual(cac?.accounts, [{ ...opened.corporate, as: 'holder' }]);

      assert.equal(director?.number, '*******5671');
      assert.deepEqual(director?.accounts, [{ ...opened.corporate, as: 'director' }]);
    });

    it('never shows a full number, an OTP, a phone number or the identity data', async () => {
      const { ibsClientId } = context();
      const response = await list(ibsClientId);
      assert.equal(response.statusCode, 200, response.body);
      for (const secret of [SANDBOX_BVN, NIN, RC, DIRECTOR_BVN, '+2348032221234', '8032221234']) {
        assert.ok(!response.body.includes(secret), `${secret} appears in ${response.body}`);
      }
      for (const item of response.json().data) {
        for (const key of ['otp', 'otpDigest', 'otpSentTo', 'otpExpiresAt', 'data', 'record']) {
          assert.equal(key in item, false, key);
        }
      }
      // Nothing about the OTP at all: not the code, its digest, where it went or when it ends.
      assert.ok(!response.body.toLowerCase().includes('otp'));
      assert.ok(!response.body.includes(`"${SANDBOX_OTP}"`));
    });

    it("never lists another client's verifications", async () => {
      const { ibsClientId, otherHeaders } = context();
      const ids = (await list(ibsClientId)).json().data.map((item: Listed) => item._id);
      assert.ok(!ids.includes(made.theirs));
      const theirs = await list(otherHeaders.clientid ?? '');
      assert.deepEqual(
        theirs.json().data.map((item: Listed) => item._id),
        [made.theirs],
      );
      assert.ok(!theirs.body.includes(OTHER_CLIENTS_BVN));
    });

    it('pages with page (0-based) and limit', async () => {
      const { ibsClientId } = context();
      const response = await list(ibsClientId, '?page=1&limit=3');
      assert.deepEqual(
        response.json().data.map((item: Listed) => item._id),
        [made.bvn],
      );
      assert.deepEqual(response.json().pagination, {
        total: 4,
        pages: 2,
        page: '1',
        limit: '3',
      });
    });
  });

  describe('400: bad paging', () => {
    it('refuses a limit out of range and a negative page', async () => {
      const { ibsClientId } = context();
      for (const query of ['?limit=0', '?limit=101', '?page=-1']) {
        assert.equal((await list(ibsClientId, query)).statusCode, 400, query);
      }
    });
  });

  const request = (id: string) => ({
    method: 'GET' as const,
    url: `/admin/clients/${id}/identity-verifications`,
  });
  describeAdminAuthGuards(context, request);
  describeAdminRecordIsolation(context, request);
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeAuthGuards, useRouteContext } from '../../../../test/shared-route-tests.ts';
import { isValidNuban } from '../../../shared/nuban.ts';

describe('POST /accounts', () => {
  const context = useRouteContext();
  const create = (payload: unknown) =>
    context().testApp.app.inject({
      method: 'POST',
      url: '/accounts',
      headers: context().headers,
      payload: payload as Record<string, unknown>,
    });

  describe('200 (statusCode 200, as the published API): opens an account under your own profile', () => {
    it('creates a zero-balance account with a valid NUBAN, as the SDKs send it', async () => {
      const response = await create({
        accountType: 'Savings',
        suffix: 'Wallet 12345',
        metadata: { customerId: 42 },
      });
      assert.equal(response.statusCode, 200, response.body);
      const { data, statusCode } = response.json();
      assert.equal(statusCode, 200);
      assert.equal(data.accountName, 'ACME LTD / Wallet 12345');
      assert.equal(data.accountType, 'Savings');
      assert.equal(data.accountBalance, 0);
      assert.equal(data.isSubAccount, false);
      assert.deepEqual(data.metadata, { customerId: 42 });
      assert.ok(isValidNuban('999240', data.accountNumber), data.accountNumber);
      const fetched = await context().testApp.app.inject({
        method: 'GET',
        url: `/accounts/${data._id}`,
        headers: context().headers,
      });
      assert.equal(fetched.json().data.accountNumber, data.accountNumber);
    });

    it('accepts metadata JSON-encoded as a string (PHP SDK)', async () => {
      const response = await create({ metadata: '{"source":"php"}' });
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(response.json().data.metadata, { source: 'php' });
      assert.equal(response.json().data.accountType, 'Current');
    });

    it('ignores protected fields in the body (balance, client, status)', async () => {
      const response = await create({
        accountBalance: 1_000_000,
        client: 'ffffffffffffffffffffffff',
        status: 'Frozen',
        kycLevel: '3',
      });
      assert.equal(response.statusCode, 200);
      const { data } = response.json();
      assert.equal(data.accountBalance, 0);
      assert.equal(data.client, context().ibsClientId);
      assert.equal(data.status, 'Active');
      assert.equal(data.kycLevel, '3');
    });

    it('gives every account a distinct number', async () => {
      const numbers = new Set<string>();
      for (let index = 0; index < 5; index += 1) {
        numbers.add((await create({})).json().data.accountNumber);
      }
      assert.equal(numbers.size, 5);
    });
  });

  describe('400: bad input', () => {
    const cases: [string, unknown][] = [
      ['an unknown accountType', { accountType: 'Checking' }],
      ['a metadata string that is not a JSON object', { metadata: '[1,2]' }],
      ['a metadata string that is not JSON', { metadata: 'hello' }],
      ['an over-long suffix', { suffix: 'x'.repeat(41) }],
      ['oversized metadata', { metadata: { blob: 'x'.repeat(9000) } }],
    ];
    for (const [label, payload] of cases) {
      it(`refuses ${label}`, async () => {
        const response = await create(payload);
        assert.equal(response.statusCode, 400, response.body);
        assert.equal(response.json().code, 'VALIDATION_ERROR');
      });
    }

    it('refuses malformed JSON with a 400 envelope', async () => {
      const response = await context().testApp.app.inject({
        method: 'POST',
        url: '/accounts',
        headers: { ...context().headers, 'content-type': 'application/json' },
        payload: '{"suffix":',
      });
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().statusCode, 400);
    });
  });

  describeAuthGuards(context, () => ({ method: 'POST', url: '/accounts', payload: {} }));
});

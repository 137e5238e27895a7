import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { OTHER_BANK, sandboxCredit, sendTransfer } from '../../../../test/factories.ts';
import { describeAuthGuards, useRouteContext } from '../../../../test/shared-route-tests.ts';

describe('GET /transfers/beneficiaries', () => {
  const context = useRouteContext();

  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    context().testApp.app.inject({
      method,
      url,
      headers: context().headers,
      ...(payload ? { payload } : {}),
    });
  const list = async (query = '?limit=100', headers = context().headers) =>
    (
      await context().testApp.app.inject({
        method: 'GET',
        url: `/transfers/beneficiaries${query}`,
        headers,
      })
    ).json();

  async function nipTo(accountNumber: string, amount: number, saveBeneficiary = true) {
    const response = await sendTransfer(context().testApp.app, context().headers, {
      debitAccountNumber: context().ownAccountNumber,
      beneficiaryAccountNumber: accountNumber,
      amount,
      saveBeneficiary,
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().data;
  }
  async function saved(accountNumber: string) {
    return (await list()).data.some(
      (item: { accountNumber: string }) => item.accountNumber === accountNumber,
    );
  }

  before(async () => {
    const { testApp, ownAccountNumber } = context();
    await sandboxCredit(testApp.app, ownAccountNumber, 5_000);
  });

  describe('200: your saved beneficiaries, newest first', () => {
    it('lists a beneficiary saved by a completed transfer, with its bank name', async () => {
      assert.equal((await nipTo('0000000012', 10)).status, 'Completed');
      const body = await list('');
      assert.equal(body.message, 'Beneficiaries fetched successfully.');
      const [beneficiary] = body.data;
      assert.equal(beneficiary.accountNumber, '0000000012');
      assert.equal(beneficiary.accountName, 'CHIDI OKAFOR');
      assert.equal(beneficiary.bankCode, OTHER_BANK);
      assert.equal(beneficiary.bankName, 'Guaranty Trust Bank');
      assert.equal(beneficiary.client, context().ibsClientId);
      assert.deepEqual(body.pagination, { total: 1, pages: 1, page: '0', limit: '25' });
    });

    it('saves one beneficiary per account however often you pay it', async () => {
      const before = (await list()).pagination.total;
      await nipTo('0000000012', 11);
      assert.equal((await list()).pagination.total, before);
    });

    it('saves nothing when saveBeneficiary is false', async () => {
      assert.equal((await nipTo('0000000013', 10, false)).status, 'Completed');
      assert.equal(await saved('0000000013'), false);
    });

    it('pages with page and limit, newest first', async () => {
      context().testApp.clock.advanceSeconds(1);
      await nipTo('0000000014', 10);
      const first = await list('?page=0&limit=1');
      assert.equal(first.data[0].accountNumber, '0000000014');
      assert.deepEqual(first.pagination, { total: 2, pages: 2, page: '0', limit: '1' });
      const second = await list('?page=1&limit=1');
      assert.equal(second.data[0].accountNumber, '0000000012');
    });

    it("lists none of another client's beneficiaries", async () => {
      assert.deepEqual((await list('', context().otherHeaders)).data, []);
    });
  });

  describe('200: a beneficiary is saved only after a successful transfer', () => {
    it('a failed NIP transfer saves nothing', async () => {
      assert.equal((await nipTo('0123456781', 20.05)).status, 'Failed');
      assert.equal(await saved('0123456781'), false);
    });

    it('a Processing NIP transfer saves it when the status query answers 00', async () => {
      const sent = await nipTo('0123456782', 20.97);
      assert.equal(sent.status, 'Processing');
      assert.equal(await saved('0123456782'), false);
      const settled = await call('POST', '/transfers/tqs', { sessionId: sent.sessionId });
      assert.equal(settled.json().data.status, 'Completed');
      assert.equal(await saved('0123456782'), true);
    });
  });

  describe('400: pagination out of range', () => {
    for (const query of ['?limit=0', '?page=-1', '?limit=abc']) {
      it(`refuses ${query}`, async () => {
        const response = await call('GET', `/transfers/beneficiaries${query}`);
        assert.equal(response.statusCode, 400, response.body);
      });
    }
  });

  describeAuthGuards(context, () => ({ method: 'GET', url: '/transfers/beneficiaries' }));
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { virtualAccountBody } from '../../../../test/factories.ts';
import { describeAuthGuards, useRouteContext } from '../../../../test/shared-route-tests.ts';
import { isValidNuban } from '../../../shared/nuban.ts';

describe('POST /virtual-accounts', () => {
  const context = useRouteContext();
  const create = (body: object, headers = context().headers) =>
    context().testApp.app.inject({
      method: 'POST',
      url: '/virtual-accounts',
      headers,
      payload: body,
    });

  describe('200: the virtual account', () => {
    it('answers the published fields, a NUBAN of ours and a 15-minute window by default', async () => {
      const { ownAccountNumber, ibsClientId } = context();
      const body = virtualAccountBody(ownAccountNumber, { validFor: undefined });
      const response = await create(body);
      assert.equal(response.statusCode, 200, response.body);
      const envelope = response.json();
      assert.equal(envelope.statusCode, 200);
      assert.equal(envelope.message, 'Virtual account created successfully.');
      const account = envelope.data;
      assert.match(account._id, /^[0-9a-f]{24}$/);
      assert.equal(account.client, ibsClientId);
      assert.ok(isValidNuban('999240', account.accountNumber), account.accountNumber);
      assert.notEqual(account.accountNumber, ownAccountNumber);
      assert.equal(account.bankCode, '999240');
      assert.deepEqual(account.bank, { name: 'Safe Haven Sandbox Bank', nipCode: '999240' });
      assert.equal(account.currencyCode, 'NGN');
      assert.equal(account.validFor, 900);
      assert.equal(account.amountControl, 'Fixed');
      assert.equal(account.amount, 2500);
      assert.equal(account.amountPaid, 0);
      assert.equal(
        Date.parse(account.expiryDate) - Date.parse(account.createdAt),
        900_000,
        'expires validFor seconds after creation',
      );
      assert.equal(account.callbackUrl, body.callbackUrl);
      assert.deepEqual(account.settlementAccount, {
        bankCode: '999240',
        accountNumber: ownAccountNumber,
      });
      assert.equal(account.externalReference, body.externalReference);
      assert.equal(account.status, 'Active');
      assert.equal(account.isDeleted, false);
    });

    it("names it after the client, with the requested name after the client's", async () => {
      const { ownAccountNumber } = context();
      const plain = (await create(virtualAccountBody(ownAccountNumber))).json().data;
      const named = (
        await create(virtualAccountBody(ownAccountNumber, { accountName: 'Order 77' }))
      ).json().data;
      assert.equal(named.accountName, `${plain.accountName} / Order 77`);
    });

    it('takes the amount as kobo / 100 with decimals, or as a decimal string', async () => {
      const { ownAccountNumber } = context();
      for (const amount of [1234.56, '1234.56']) {
        const response = await create(virtualAccountBody(ownAccountNumber, { amount }));
        assert.equal(response.statusCode, 200, response.body);
        assert.equal(response.json().data.amount, 1234.56);
      }
    });

    it('replays the same body under the same externalReference (any key order)', async () => {
      const { ownAccountNumber } = context();
      const body = virtualAccountBody(ownAccountNumber);
      const first = (await create(body)).json().data;
      const reordered = Object.fromEntries(Object.entries(body).reverse());
      const again = await create(reordered);
      assert.equal(again.statusCode, 200);
      assert.equal(again.json().data._id, first._id);
      assert.equal(again.json().data.accountNumber, first.accountNumber);
    });

    it('uses the webhook URL when callbackUrl is "" and one is set', async () => {
      const { ownAccountNumber, headers, testApp } = context();
      const set = await testApp.app.inject({
        method: 'PUT',
        url: '/webhooks/settings',
        headers,
        payload: { url: 'https://merchant.example.com/hooks/all' },
      });
      assert.equal(set.statusCode, 200, set.body);
      const response = await create(
        virtualAccountBody(ownAccountNumber, { callbackUrl: '', externalReference: undefined }),
      );
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().data.callbackUrl, null);
      assert.equal(response.json().data.externalReference, null);
    });
  });

  describe('400: what it refuses', () => {
    it('"" as callbackUrl when the client has no webhook URL, naming the field', async () => {
      const { otherAccountNumber, otherHeaders } = context();
      const response = await create(
        virtualAccountBody(otherAccountNumber, { callbackUrl: '' }),
        otherHeaders,
      );
      assert.equal(response.statusCode, 400);
      assert.match(response.json().message, /callbackUrl/);
    });

    it("a settlement account at another bank code, naming this bank's code", async () => {
      const { ownAccountNumber } = context();
      const body = virtualAccountBody(ownAccountNumber);
      const response = await create({
        ...body,
        settlementAccount: { bankCode: '090286', accountNumber: ownAccountNumber },
      });
      assert.equal(response.statusCode, 400);
      assert.match(response.json().message, /999240/);
    });

    it("another client's account, or no account, as the settlement account", async () => {
      const { otherAccountNumber } = context();
      for (const accountNumber of [otherAccountNumber, '0000000000']) {
        const response = await create(virtualAccountBody(accountNumber));
        assert.equal(response.statusCode, 400);
        assert.match(response.json().message, /settlementAccount\.accountNumber/);
      }
    });

    it('a window outside the configured bounds, and amounts that are not money', async () => {
      const { ownAccountNumber } = context();
      const bodies = [
        { validFor: 0 },
        { validFor: 10 },
        { validFor: 400 * 86_400 },
        { validFor: 1.5 },
        { amount: 0 },
        { amount: -5 },
        { amount: 10.001 },
        { amount: 'ten' },
        { amountControl: 'Whatever' },
      ];
      for (const extra of bodies) {
        const response = await create(virtualAccountBody(ownAccountNumber, extra));
        assert.equal(response.statusCode, 400, `${JSON.stringify(extra)}: ${response.body}`);
        assert.equal(response.json().statusCode, 400);
      }
    });

    it('a callbackUrl the webhook destination guard refuses', async () => {
      const { ownAccountNumber } = context();
      for (const callbackUrl of ['ftp://merchant.example.com/x', 'https://u:p@example.com/x']) {
        const response = await create(virtualAccountBody(ownAccountNumber, { callbackUrl }));
        assert.equal(response.statusCode, 400, callbackUrl);
      }
    });
  });

  describe('409: an externalReference already used for another body', () => {
    it('refuses it, creating nothing', async () => {
      const { ownAccountNumber } = context();
      const body = virtualAccountBody(ownAccountNumber);
      assert.equal((await create(body)).statusCode, 200);
      const response = await create({ ...body, amount: 99 });
      assert.equal(response.statusCode, 409);
      assert.match(response.json().message, /externalReference/);
    });
  });

  describeAuthGuards(context, () => ({
    method: 'POST',
    url: '/virtual-accounts',
    payload: virtualAccountBody('0000000000'),
  }));
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ussdReferenceBody } from '../../../../test/factories.ts';
import { describeAuthGuards, useRouteContext } from '../../../../test/shared-route-tests.ts';

describe('POST /ussd-payment', () => {
  const context = useRouteContext();
  const create = (payload: Record<string, unknown>, headers = context().headers) =>
    context().testApp.app.inject({ method: 'POST', url: '/ussd-payment', headers, payload });
  const countReferences = async () =>
    (
      await context().testApp.app.inject({
        method: 'GET',
        url: '/ussd-payment',
        headers: context().headers,
      })
    ).json().pagination.total as number;

  describe('200', () => {
    it('answers a 10-digit reference, the string to dial at the bank, the amount and a 15-minute expiry', async () => {
      const { testApp, ownAccountNumber } = context();
      const response = await create(ussdReferenceBody(ownAccountNumber));
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      assert.equal(body.statusCode, 200);
      assert.equal(body.message, 'USSD reference created successfully.');
      const reference = body.data;
      assert.match(reference._id, /^[0-9a-f]{24}$/);
      assert.match(reference.reference, /^\d{10}$/);
      assert.equal(reference.ussdString, `*737*000*${reference.reference}#`);
      assert.equal(reference.ussdBankCode, '737');
      assert.equal(reference.bankName, 'Guaranty Trust Bank');
      assert.equal(reference.merchantName, 'Acme Stores');
      assert.equal(reference.amount, 1500);
      assert.equal(reference.currencyCode, 'NGN');
      assert.equal(reference.status, 'Pending');
      assert.equal(reference.payment, null);
      assert.equal(reference.callbackUrl, 'https://merchant.example.com/hooks/ussd');
      assert.deepEqual(reference.settlementAccount, {
        bankCode: '999240',
        accountNumber: ownAccountNumber,
      });
      const created = new Date(reference.createdAt).getTime();
      assert.equal(created, testApp.clock.now().getTime());
      assert.equal(new Date(reference.expiresAt).getTime() - created, 900_000);
    });

    it('takes the amount as a decimal string or a number, and the bank as dialled (*901#)', async () => {
      const { ownAccountNumber } = context();
      const cases: [unknown, number][] = [
        ['2500.5', 2500.5],
        ['99', 99],
        [0.01, 0.01],
        [1234.56, 1234.56],
      ];
      for (const [amount, expected] of cases) {
        const response = await create(
          ussdReferenceBody(ownAccountNumber, { amount, ussdBankCode: '*901#' }),
        );
        assert.equal(response.statusCode, 200, `${amount}: ${response.body}`);
        assert.equal(response.json().data.amount, expected);
        assert.equal(response.json().data.ussdBankCode, '901');
        assert.match(response.json().data.ussdString, /^\*901\*000\*\d{10}#$/);
      }
    });

    it('gives every reference its own digits', async () => {
      const { ownAccountNumber } = context();
      const references = new Set<string>();
      for (let index = 0; index < 20; index++) {
        references.add((await create(ussdReferenceBody(ownAccountNumber))).json().data.reference);
      }
      assert.equal(references.size, 20);
    });
  });

  describe('400: refused, creating nothing', () => {
    const refuses = async (payload: Record<string, unknown>, pattern: RegExp, label: string) => {
      const before = await countReferences();
      const response = await create(payload);
      assert.equal(response.statusCode, 400, `${label}: ${response.body}`);
      assert.equal(response.json().statusCode, 400);
      assert.match(response.json().message, pattern, label);
      assert.equal(await countReferences(), before, label);
    };

    it('a bank that is not in the USSD bank list, naming the field', async () => {
      const { ownAccountNumber } = context();
      for (const ussdBankCode of ['000', '000013', '*737*000#', '']) {
        await refuses(
          ussdReferenceBody(ownAccountNumber, { ussdBankCode }),
          /ussdBankCode/,
          ussdBankCode,
        );
      }
    });

    it("a settlement account at another bank code, naming this bank's code", async () => {
      const { ownAccountNumber } = context();
      await refuses(
        ussdReferenceBody(ownAccountNumber, {
          settlementAccount: { bankCode: '000013', accountNumber: ownAccountNumber },
        }),
        /999240/,
        'another bank',
      );
    });

    it("another client's account, or no account, as the settlement account", async () => {
      const { otherAccountNumber } = context();
      for (const accountNumber of [otherAccountNumber, '0000000000']) {
        await refuses(
          ussdReferenceBody(accountNumber),
          /settlementAccount\.accountNumber/,
          accountNumber,
        );
      }
    });

    it('amounts that are not money', async () => {
      const { ownAccountNumber } = context();
      for (const amount of [0, -5, '0.00', 10.001, '1,500', 'ten', '', '1e3', null, true]) {
        const response = await create(ussdReferenceBody(ownAccountNumber, { amount }));
        assert.equal(response.statusCode, 400, `${JSON.stringify(amount)}: ${response.body}`);
      }
    });

    it('a missing required field, or a blank merchant name', async () => {
      const { ownAccountNumber } = context();
      const body = ussdReferenceBody(ownAccountNumber);
      for (const field of Object.keys(body)) {
        const { [field]: _, ...rest } = body as Record<string, unknown>;
        const response = await create(rest);
        assert.equal(response.statusCode, 400, `without ${field}: ${response.body}`);
      }
      const blank = await create(ussdReferenceBody(ownAccountNumber, { merchantName: '   ' }));
      assert.equal(blank.statusCode, 400, blank.body);
    });

    it('a callbackUrl the webhook destination guard refuses', async () => {
      const { ownAccountNumber } = context();
      for (const callbackUrl of ['ftp://merchant.example.com/x', 'https://u:p@example.com/x']) {
        const response = await create(ussdReferenceBody(ownAccountNumber, { callbackUrl }));
        assert.equal(response.statusCode, 400, callbackUrl);
      }
    });
  });

  describe('402: the gateway cannot issue a reference', () => {
    it('answers USSD_GATEWAY_UNAVAILABLE and stores nothing (sandbox amount ending .55)', async () => {
      const { ownAccountNumber } = context();
      const before = await countReferences();
      const response = await create(ussdReferenceBody(ownAccountNumber, { amount: '1000.55' }));
      assert.equal(response.statusCode, 402, response.body);
      assert.equal(response.json().code, 'USSD_GATEWAY_UNAVAILABLE');
      assert.equal(await countReferences(), before);
    });
  });

  describeAuthGuards(context, () => ({
    method: 'POST',
    url: '/ussd-payment',
    payload: ussdReferenceBody('0000000000'),
  }));
});

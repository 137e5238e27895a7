import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeAuthGuards, useRouteContext } from '../../../../test/shared-route-tests.ts';
import { findBank } from '../../transfers/index.ts';

describe('GET /ussd-payment/banks', () => {
  const context = useRouteContext();
  const list = async () => {
    const { testApp, headers } = context();
    return testApp.app.inject({ method: 'GET', url: '/ussd-payment/banks', headers });
  };

  it('answers the published message and every bank with what creating a reference needs', async () => {
    const response = await list();
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json();
    assert.equal(body.statusCode, 200);
    assert.equal(body.message, 'Banks fetched Successfully');
    assert.equal(body.pagination, undefined, 'the list is not paginated');
    assert.equal(body.data.length, 15);
    const gtbank = body.data.find((bank: { ussdBankCode: string }) => bank.ussdBankCode === '737');
    assert.deepEqual(gtbank, {
      bankName: 'Guaranty Trust Bank',
      ussdBankCode: '737',
      ussdCode: '*737#',
      bankCode: '000013',
    });
  });

  it('lists each bank once, by name, with codes that agree with the transfers bank list', async () => {
    const banks = (await list()).json().data as {
      bankName: string;
      ussdBankCode: string;
      ussdCode: string;
      bankCode: string;
    }[];
    const names = banks.map((bank) => bank.bankName);
    assert.deepEqual(
      names,
      [...names].sort((a, b) => a.localeCompare(b)),
    );
    assert.equal(new Set(banks.map((bank) => bank.ussdBankCode)).size, banks.length);
    assert.equal(new Set(banks.map((bank) => bank.bankCode)).size, banks.length);
    for (const bank of banks) {
      assert.match(bank.ussdBankCode, /^\d{3,4}$/);
      assert.equal(bank.ussdCode, `*${bank.ussdBankCode}#`);
      // The same NIP code names the same bank in GET /transfers/banks.
      assert.equal(findBank(bank.bankCode, '999240')?.name, bank.bankName, bank.bankCode);
    }
  });

  describeAuthGuards(context, () => ({ method: 'GET', url: '/ussd-payment/banks' }));
});

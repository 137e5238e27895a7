import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeAuthGuards, useRouteContext } from '../../../../test/shared-route-tests.ts';
import { compareBankNames, findBank, listBanks } from '../name-enquiry/bank-directory.ts';
import type { BankView } from '../name-enquiry/bank-schemas.ts';

describe('GET /transfers/banks', () => {
  const context = useRouteContext();
  const list = (url = '/transfers/banks', headers = context().headers) =>
    context().testApp.app.inject({ method: 'GET', url, headers });
  const banks = async (): Promise<BankView[]> => (await list()).json().data;

  describe('200: every NIP institution, ours included, in one envelope', () => {
    it('answers the published envelope, not paginated', async () => {
      const response = await list();
      assert.equal(response.statusCode, 200);
      const body = response.json();
      assert.equal(body.statusCode, 200);
      assert.equal(body.message, 'Banks fetched successfully.');
      assert.ok(Array.isArray(body.data) && body.data.length > 50, `${body.data?.length}`);
      assert.equal(body.pagination, undefined);
      assert.equal(body.error, undefined);
    });

    it('lists our own institution: 999240, "Safe Haven Sandbox Bank", in the sandbox', async () => {
      const own = (await banks()).filter((bank) => bank.bankCode === '999240');
      assert.deepEqual(own, [
        {
          name: 'Safe Haven Sandbox Bank',
          alias: ['Safe Haven Sandbox Bank'],
          routingKey: '999240',
          logoImage: null,
          bankCode: '999240',
          categoryId: '9',
          nubanCode: null,
        },
      ]);
    });

    it('lists GTBank (000013) and Safe Haven MFB (090286) with their NIP codes', async () => {
      const byCode = new Map((await banks()).map((bank) => [bank.bankCode, bank]));
      assert.deepEqual(byCode.get('000013'), {
        name: 'Guaranty Trust Bank',
        alias: ['Guaranty Trust Bank', 'GTBank'],
        routingKey: '000013',
        logoImage: null,
        bankCode: '000013',
        categoryId: '2',
        nubanCode: null,
      });
      assert.equal(byCode.get('090286')?.name, 'Safe Haven Microfinance Bank');
      assert.equal(byCode.get('100004')?.alias[1], 'OPay');
      assert.equal(byCode.get('120001')?.categoryId, '12');
    });

    it('gives every institution a unique 6-digit code, repeated as routingKey', async () => {
      const all = await banks();
      for (const bank of all) {
        assert.match(bank.bankCode, /^\d{6}$/, bank.name);
        assert.equal(bank.routingKey, bank.bankCode, bank.name);
        assert.equal(bank.alias[0], bank.name, bank.name);
      }
      assert.equal(new Set(all.map((bank) => bank.bankCode)).size, all.length);
    });

    it('gives every institution a unique name, and sorts by it', async () => {
      const names = (await banks()).map((bank) => bank.name);
      assert.equal(new Set(names).size, names.length);
      assert.deepEqual(names, [...names].sort(compareBankNames));
    });

    it('leaves out Heritage Bank (000020), whose licence was revoked', async () => {
      const codes = (await banks()).map((bank) => bank.bankCode);
      assert.ok(!codes.includes('000020'));
    });

    it('ignores pagination parameters and a JSON content type on the GET', async () => {
      const all = await banks();
      const response = await list('/transfers/banks?page=1&limit=5', {
        ...context().headers,
        'content-type': 'application/json',
      });
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(response.json().data, all);
    });
  });

  describeAuthGuards(context, () => ({ method: 'GET', url: '/transfers/banks' }));
});

describe('the bank directory', () => {
  it('lists a production deployment on 090286 once, under its configured name', () => {
    const banks = listBanks('090286', 'Safe Haven MFB (OpenIBS)');
    const own = banks.filter((bank) => bank.bankCode === '090286');
    assert.deepEqual(own, [
      {
        name: 'Safe Haven MFB (OpenIBS)',
        bankCode: '090286',
        category: 'microfinance',
        shortName: 'Safe Haven MFB',
      },
    ]);
    assert.ok(!banks.some((bank) => bank.name === 'Safe Haven Microfinance Bank'));
  });

  it('adds a configured code that no listed bank holds', () => {
    const banks = listBanks('999001', 'Test Bank');
    assert.equal(banks.find((bank) => bank.bankCode === '999001')?.name, 'Test Bank');
  });

  it('refuses an own name that another institution already uses', () => {
    assert.throws(() => listBanks('999240', 'Zenith Bank'), /repeated name Zenith Bank/);
  });

  it('finds a bank by NIP code, ours included, and nothing for an unknown code', () => {
    assert.equal(findBank('000015', '999240')?.name, 'Zenith Bank');
    assert.equal(findBank('999240', '999240')?.name, 'Safe Haven Sandbox Bank');
    assert.equal(findBank('999240', '999240', 'Sandbox')?.name, 'Sandbox');
    assert.equal(findBank('000020', '999240'), undefined);
    assert.equal(findBank('058', '999240'), undefined);
  });
});

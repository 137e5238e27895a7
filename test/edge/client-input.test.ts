import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { TestApp } from '../harness.ts';
import { type RawClient, useRawClient } from '../raw-http.ts';

// What real clients of the published API send (docs/api.md, "What clients send"), over HTTP.
const INSTITUTION = '999240';
const BVN = '22212345671';

describe('edge contract: what clients send', () => {
  const client = useRawClient();
  let testApp: TestApp;
  let main: { _id: string; accountNumber: string };
  let payee: { _id: string; accountNumber: string };

  const call: RawClient['call'] = (...args) => client().call(...args);

  async function balance(accountId: string): Promise<number> {
    return (await call('GET', `/accounts/${accountId}`)).body.data.accountBalance;
  }

  async function enquire(accountNumber: string, bankCode = INSTITUTION): Promise<string> {
    const response = await call('POST', '/transfers/name-enquiry', { bankCode, accountNumber });
    assert.equal(response.status, 200, response.text);
    return response.body.data.sessionId;
  }

  async function transferBody(amount: unknown, extra: Record<string, unknown> = {}) {
    return {
      nameEnquiryReference: await enquire(payee.accountNumber),
      debitAccountNumber: main.accountNumber,
      beneficiaryBankCode: INSTITUTION,
      beneficiaryAccountNumber: payee.accountNumber,
      amount,
      narration: 'Edge test',
      ...extra,
    };
  }

  async function verifiedBvn(): Promise<string> {
    const started = await call('POST', '/identity/v2', {
      type: 'BVN',
      number: BVN,
      debitAccountNumber: main.accountNumber,
    });
    const identityId = started.body.data._id;
    const validated = await call('POST', '/identity/v2/validate', {
      identityId,
      type: 'BVN',
      otp: '123456',
    });
    assert.equal(validated.status, 200, validated.text);
    return identityId;
  }

  before(async () => {
    ({ testApp, main } = client());
    payee = (await call('POST', '/accounts', { suffix: 'Payee' })).body.data;
  });

  describe('1. query strings', () => {
    it('an empty value is an absent parameter', async () => {
      const transfers = await call('GET', '/transfers?fromDate=&toDate=&type=&status=');
      assert.equal(transfers.status, 200, transfers.text);
      const statement = await call(
        'GET',
        `/accounts/${main._id}/statement?fromDate=&toDate=&type=`,
      );
      assert.equal(statement.status, 200, statement.text);
      assert.ok(statement.body.data.length > 0);
    });

    it('booleans accept true/false/1/0 in any case', async () => {
      const sub = await call('POST', '/accounts/subaccount', {
        phoneNumber: '+2348112345678',
        emailAddress: 'jane@example.com',
        externalReference: 'EDGE-LIST',
        identityType: 'vID',
        identityId: await verifiedBvn(),
      });
      assert.equal(sub.status, 200, sub.text);
      for (const [value, isSub] of [
        ['0', false],
        ['1', true],
        ['false', false],
        ['TRUE', true],
      ] as const) {
        const listed = await call('GET', `/accounts?isSubAccount=${value}`);
        assert.equal(listed.status, 200, listed.text);
        assert.ok(listed.body.data.length > 0);
        assert.ok(
          listed.body.data.every(
            (account: { isSubAccount: boolean }) => account.isSubAccount === isSub,
          ),
        );
      }
      assert.equal((await call('GET', '/accounts?isSubAccount=yes')).status, 400);
    });

    it('enum values match case-insensitively', async () => {
      const debits = await call('GET', `/accounts/${main._id}/statement?type=debit`);
      assert.equal(debits.status, 200, debits.text);
      assert.ok(debits.body.data.every((row: { type: string }) => row.type === 'Debit'));
      const credits = await call('GET', `/accounts/${main._id}/statement?type=CREDIT`);
      assert.ok(credits.body.data.length > 0);
      assert.ok(credits.body.data.every((row: { type: string }) => row.type === 'Credit'));
      assert.equal((await call('GET', '/transfers?type=outwards&status=completed')).status, 200);
      assert.equal((await call('GET', '/transfers?type=sideways')).status, 400);
    });
  });

  describe('2. bodies from form-minded clients', () => {
    it('a JSON-encoded object is read; "", "[]" and [] for an optional object are absent', async () => {
      const encoded = await call('POST', '/accounts', { metadata: '{"customerId":7}' });
      assert.equal(encoded.status, 200, encoded.text);
      assert.deepEqual(encoded.body.data.metadata, { customerId: 7 });
      for (const metadata of ['', '[]', []]) {
        const empty = await call('POST', '/accounts', { metadata });
        assert.equal(empty.status, 200, empty.text);
        assert.deepEqual(empty.body.data.metadata, {});
      }
    });

    it('an optional string sent as "" is absent (callbackUrl, paymentReference)', async () => {
      const sub = await call('POST', '/accounts/v2/subaccount', {
        phoneNumber: '+2348112345678',
        emailAddress: 'jane@example.com',
        externalReference: 'EDGE-EMPTY',
        identityType: 'vID',
        identityId: await verifiedBvn(),
        callbackUrl: '',
        autoSweepDetails: '[]',
        metadata: '{"plan":"gold"}',
      });
      assert.equal(sub.status, 200, sub.text);
      assert.equal(sub.body.data.callbackUrl, null);
      assert.equal(sub.body.data.autoSweepDetails, null);
      assert.deepEqual(sub.body.data.metadata, { plan: 'gold' });

      const sent = await call(
        'POST',
        '/transfers',
        await transferBody(10, { paymentReference: '' }),
      );
      assert.equal(sent.status, 200, sent.text);
      assert.equal(sent.body.data.paymentReference, sent.body.data.sessionId);
    });

    it('a PUT body [] is an empty update', async () => {
      const before = (await call('GET', `/accounts/${main._id}`)).body.data;
      const updated = await call('PUT', `/accounts/${main._id}`, '[]');
      assert.equal(updated.status, 200, updated.text);
      assert.deepEqual(updated.body.data.notificationSettings, before.notificationSettings);
      const sub = (await call('GET', '/accounts?isSubAccount=1')).body.data[0];
      const subUpdate = await call('PUT', `/accounts/${sub._id}/subaccount`, '[]');
      assert.equal(subUpdate.status, 200, subUpdate.text);
      assert.equal(subUpdate.body.data.phoneNumber, sub.phoneNumber);
    });

    it('still refuses what is malformed', async () => {
      for (const metadata of ['not json', '[1,2]', '"text"', 42]) {
        const response = await call('POST', '/accounts', { metadata });
        assert.equal(response.status, 400, `${JSON.stringify(metadata)}: ${response.text}`);
      }
      assert.equal((await call('PUT', `/accounts/${main._id}`, '[1]')).status, 400);
      assert.equal((await call('PUT', `/accounts/${main._id}`, '"x"')).status, 400);
    });
  });

  describe('3. a retry with a fresh name enquiry replays the transfer', () => {
    it('same paymentReference, new nameEnquiryReference: the original transfer, one debit', async () => {
      const first = await call(
        'POST',
        '/transfers',
        await transferBody(25, { paymentReference: 'EDGE-RETRY' }),
      );
      assert.equal(first.status, 200, first.text);
      const afterFirst = await balance(main._id);
      const retry = await call(
        'POST',
        '/transfers',
        await transferBody(25, { paymentReference: 'EDGE-RETRY' }),
      );
      assert.equal(retry.status, 200, retry.text);
      assert.equal(retry.body.data._id, first.body.data._id);
      assert.equal(await balance(main._id), afterFirst);
      const changed = await call(
        'POST',
        '/transfers',
        await transferBody(26, { paymentReference: 'EDGE-RETRY' }),
      );
      assert.equal(changed.status, 409, changed.text);
      assert.equal(changed.body.code, 'DUPLICATE_REFERENCE');
    });
  });

  describe('4. legacy identity paths', () => {
    it('POST /identity and /identity/ take the v2 body', async () => {
      for (const path of ['/identity', '/identity/']) {
        const response = await call('POST', path, {
          type: 'CAC',
          number: 'RC1234567',
          debitAccountNumber: main.accountNumber,
        });
        assert.equal(response.status, 200, `${path}: ${response.text}`);
        assert.equal(response.body.data.status, 'SUCCESS');
        assert.equal(response.body.data.verificationStatus, 'Verified');
      }
    });

    it('POST /identity/send-otp { number } sends a new OTP for the pending verification', async () => {
      const started = await call('POST', '/identity/v2', {
        type: 'NIN',
        number: '12345678901',
        debitAccountNumber: main.accountNumber,
      });
      const charged = await balance(main._id);
      testApp.clock.advanceSeconds(60);
      const resent = await call('POST', '/identity/send-otp', { number: '12345678901' });
      assert.equal(resent.status, 200, resent.text);
      assert.equal(resent.body.data._id, started.body.data._id);
      assert.equal(resent.body.data.status, 'SUCCESS');
      assert.ok(resent.body.data.otpExpiresAt > started.body.data.otpExpiresAt);
      assert.equal(await balance(main._id), charged, 'a resent OTP is not charged');
      const validated = await call('POST', '/identity/v2/validate', {
        identityId: started.body.data._id,
        type: 'NIN',
        otp: '123456',
      });
      assert.equal(validated.body.data.status, 'Verified');
      const none = await call('POST', '/identity/send-otp', { number: '12345678901' });
      assert.equal(none.status, 400);
      assert.equal(none.body.message, 'Unable to locate record');
    });
  });

  describe('9. non-finite and out-of-range pagination', () => {
    it('page and limit of Infinity, -Infinity, 1e309, NaN, hex or padded are 400 on every list', async () => {
      const lists = [
        '/accounts',
        `/accounts/${main._id}/statement`,
        '/transfers',
        '/transfers/beneficiaries',
        '/webhooks/deliveries',
      ];
      for (const list of lists) {
        for (const value of [
          'Infinity',
          '-Infinity',
          '1e309',
          'NaN',
          '0x10',
          '%201',
          '1.5',
          '-1',
        ]) {
          for (const parameter of ['page', 'limit']) {
            const response = await call('GET', `${list}?${parameter}=${value}`);
            assert.equal(response.status, 400, `${list}?${parameter}=${value}: ${response.text}`);
            assert.equal(response.body.code, 'VALIDATION_ERROR');
          }
        }
        assert.equal((await call('GET', `${list}?page=0&limit=100`)).status, 200, list);
      }
    });
  });

  describe('10. NUL bytes and lone surrogates', () => {
    it('are refused in values, keys and query strings, and nothing is created', async () => {
      const count = async () => (await call('GET', '/accounts?limit=100')).body.pagination.total;
      const before = await count();
      const bodies = [
        '{"suffix":"a\\u0000b"}',
        '{"suffix":"\\ud800"}',
        '{"metadata":{"k\\u0000":"v"}}',
        '{"metadata":{"k":"\\udc00x"}}',
        '{"metadata":{"deep":[{"x":"\\u0000"}]}}',
        '{"metadata":"{\\"k\\":\\"\\\\u0000\\"}"}',
      ];
      for (const body of bodies) {
        const response = await call('POST', '/accounts', body);
        assert.equal(response.status, 400, `${body}: ${response.text}`);
        assert.equal(response.body.code, 'VALIDATION_ERROR');
      }
      assert.equal(await count(), before);
      for (const query of ['accountId=%00', 'fromDate=2025-01-01%00']) {
        assert.equal((await call('GET', `/transfers?${query}`)).status, 400, query);
      }
    });

    it('percent-encoded bytes that are not UTF-8 (or U+0000) are refused in any query value or name', async () => {
      const queries = [
        '/webhooks/deliveries?type=%ED%A0%80',
        '/webhooks/deliveries?type=%C0%80',
        '/webhooks/deliveries?type=%E0%A4%A',
        '/webhooks/deliveries?type=%FF',
        '/webhooks/deliveries?type=a%zz',
        '/webhooks/deliveries?status=pending&%ED%A0%80=1',
        '/webhooks/deliveries?type=%00',
        '/transfers?accountId=%ED%B0%80',
        '/accounts?limit=10&page=%E2%82',
      ];
      for (const url of queries) {
        const response = await call('GET', url);
        assert.equal(response.status, 400, `${url}: ${response.text}`);
        assert.equal(response.body.code, 'VALIDATION_ERROR', url);
      }
      const fine = await call('GET', '/webhooks/deliveries?type=transfer%E2%82%AC');
      assert.equal(fine.status, 200, `valid UTF-8 is read as usual: ${fine.text}`);
    });

    it('a JSON body whose bytes are not UTF-8 is refused, not read with replacement characters', async () => {
      const count = async () => (await call('GET', '/accounts?limit=100')).body.pagination.total;
      const before = await count();
      for (const bytes of ['eda080', 'c080', 'ff']) {
        const body = Buffer.concat([
          Buffer.from('{"suffix":"a'),
          Buffer.from(bytes, 'hex'),
          Buffer.from('"}'),
        ]);
        const response = await client().send('POST', '/accounts', {
          headers: client().headers,
          body,
        });
        assert.equal(response.status, 400, `${bytes}: ${response.text}`);
        assert.equal(response.body.code, 'INVALID_JSON', bytes);
      }
      assert.equal(await count(), before, 'nothing was created');
    });
  });

  describe('11. no coercion of money and flags', () => {
    it('amount as a boolean, string, array, hex, exponent or padded text is INVALID_AMOUNT', async () => {
      const before = await balance(main._id);
      for (const amount of [true, '1', ' 1 ', '1e0', [1], '0x1', '1.', null, {}]) {
        const response = await call('POST', '/transfers', await transferBody(amount));
        assert.equal(response.status, 400, `${JSON.stringify(amount)}: ${response.text}`);
        assert.equal(response.body.code, 'INVALID_AMOUNT', JSON.stringify(amount));
      }
      for (const raw of ['1e309', '-1e309']) {
        const body = JSON.stringify(await transferBody(0)).replace('"amount":0', `"amount":${raw}`);
        const response = await call('POST', '/transfers', body);
        assert.equal(response.status, 400, `${raw}: ${response.text}`);
      }
      assert.equal(await balance(main._id), before);
    });

    it('saveBeneficiary must be a boolean and account numbers strings', async () => {
      const flag = await call('POST', '/transfers', await transferBody(5, { saveBeneficiary: 1 }));
      assert.equal(flag.status, 400, flag.text);
      assert.equal(flag.body.details[0].field, 'saveBeneficiary');
      const numeric = await call(
        'POST',
        '/transfers',
        await transferBody(5, { debitAccountNumber: Number(main.accountNumber) }),
      );
      assert.equal(numeric.status, 400, numeric.text);
      assert.equal(numeric.body.details[0].field, 'debitAccountNumber');
      const enquiry = await call('POST', '/transfers/name-enquiry', {
        bankCode: INSTITUTION,
        accountNumber: Number(payee.accountNumber),
      });
      assert.equal(enquiry.status, 400, enquiry.text);
    });
  });

  describe('12. typed objects and metadata size', () => {
    it('unknown notificationSettings keys are dropped, never stored', async () => {
      const updated = await call('PUT', `/accounts/${main._id}`, {
        notificationSettings: { smsNotification: true, evil: 'x', balance: 1 },
      });
      assert.equal(updated.status, 200, updated.text);
      const stored = (await call('GET', `/accounts/${main._id}`)).body.data.notificationSettings;
      assert.equal(stored.smsNotification, true);
      assert.deepEqual(Object.keys(stored).sort(), [
        'emailMonthlyStatement',
        'emailNotification',
        'smsMonthlyStatement',
        'smsNotification',
      ]);
    });

    it('metadata above 8 KB, 50 keys or 100-character keys is refused', async () => {
      const tooBig = { blob: 'x'.repeat(9_000) };
      const tooMany = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]));
      const longKey = { ['k'.repeat(101)]: 1 };
      for (const metadata of [tooBig, tooMany, longKey]) {
        const response = await call('POST', '/accounts', { metadata });
        assert.equal(response.status, 400, response.text.slice(0, 200));
      }
    });
  });
});

import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { adminHeaders, createClient } from '../../../test/factories.ts';
import { buildTestApp } from '../../../test/harness.ts';
import { describeAdminAuthGuards, useRouteContext } from '../../../test/shared-route-tests.ts';

describe('POST /admin/sandbox/credits', () => {
  const context = useRouteContext();
  let accountNumber: string;
  before(async () => {
    accountNumber = (await createClient(context().testApp.app, 'Credit Ltd')).mainAccountNumber;
  });
  const credit = (payload: Record<string, unknown>) =>
    context().testApp.app.inject({
      method: 'POST',
      url: '/admin/sandbox/credits',
      headers: adminHeaders,
      payload: { accountNumber, ...payload },
    });

  async function totalEntries(): Promise<bigint> {
    const rows = await context().testApp.db.query<{ count: bigint }>(
      'SELECT count(*) FROM ledger_entries',
    );
    return rows[0]?.count ?? 0n;
  }

  describe('201: an inbound NIP credit, as the published transfer object', () => {
    it('answers an inbound NIP transfer object in the published shape', async () => {
      const response = await credit({
        amount: 2500.75,
        narration: 'Invoice 7',
        senderName: 'JANE DOE',
      });
      assert.equal(response.statusCode, 201, response.body);
      const { data } = response.json();
      assert.equal(data.type, 'Inwards');
      assert.equal(data.status, 'Completed');
      assert.equal(data.amount, 2500.75);
      assert.equal(data.stampDuty, 0);
      assert.equal(data.fees, 0);
      assert.equal(data.responseCode, '00');
      assert.equal(data.responseMessage, 'Approved or completed successfully');
      assert.match(data.sessionId, /^000013\d{24}$/);
      assert.equal(data.paymentReference, data.sessionId);
      assert.equal(data.provider, 'NIBSS');
      assert.equal(data.providerChannel, 'NIP');
      assert.equal(data.creditAccountNumber, accountNumber);
      assert.equal(data.debitAccountName, 'JANE DOE');
      assert.equal(data.destinationInstitutionCode, '999240');
      assert.equal(data.narration, 'Invoice 7');
      assert.equal(data.isReversed, false);
      assert.equal(data.approvedAt, data.createdAt);
    });

    it('takes ₦50 stamp duty from credits of ₦10,000 or more', async () => {
      const below = (await credit({ amount: 9999.99 })).json().data;
      const at = (await credit({ amount: 10000 })).json().data;
      assert.equal(below.stampDuty, 0);
      assert.equal(at.stampDuty, 50);
      const ledger = await context().testApp.db.query<{ balance_kobo: bigint }>(
        "SELECT balance_kobo FROM ledger_accounts WHERE id = 'gl.stamp_duty_payable'",
      );
      assert.equal(ledger[0]?.balance_kobo, 5000n);
    });

    it('credits the account: its balance rises by the amount less stamp duty', async () => {
      const { testApp, headers, ownAccountId, ownAccountNumber } = context();
      const balance = async () =>
        (
          await testApp.app.inject({ method: 'GET', url: `/accounts/${ownAccountId}`, headers })
        ).json().data.accountBalance as number;
      const before = await balance();
      const response = await testApp.app.inject({
        method: 'POST',
        url: '/admin/sandbox/credits',
        headers: adminHeaders,
        payload: { accountNumber: ownAccountNumber, amount: 12_000 },
      });
      assert.equal(response.statusCode, 201, response.body);
      assert.equal(await balance(), before + 12_000 - 50);
    });
  });

  describe('400: bad input moves no money', () => {
    const invalid: [string, Record<string, unknown>, number][] = [
      ['a negative amount', { amount: -5 }, 400],
      ['a zero amount', { amount: 0 }, 400],
      ['three decimals', { amount: 10.005 }, 400],
      ['an amount above the maximum', { amount: 2e9 }, 400],
      ['a malformed account number', { accountNumber: '12345' }, 400],
      ['an unknown account', { accountNumber: '9999999999', amount: 10 }, 400],
    ];
    for (const [label, payload, status] of invalid) {
      it(`refuses ${label} and moves no money`, async () => {
        const before = await totalEntries();
        const response = await credit({ amount: 10, ...payload });
        assert.equal(response.statusCode, status, response.body);
        assert.equal(await totalEntries(), before);
      });
    }
  });

  describe('403: sandbox only', () => {
    it('is refused outside sandbox', async () => {
      const production = await buildTestApp({
        IBS_ENV: 'production',
        DATABASE_URL: 'postgres://unused.invalid/db',
        ADMIN_TOKEN: 'test-admin-token-0123456789abcdefghijklmnop',
        TOKEN_SIGNING_SECRET: 'test-signing-secret-0123456789abcdefghijklmnop',
        OPERATOR_SECRETS_KEY: 'c'.repeat(64),
        PUBLIC_BASE_URL: 'https://bank.example',
        INSTITUTION_CODE: '090286',
      });
      try {
        const response = await production.app.inject({
          method: 'POST',
          url: '/admin/sandbox/credits',
          headers: adminHeaders,
          payload: { accountNumber, amount: 10 },
        });
        assert.equal(response.statusCode, 403);
        assert.equal(response.json().code, 'SANDBOX_ONLY');
      } finally {
        await production.close();
      }
    });
  });

  describeAdminAuthGuards(context, () => ({
    method: 'POST',
    url: '/admin/sandbox/credits',
    payload: { accountNumber: context().ownAccountNumber, amount: 10 },
  }));
});

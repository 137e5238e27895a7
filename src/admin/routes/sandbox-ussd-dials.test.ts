import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  accountBalance,
  adminHeaders,
  createUssdReference,
  dialUssd,
} from '../../../test/factories.ts';
import { buildTestApp } from '../../../test/harness.ts';
import { describeAdminAuthGuards, useRouteContext } from '../../../test/shared-route-tests.ts';

describe('POST /admin/sandbox/ussd-dials', () => {
  const context = useRouteContext();
  const balance = () => {
    const { testApp, headers, ownAccountNumber } = context();
    return accountBalance(testApp.app, headers, ownAccountNumber);
  };
  const reference = async (amount = '1500.00') => {
    const { testApp, headers, ownAccountNumber } = context();
    return createUssdReference(testApp.app, headers, ownAccountNumber, { amount });
  };

  describe('200: the customer pays the reference', () => {
    it('pays the reference: it turns Paid and the settlement account is credited', async () => {
      const created = await reference('1500.00');
      assert.equal(created.status, 'Pending');
      const before = await balance();
      const response = await dialUssd(context().testApp.app, created.reference);
      assert.equal(response.statusCode, 200, response.body);
      const { data, message } = response.json();
      assert.equal(message, 'The customer paid the reference.');
      assert.equal(data.outcome, 'paid');
      assert.match(data.sessionId, /^\d{30}$/);
      assert.equal(data.reference.reference, created.reference);
      assert.equal(data.reference.status, 'Paid');
      const payment = data.reference.payment;
      assert.equal(payment.sessionId, data.sessionId);
      assert.equal(payment.amount, 1500);
      const credited = 1500 - payment.fees - payment.vat - payment.stampDuty;
      assert.ok(credited > 0 && credited <= 1500, response.body);
      assert.equal(await balance(), Number(((before ?? 0) + credited).toFixed(2)));
    });

    it('a bank that declines (amount ending .51) moves nothing and leaves it Pending', async () => {
      const created = await reference('1500.51');
      const before = await balance();
      const response = await dialUssd(context().testApp.app, created.reference);
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().data.outcome, 'declined');
      assert.equal(typeof response.json().data.reason, 'string');
      assert.equal(response.json().data.reference.status, 'Pending');
      assert.equal(await balance(), before);
    });

    it('a reference dialled again after it was paid is reversed: nothing more moves', async () => {
      const created = await reference('700.00');
      assert.equal((await dialUssd(context().testApp.app, created.reference)).statusCode, 200);
      const before = await balance();
      const again = await dialUssd(context().testApp.app, created.reference);
      assert.equal(again.statusCode, 200, again.body);
      assert.equal(again.json().data.outcome, 'reversed');
      assert.equal(again.json().data.code, 'USSD_REFERENCE_CLOSED');
      assert.equal(await balance(), before);
    });
  });

  describe('400: bad input moves no money', () => {
    it('refuses a malformed reference', async () => {
      const response = await dialUssd(context().testApp.app, '12345');
      assert.equal(response.statusCode, 400, response.body);
    });

    it('refuses an unknown reference as "Unable to locate record"', async () => {
      const response = await dialUssd(context().testApp.app, '0000000000');
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json().message, 'Unable to locate record');
    });

    it('refuses a bank not in the USSD list and leaves the reference Pending', async () => {
      const created = await reference('900.00');
      const before = await balance();
      const response = await dialUssd(context().testApp.app, created.reference, {
        ussdBankCode: '999',
      });
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json().code, 'VALIDATION_ERROR');
      assert.match(response.json().message, /ussdBankCode/);
      assert.equal(await balance(), before);
    });

    it('refuses an amount with three decimals', async () => {
      const created = await reference('900.00');
      const response = await dialUssd(context().testApp.app, created.reference, {
        amount: 10.005,
      });
      assert.equal(response.statusCode, 400, response.body);
    });
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
          url: '/admin/sandbox/ussd-dials',
          headers: adminHeaders,
          payload: { reference: '1234567890' },
        });
        assert.equal(response.statusCode, 403, response.body);
        assert.equal(response.json().code, 'SANDBOX_ONLY');
      } finally {
        await production.close();
      }
    });
  });

  describeAdminAuthGuards(context, () => ({
    method: 'POST',
    url: '/admin/sandbox/ussd-dials',
    payload: { reference: '0000000000' },
  }));
});

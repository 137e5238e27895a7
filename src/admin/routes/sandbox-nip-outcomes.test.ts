import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { adminHeaders, sandboxCredit, sendTransfer } from '../../../test/factories.ts';
import { buildTestApp } from '../../../test/harness.ts';
import { describeAdminAuthGuards, useRouteContext } from '../../../test/shared-route-tests.ts';

describe('POST /admin/sandbox/nip/next-outcome', () => {
  const context = useRouteContext();
  const queue = (responseCode: unknown) =>
    context().testApp.app.inject({
      method: 'POST',
      url: '/admin/sandbox/nip/next-outcome',
      headers: adminHeaders,
      payload: { responseCode },
    });
  const send = async (amount: number) => {
    const { testApp, headers, ownAccountNumber } = context();
    const response = await sendTransfer(testApp.app, headers, {
      debitAccountNumber: ownAccountNumber,
      amount,
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().data as {
      status: string;
      responseCode: string | null;
      sessionId: string;
    };
  };

  before(async () => {
    const { testApp, ownAccountNumber } = context();
    await sandboxCredit(testApp.app, ownAccountNumber, 100_000);
  });

  describe('200: the next outbound NIP transfers get the queued outcomes, in order', () => {
    it('answers the queue, and the next transfers follow it whatever their kobo', async () => {
      const first = await queue('51');
      assert.equal(first.statusCode, 200, first.body);
      assert.equal(first.json().message, 'NIP outcome queued.');
      assert.deepEqual(first.json().data, { queue: ['51'] });
      assert.deepEqual((await queue('00')).json().data, { queue: ['51', '00'] });

      const failed = await send(1_000);
      assert.equal(failed.status, 'Failed');
      assert.equal(failed.responseCode, '51');
      const succeeded = await send(1_000.05);
      assert.equal(succeeded.status, 'Completed');
      assert.equal(succeeded.responseCode, '00');
      // The queue is empty again: the kobo rule is back.
      const byKobo = await send(1_000.05);
      assert.equal(byKobo.status, 'Failed');
      assert.equal(byKobo.responseCode, '05');
    });

    it('97: no answer at all, so the transfer stays Processing until a status query', async () => {
      const { testApp, headers } = context();
      assert.deepEqual((await queue('97')).json().data, { queue: ['97'] });
      const waiting = await send(500);
      assert.equal(waiting.status, 'Processing');
      assert.equal(waiting.responseCode, null);
      const asked = await testApp.app.inject({
        method: 'POST',
        url: '/transfers/status',
        headers,
        payload: { sessionId: waiting.sessionId },
      });
      assert.equal(asked.statusCode, 200, asked.body);
      assert.equal(asked.json().data.status, 'Completed');
    });

    it('leaves intra-bank transfers alone: only NIP transfers take a queued outcome', async () => {
      const { testApp, headers, ownAccountNumber, otherAccountNumber } = context();
      await queue('05');
      const intraBank = await sendTransfer(testApp.app, headers, {
        debitAccountNumber: ownAccountNumber,
        amount: 10,
        beneficiaryBankCode: testApp.config.institutionCode,
        beneficiaryAccountNumber: otherAccountNumber,
      });
      assert.equal(intraBank.json().data.status, 'Completed');
      const nip = await send(10);
      assert.equal(nip.responseCode, '05');
    });
  });

  describe('400: a code the simulator does not know', () => {
    for (const responseCode of ['12', '5', 5, null, '']) {
      it(`refuses ${JSON.stringify(responseCode)}`, async () => {
        const response = await queue(responseCode);
        assert.equal(response.statusCode, 400, response.body);
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
          url: '/admin/sandbox/nip/next-outcome',
          headers: adminHeaders,
          payload: { responseCode: '00' },
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
    url: '/admin/sandbox/nip/next-outcome',
    payload: { responseCode: '00' },
  }));
});

import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { OTHER_BANK, sandboxCredit } from '../../../../test/factories.ts';
import { describeAuthGuards, useRouteContext } from '../../../../test/shared-route-tests.ts';
import { createBulkPayoutWorker } from '../bulk/bulk-worker.ts';

describe('GET /transfers/bulk/:id', () => {
  const context = useRouteContext();
  let batchId = '';
  const show = (id: string, headers = context().headers) =>
    context().testApp.app.inject({ method: 'GET', url: `/transfers/bulk/${id}`, headers });
  const item = (paymentReference: string, extra: Record<string, unknown>) => ({
    debitAccountNumber: context().ownAccountNumber,
    beneficiaryBankCode: '999240',
    beneficiaryAccountNumber: context().otherAccountNumber,
    amount: 5,
    paymentReference,
    ...extra,
  });

  before(async () => {
    const { testApp, headers } = context();
    await sandboxCredit(testApp.app, context().ownAccountNumber, 100);
    const accepted = await testApp.app.inject({
      method: 'POST',
      url: '/transfers/bulk',
      headers: { ...headers, 'idempotency-key': 'status-batch' },
      payload: {
        transfers: [
          item('S-1', {}),
          // The batch makes the name enquiry: the simulator refuses numbers ending 0000.
          item('S-2', { beneficiaryBankCode: OTHER_BANK, beneficiaryAccountNumber: '1234560000' }),
          // ...and cannot reach the bank of one ending 9999: the item waits.
          item('S-3', { beneficiaryBankCode: OTHER_BANK, beneficiaryAccountNumber: '1234569999' }),
          // An intra-bank number that is no account: refused at once.
          item('S-4', { beneficiaryAccountNumber: '1111111111' }),
        ],
      },
    });
    assert.equal(accepted.statusCode, 202, accepted.body);
    batchId = accepted.json().data._id;
  });

  it('shows Processing with the pending items, then each outcome', async () => {
    const { testApp } = context();
    const first = (await show(batchId)).json().data;
    assert.equal(first.status, 'Processing');
    assert.deepEqual([first.pending, first.refused], [3, 1]);
    assert.equal(first.items[3].errorCode, 'NAME_ENQUIRY_FAILED');
    await createBulkPayoutWorker({
      db: testApp.db,
      clock: testApp.clock,
      batchSize: 10,
      pollIntervalMs: 1000,
      claimSeconds: 60,
      bulkPayouts: testApp.services.bulkPayouts,
    }).runOnce();
    const shown = (await show(batchId)).json().data;
    assert.equal(shown.status, 'Processing');
    assert.deepEqual(
      shown.items.map((one: { paymentReference: string; status: string; errorCode: string }) => [
        one.paymentReference,
        one.status,
        one.errorCode,
      ]),
      [
        ['S-1', 'Placed', null],
        ['S-2', 'Refused', 'NAME_ENQUIRY_FAILED'],
        ['S-3', 'Pending', null],
        ['S-4', 'Refused', 'NAME_ENQUIRY_FAILED'],
      ],
    );
    const transfer = await testApp.app.inject({
      method: 'GET',
      url: `/transfers?type=Outwards&accountId=${context().ownAccountId}`,
      headers: context().headers,
    });
    assert.ok(
      transfer.json().data.some((one: { _id: string }) => one._id === shown.items[0].transferId),
    );
  });

  it('404 in the error envelope for an unknown batch and for another client’s', async () => {
    for (const response of [
      await show('000000000000000000000000'),
      await show(batchId, context().otherHeaders),
    ]) {
      assert.equal(response.statusCode, 404);
      assert.equal(response.json().code, 'BULK_BATCH_NOT_FOUND');
    }
  });

  it('400 for an id that is too long', async () => {
    assert.equal((await show('x'.repeat(65))).statusCode, 400);
  });

  describeAuthGuards(context, () => ({ method: 'GET', url: '/transfers/bulk/abc' }));
});

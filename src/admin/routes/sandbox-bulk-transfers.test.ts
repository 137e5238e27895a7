import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { adminHeaders, sandboxCredit } from '../../../test/factories.ts';
import { inProduction } from '../../../test/sandbox-controls.ts';
import { describeAdminAuthGuards, useRouteContext } from '../../../test/shared-route-tests.ts';

describe('POST /admin/sandbox/bulk-transfers', () => {
  const context = useRouteContext();
  const send = (payload: object) =>
    context().testApp.app.inject({
      method: 'POST',
      url: '/admin/sandbox/bulk-transfers',
      headers: adminHeaders,
      payload,
    });
  const item = (paymentReference: string, amount = 10) => ({
    debitAccountNumber: context().ownAccountNumber,
    beneficiaryBankCode: '999240',
    beneficiaryAccountNumber: context().otherAccountNumber,
    amount,
    paymentReference,
  });

  before(() => sandboxCredit(context().testApp.app, context().ownAccountNumber, 1_000));

  it('202: accepts a batch for the client as its own POST /transfers/bulk would', async () => {
    const payload = {
      clientId: context().ibsClientId,
      idempotencyKey: 'dashboard-1',
      transfers: [item('ADM-1'), item('ADM-1')],
    };
    const response = await send(payload);
    assert.equal(response.statusCode, 202, response.body);
    const batch = response.json().data;
    assert.deepEqual([batch.total, batch.pending, batch.refused], [2, 1, 1]);
    const replay = await send(payload);
    assert.equal(replay.json().data._id, batch._id);
    const listed = await context().testApp.app.inject({
      method: 'GET',
      url: '/transfers/bulk',
      headers: context().headers,
    });
    assert.equal(listed.json().data[0]._id, batch._id);
  });

  it('refuses what POST /transfers/bulk refuses, and an account not the client’s', async () => {
    const others = await send({
      clientId: context().ibsClientId,
      idempotencyKey: 'dashboard-2',
      allOrNothing: true,
      transfers: [{ ...item('ADM-2'), debitAccountNumber: context().otherAccountNumber }],
    });
    assert.equal(others.statusCode, 400, others.body);
    assert.match(others.body, /RECORD_NOT_FOUND/);
    const tooMuch = await send({
      clientId: context().ibsClientId,
      idempotencyKey: 'dashboard-3',
      allOrNothing: true,
      transfers: [item('ADM-3', 5_000)],
    });
    assert.equal(tooMuch.statusCode, 402, tooMuch.body);
    const reused = await send({
      clientId: context().ibsClientId,
      idempotencyKey: 'dashboard-1',
      transfers: [item('ADM-4')],
    });
    assert.equal(reused.statusCode, 422);
  });

  it('400: an unknown client, a bad key, no transfers', async () => {
    for (const payload of [
      { clientId: 'ffffffffffffffffffffffff', idempotencyKey: 'k', transfers: [item('X')] },
      { clientId: context().ibsClientId, idempotencyKey: 'a b', transfers: [item('X')] },
      { clientId: context().ibsClientId, idempotencyKey: 'k', transfers: [] },
    ]) {
      assert.equal((await send(payload)).statusCode, 400);
    }
  });

  it('403: sandbox only', async () => {
    const [response] = await inProduction([
      {
        method: 'POST',
        url: '/admin/sandbox/bulk-transfers',
        payload: { clientId: 'x', idempotencyKey: 'k', transfers: [{}] },
      },
    ]);
    assert.equal(response?.statusCode, 403);
    assert.equal(response?.json().code, 'SANDBOX_ONLY');
  });

  describeAdminAuthGuards(context, () => ({
    method: 'POST',
    url: '/admin/sandbox/bulk-transfers',
    payload: { clientId: 'x', idempotencyKey: 'k', transfers: [{}] },
  }));
});

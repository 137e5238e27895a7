import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adminHeaders, sandboxCredit, sendTransfer } from '../../../test/factories.ts';
import { describeAdminAuthGuards, useRouteContext } from '../../../test/shared-route-tests.ts';

describe('GET /admin/transfers/:id', () => {
  const context = useRouteContext();
  const get = (id: string) =>
    context().testApp.app.inject({ url: `/admin/transfers/${id}`, headers: adminHeaders });

  it("200: any client's transfer by id, as the client's own API shows it", async () => {
    const { testApp, headers, ownAccountNumber } = context();
    await sandboxCredit(testApp.app, ownAccountNumber, 1000);
    const sent = await sendTransfer(testApp.app, headers, {
      debitAccountNumber: ownAccountNumber,
      amount: 250,
    });
    assert.equal(sent.statusCode, 200, sent.body);
    const read = await get(sent.json().data._id);
    assert.equal(read.statusCode, 200, read.body);
    assert.equal(read.json().data._id, sent.json().data._id);
    assert.equal(read.json().data.amount, 250);
    assert.equal(read.json().data.sessionId, sent.json().data.sessionId);
    assert.equal(read.json().data.debitAccountNumber, ownAccountNumber);
  });

  it('400 RECORD_NOT_FOUND for an unknown id and for one that is not an id', async () => {
    for (const id of ['0123456789abcdef01234567', 'not-an-id']) {
      const read = await get(id);
      assert.equal(read.statusCode, 400, read.body);
      assert.equal(read.json().code, 'RECORD_NOT_FOUND');
    }
  });

  describeAdminAuthGuards(context, () => ({
    method: 'GET',
    url: '/admin/transfers/0123456789abcdef01234567',
  }));
});

import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { createUssdReference, dialUssd } from '../../../../test/factories.ts';
import { describeAuthGuards, useRouteContext } from '../../../../test/shared-route-tests.ts';

describe('GET /ussd-payment', () => {
  const context = useRouteContext();
  const list = (query: string, headers = context().headers) =>
    context().testApp.app.inject({ method: 'GET', url: `/ussd-payment?${query}`, headers });
  const created: string[] = [];

  before(async () => {
    const { testApp, headers, ownAccountNumber, otherHeaders, otherAccountNumber } = context();
    for (let index = 0; index < 5; index++) {
      const reference = await createUssdReference(testApp.app, headers, ownAccountNumber, {
        amount: String(100 + index),
      });
      created.push(reference.reference);
      testApp.clock.advanceSeconds(1);
    }
    // The second one is paid; the other client has one of its own.
    await dialUssd(testApp.app, created[1] as string);
    await createUssdReference(testApp.app, otherHeaders, otherAccountNumber);
  });

  it('pages through only the caller’s references, newest first', async () => {
    const first = await list('page=0&limit=2');
    assert.equal(first.statusCode, 200, first.body);
    const body = first.json();
    assert.equal(body.message, 'USSD references fetched successfully.');
    assert.deepEqual(body.pagination, { total: 5, pages: 3, page: '0', limit: '2' });
    const pages = [body.data, (await list('page=1&limit=2')).json().data];
    pages.push((await list('page=2&limit=2')).json().data);
    const references = pages.flat().map((item: { reference: string }) => item.reference);
    assert.deepEqual(references, [...created].reverse());
  });

  it('filters by status, Expired told apart by the time', async () => {
    const { testApp } = context();
    const paid = (await list('status=Paid')).json();
    assert.deepEqual(
      paid.data.map((item: { reference: string }) => item.reference),
      [created[1]],
    );
    assert.equal(paid.data[0].payment.amount, 101);
    assert.equal((await list('status=Pending')).json().pagination.total, 4);
    assert.equal((await list('status=Expired')).json().pagination.total, 0);
    testApp.clock.advanceSeconds(900);
    assert.equal((await list('status=Expired')).json().pagination.total, 4);
    assert.equal((await list('status=Pending')).json().pagination.total, 0);
    assert.equal((await list('status=Paid')).json().pagination.total, 1);
  });

  it('refuses a status, page or limit out of range', async () => {
    for (const query of [
      'status=Active',
      'limit=0',
      'limit=101',
      'page=-1',
      'fromDate=yesterday',
    ]) {
      assert.equal((await list(query)).statusCode, 400, query);
    }
  });

  describeAuthGuards(context, () => ({ method: 'GET', url: '/ussd-payment' }));
});

import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { describeAuthGuards, useRouteContext } from '../../../../test/shared-route-tests.ts';

describe('GET /transfers/bulk', () => {
  const context = useRouteContext();
  const list = (query: string, headers = context().headers) =>
    context().testApp.app.inject({ method: 'GET', url: `/transfers/bulk${query}`, headers });

  before(async () => {
    for (const key of ['a', 'b', 'c']) {
      const response = await context().testApp.app.inject({
        method: 'POST',
        url: '/transfers/bulk',
        headers: { ...context().headers, 'idempotency-key': `list-${key}` },
        payload: {
          transfers: [
            {
              debitAccountNumber: context().ownAccountNumber,
              beneficiaryBankCode: '999240',
              beneficiaryAccountNumber: context().otherAccountNumber,
              amount: 1,
              paymentReference: `L-${key}`,
            },
          ],
        },
      });
      assert.equal(response.statusCode, 202, response.body);
    }
  });

  it('pages the client’s batches, newest first', async () => {
    const page = (await list('?page=0&limit=2')).json();
    assert.equal(page.data.length, 2);
    assert.equal(page.pagination.total, 3);
    assert.equal(page.pagination.pages, 2);
    assert.equal(page.data[0].total, 1);
    assert.equal((await list('?page=1&limit=2')).json().data.length, 1);
  });

  it('shows another client none of them', async () => {
    const theirs = (await list('', context().otherHeaders)).json();
    assert.equal(theirs.pagination.total, 0);
  });

  it('400 for a bad page or limit', async () => {
    assert.equal((await list('?limit=1000')).statusCode, 400);
    assert.equal((await list('?page=-1')).statusCode, 400);
  });

  describeAuthGuards(context, () => ({ method: 'GET', url: '/transfers/bulk' }));
});

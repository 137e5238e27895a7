import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { adminHeaders } from '../../../test/factories.ts';
import {
  describeAdminAuthGuards,
  describeAdminRecordIsolation,
  useRouteContext,
} from '../../../test/shared-route-tests.ts';

describe('GET /admin/clients/:id/bulk-transfers', () => {
  const context = useRouteContext();
  const list = (clientId: string, query = '') =>
    context().testApp.app.inject({
      method: 'GET',
      url: `/admin/clients/${clientId}/bulk-transfers${query}`,
      headers: adminHeaders,
    });

  before(async () => {
    for (const key of ['one', 'two']) {
      const response = await context().testApp.app.inject({
        method: 'POST',
        url: '/transfers/bulk',
        headers: { ...context().headers, 'idempotency-key': key },
        payload: {
          transfers: [
            {
              debitAccountNumber: context().ownAccountNumber,
              beneficiaryBankCode: '999240',
              beneficiaryAccountNumber: context().otherAccountNumber,
              amount: 1,
              paymentReference: `ADMIN-${key}`,
            },
          ],
        },
      });
      assert.equal(response.statusCode, 202, response.body);
    }
  });

  it("200: the client's batches with their progress, newest first, paged", async () => {
    const page = (await list(context().ibsClientId, '?limit=1')).json();
    assert.equal(page.pagination.total, 2);
    assert.equal(page.data.length, 1);
    assert.deepEqual([page.data[0].total, page.data[0].status], [1, 'Processing']);
  });

  it('shows another client none of them', async () => {
    const { ibsClientId } = context();
    const response = await context().testApp.app.inject({
      method: 'GET',
      url: '/admin/clients',
      headers: adminHeaders,
    });
    const other = response
      .json()
      .data.find((client: { _id: string }) => client._id !== ibsClientId)._id;
    assert.equal((await list(other)).json().pagination.total, 0);
  });

  it('400 for a bad page or limit', async () => {
    assert.equal((await list(context().ibsClientId, '?limit=1000')).statusCode, 400);
  });

  const request = (id: string) => ({
    method: 'GET' as const,
    url: `/admin/clients/${id}/bulk-transfers`,
  });
  describeAdminAuthGuards(context, request);
  describeAdminRecordIsolation(context, request);
});

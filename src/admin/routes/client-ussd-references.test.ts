import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { adminHeaders, createUssdReference, dialUssd } from '../../../test/factories.ts';
import {
  describeAdminAuthGuards,
  describeAdminRecordIsolation,
  useRouteContext,
} from '../../../test/shared-route-tests.ts';

describe('GET /admin/clients/:id/ussd-references', () => {
  const context = useRouteContext();
  const list = (clientId: string, query = '') =>
    context().testApp.app.inject({
      method: 'GET',
      url: `/admin/clients/${clientId}/ussd-references${query}`,
      headers: adminHeaders,
    });
  const references = (response: { json: () => { data: { reference: string }[] } }) =>
    response.json().data.map((item) => item.reference);

  /** The own client's references, oldest first (the second one paid), and the other's one. */
  const created: string[] = [];
  let theirs = '';

  before(async () => {
    const { testApp, headers, ownAccountNumber, otherHeaders, otherAccountNumber } = context();
    for (let index = 0; index < 3; index++) {
      const reference = await createUssdReference(testApp.app, headers, ownAccountNumber, {
        amount: String(100 + index),
      });
      created.push(reference.reference);
      testApp.clock.advanceSeconds(1);
    }
    const dialled = await dialUssd(testApp.app, created[1] as string);
    assert.equal(dialled.statusCode, 200, dialled.body);
    assert.equal(dialled.json().data.outcome, 'paid');
    theirs = (await createUssdReference(testApp.app, otherHeaders, otherAccountNumber)).reference;
  });

  describe("200: the client's references, newest first, as GET /ussd-payment shows them", () => {
    it('lists them in the published reference object, the paid one with its payment', async () => {
      const { testApp, headers, ibsClientId } = context();
      const response = await list(ibsClientId);
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      assert.equal(body.message, 'USSD references fetched successfully.');
      assert.deepEqual(references(response), [...created].reverse());
      assert.deepEqual(body.pagination, { total: 3, pages: 1, page: '0', limit: '25' });
      const own = await testApp.app.inject({ method: 'GET', url: '/ussd-payment', headers });
      assert.deepEqual(body.data, own.json().data, 'the same objects the client API answers');
      const paid = body.data.find((item: { reference: string }) => item.reference === created[1]);
      assert.equal(paid.status, 'Paid');
      assert.equal(paid.payment.amount, 101);
      assert.match(paid.payment.transferId, /^[0-9a-f]{24}$/);
    });

    it("never lists another client's references", async () => {
      const { ibsClientId, otherHeaders } = context();
      assert.ok(!references(await list(ibsClientId)).includes(theirs));
      assert.deepEqual(references(await list(otherHeaders.clientid ?? '')), [theirs]);
    });

    it('filters by status, Expired told apart by the time', async () => {
      const { testApp, ibsClientId } = context();
      assert.deepEqual(references(await list(ibsClientId, '?status=Paid')), [created[1]]);
      const pending = await list(ibsClientId, '?status=Pending');
      assert.deepEqual(references(pending), [created[2], created[0]]);
      assert.equal((await list(ibsClientId, '?status=Expired')).json().pagination.total, 0);
      const restore = testApp.clock.now();
      testApp.clock.advanceSeconds(3600);
      try {
        const expired = await list(ibsClientId, '?status=Expired');
        assert.deepEqual(references(expired), [created[2], created[0]]);
        assert.equal((await list(ibsClientId, '?status=Pending')).json().pagination.total, 0);
      } finally {
        testApp.clock.set(restore);
      }
    });

    it('pages with page (0-based) and limit', async () => {
      const { ibsClientId } = context();
      const response = await list(ibsClientId, '?page=1&limit=2');
      assert.deepEqual(references(response), [created[0]]);
      assert.deepEqual(response.json().pagination, {
        total: 3,
        pages: 2,
        page: '1',
        limit: '2',
      });
    });
  });

  describe('400: bad filters', () => {
    it('refuses an unknown status and a limit out of range', async () => {
      const { ibsClientId } = context();
      for (const query of ['?status=Active', '?limit=0', '?limit=101']) {
        assert.equal((await list(ibsClientId, query)).statusCode, 400, query);
      }
    });
  });

  const request = (id: string) => ({
    method: 'GET' as const,
    url: `/admin/clients/${id}/ussd-references`,
  });
  describeAdminAuthGuards(context, request);
  describeAdminRecordIsolation(context, request);
});

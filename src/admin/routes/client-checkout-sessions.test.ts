import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  adminHeaders,
  type CheckoutPageSession,
  checkoutPageCall,
  createClient,
  openCheckoutSession,
} from '../../../test/factories.ts';
import {
  describeAdminAuthGuards,
  describeAdminRecordIsolation,
  useRouteContext,
} from '../../../test/shared-route-tests.ts';

describe('GET /admin/clients/:id/checkout-sessions', () => {
  const context = useRouteContext();
  const list = (clientId: string, query = '') =>
    context().testApp.app.inject({
      method: 'GET',
      url: `/admin/clients/${clientId}/checkout-sessions${query}`,
      headers: adminHeaders,
    });
  const ids = (response: { json: () => { data: { _id: string }[] } }) =>
    response.json().data.map((item) => item._id);

  /** The own client's sessions, oldest first (the second one paid), and the rival's one. */
  const opened: CheckoutPageSession[] = [];
  let rival: { ibsClientId: string };
  let theirs: CheckoutPageSession;
  let paidTransactionId = '';

  before(async () => {
    const { testApp, oauthClientId, ownAccountNumber } = context();
    const shop = await createClient(testApp.app, 'Other Shop Ltd', 1);
    rival = shop;
    for (let index = 0; index < 3; index++) {
      opened.push(
        await openCheckoutSession(
          testApp.app,
          { oauthClientId, accountNumber: ownAccountNumber },
          `ADMIN-LIST-${index}`,
          { remoteAddress: `10.71.0.${index + 1}`, extra: { amount: 1000 + index } },
        ),
      );
      testApp.clock.advanceSeconds(1);
    }
    const paid = await checkoutPageCall(
      testApp.app,
      opened[1] as CheckoutPageSession,
      '/simulate',
      {
        method: 'BANK_TRANSFER',
      },
    );
    assert.equal(paid.statusCode, 200, paid.body);
    paidTransactionId = paid.json().data.result.transactionId;
    theirs = await openCheckoutSession(
      testApp.app,
      { oauthClientId: shop.oauthClientId, accountNumber: shop.mainAccountNumber },
      'ADMIN-LIST-0',
      { remoteAddress: '10.71.0.9' },
    );
  });

  describe("200: the client's sessions, newest first, in the verify view", () => {
    it('lists each as GET /checkout/:referenceCode/verify answers it', async () => {
      const { testApp, headers, ibsClientId } = context();
      const response = await list(ibsClientId);
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      assert.equal(body.message, 'Checkout sessions fetched successfully.');
      assert.deepEqual(
        ids(response),
        [...opened].reverse().map((session) => session.id),
      );
      assert.deepEqual(body.pagination, { total: 3, pages: 1, page: '0', limit: '25' });
      for (const item of body.data) {
        const verified = await testApp.app.inject({
          method: 'GET',
          url: `/checkout/${item.referenceCode}/verify`,
          headers,
        });
        assert.deepEqual(item, verified.json().data, item.referenceCode);
      }
      const paid = body.data.find((item: { _id: string }) => item._id === opened[1]?.id);
      assert.equal(paid.status, 'Completed');
      assert.equal(paid.channel, 'BANK_TRANSFER');
      assert.equal(paid.amountPaid, 1001);
      assert.equal(paid.transactionId, paidTransactionId);
    });

    it("never lists another client's sessions, even under the same referenceCode", async () => {
      const { ibsClientId } = context();
      assert.ok(!ids(await list(ibsClientId)).includes(theirs.id));
      assert.deepEqual(ids(await list(rival.ibsClientId)), [theirs.id]);
    });

    it('filters by status, Expired told apart by the time', async () => {
      const { testApp, ibsClientId } = context();
      const [first, second, third] = opened.map((session) => session.id);
      assert.deepEqual(ids(await list(ibsClientId, '?status=Completed')), [second]);
      assert.deepEqual(ids(await list(ibsClientId, '?status=Pending')), [third, first]);
      assert.deepEqual(ids(await list(ibsClientId, '?status=Expired')), []);
      const restore = testApp.clock.now();
      testApp.clock.advanceSeconds(3_600);
      try {
        assert.deepEqual(ids(await list(ibsClientId, '?status=Expired')), [third, first]);
        assert.deepEqual(ids(await list(ibsClientId, '?status=Pending')), []);
        assert.deepEqual(ids(await list(ibsClientId, '?status=Completed')), [second]);
        const expired = (await list(ibsClientId)).json().data;
        assert.equal(expired[0].status, 'Expired');
      } finally {
        testApp.clock.set(restore);
      }
    });

    it('pages with page (0-based) and limit', async () => {
      const { ibsClientId } = context();
      const response = await list(ibsClientId, '?page=1&limit=2');
      assert.deepEqual(ids(response), [opened[0]?.id]);
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
      for (const query of ['?status=Paid', '?limit=0', '?limit=101']) {
        assert.equal((await list(ibsClientId, query)).statusCode, 400, query);
      }
    });
  });

  const request = (id: string) => ({
    method: 'GET' as const,
    url: `/admin/clients/${id}/checkout-sessions`,
  });
  describeAdminAuthGuards(context, request);
  describeAdminRecordIsolation(context, request);
});

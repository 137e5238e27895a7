import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { adminHeaders, creditWebhookEvent } from '../../../test/factories.ts';
import {
  describeAdminAuthGuards,
  describeAdminRecordIsolation,
  useRouteContext,
} from '../../../test/shared-route-tests.ts';

describe("admin webhooks: a client's webhook URL, deliveries and replays", () => {
  const context = useRouteContext();

  const admin = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
    context().testApp.app.inject({
      method,
      url,
      headers: adminHeaders,
      ...(payload ? { payload } : {}),
    });
  const markFailed = (eventId: string) =>
    context().testApp.db.query("UPDATE webhook_events SET status = 'failed' WHERE id = $1", [
      eventId,
    ]);
  const ownEvent = () => {
    const { testApp, headers, ownAccountNumber } = context();
    return creditWebhookEvent(testApp.app, headers, ownAccountNumber);
  };

  describe('PUT /admin/clients/:id/webhook', () => {
    describe('200: the URL and the signing secret', () => {
      it('sets the URL and answers it with the secret', async () => {
        const { testApp, ibsClientId, headers } = context();
        const response = await testApp.app.inject({
          method: 'PUT',
          url: `/admin/clients/${ibsClientId}/webhook`,
          headers: adminHeaders,
          payload: { url: 'http://127.0.0.1:9000/in' },
        });
        assert.equal(response.statusCode, 200, response.body);
        assert.equal(response.json().data.url, 'http://127.0.0.1:9000/in');
        const mine = (
          await testApp.app.inject({ method: 'GET', url: '/webhooks/settings', headers })
        ).json().data;
        assert.equal(response.json().data.secret, mine.secret);
        const list = await testApp.app.inject({
          method: 'GET',
          url: `/admin/clients/${ibsClientId}/webhooks/deliveries`,
          headers: adminHeaders,
        });
        assert.equal(list.statusCode, 200);
      });

      it('null stops deliveries: the URL is cleared', async () => {
        const { ibsClientId } = context();
        const response = await admin('PUT', `/admin/clients/${ibsClientId}/webhook`, {
          url: null,
        });
        assert.equal(response.statusCode, 200, response.body);
        assert.equal(response.json().data.url, null);
      });
    });

    describe('400: a destination the policy refuses', () => {
      it('refuses the cloud metadata address and something that is not a URL', async () => {
        const { ibsClientId } = context();
        for (const url of ['http://169.254.169.254/latest/meta-data', 'hooks please']) {
          const response = await admin('PUT', `/admin/clients/${ibsClientId}/webhook`, { url });
          assert.equal(response.statusCode, 400, `${url}: ${response.body}`);
          assert.equal(response.json().details[0].field, 'url');
        }
      });
    });

    const request = (id: string) => ({
      method: 'PUT' as const,
      url: `/admin/clients/${id}/webhook`,
      payload: { url: 'http://127.0.0.1:9000/in' },
    });
    describeAdminAuthGuards(context, request);
    describeAdminRecordIsolation(context, request);
  });

  describe('GET /admin/clients/:id/webhooks/deliveries', () => {
    describe("200: that client's events only", () => {
      it("lists the client's events, not another client's", async () => {
        const { testApp, ibsClientId, otherHeaders, otherAccountNumber } = context();
        const mine = await ownEvent();
        const theirs = await creditWebhookEvent(testApp.app, otherHeaders, otherAccountNumber);
        const response = await admin('GET', `/admin/clients/${ibsClientId}/webhooks/deliveries`);
        assert.equal(response.statusCode, 200, response.body);
        const ids = response.json().data.map((item: { _id: string }) => item._id);
        assert.ok(ids.includes(mine._id));
        assert.ok(!ids.includes(theirs._id));
        assert.equal(response.json().pagination.total, ids.length);
      });
    });

    describe('400: bad filters', () => {
      it('refuses an unknown status', async () => {
        const { ibsClientId } = context();
        const response = await admin(
          'GET',
          `/admin/clients/${ibsClientId}/webhooks/deliveries?status=lost`,
        );
        assert.equal(response.statusCode, 400);
      });
    });

    const request = (id: string) => ({
      method: 'GET' as const,
      url: `/admin/clients/${id}/webhooks/deliveries`,
    });
    describeAdminAuthGuards(context, request);
    describeAdminRecordIsolation(context, request);
  });

  describe('POST /admin/clients/:id/webhooks/replay', () => {
    describe('200: every failed event since the time, queued again', () => {
      it("replays the client's failed events and answers how many", async () => {
        const { ibsClientId } = context();
        const event = await ownEvent();
        await markFailed(event._id);
        const response = await admin('POST', `/admin/clients/${ibsClientId}/webhooks/replay`, {
          since: '2020-01-01',
        });
        assert.equal(response.statusCode, 200, response.body);
        assert.equal(response.json().data.replayed, 1);
        const again = await admin('POST', `/admin/clients/${ibsClientId}/webhooks/replay`, {
          since: '2020-01-01',
        });
        assert.equal(again.json().data.replayed, 0, 'nothing failed is left');
      });
    });

    describe('400: bad input', () => {
      it('refuses a missing or malformed since', async () => {
        const { ibsClientId } = context();
        for (const payload of [{}, { since: 'yesterday' }]) {
          const response = await admin(
            'POST',
            `/admin/clients/${ibsClientId}/webhooks/replay`,
            payload,
          );
          assert.equal(response.statusCode, 400, JSON.stringify(payload));
        }
      });
    });

    const request = (id: string) => ({
      method: 'POST' as const,
      url: `/admin/clients/${id}/webhooks/replay`,
      payload: { since: '2020-01-01' },
    });
    describeAdminAuthGuards(context, request);
    describeAdminRecordIsolation(context, request);
  });

  describe('POST /admin/clients/:id/webhooks/deliveries/:eventId/replay', () => {
    describe('200: the event, queued again', () => {
      it('requeues one failed event with the same id', async () => {
        const { ibsClientId } = context();
        const event = await ownEvent();
        await markFailed(event._id);
        const response = await admin(
          'POST',
          `/admin/clients/${ibsClientId}/webhooks/deliveries/${event._id}/replay`,
        );
        assert.equal(response.statusCode, 200, response.body);
        assert.equal(response.json().data._id, event._id);
        assert.equal(response.json().data.status, 'pending');
      });

      it('sends a pending event now instead of at its next retry, unless a worker holds it', async () => {
        const { testApp, ibsClientId } = context();
        const now = testApp.clock.now();
        const later = new Date(now.getTime() + 3_600_000);
        const event = await ownEvent();
        const nextAttempt = async () =>
          (
            await testApp.db.query<{ next_attempt_at: Date }>(
              'SELECT next_attempt_at FROM webhook_events WHERE id = $1',
              [event._id],
            )
          )[0]?.next_attempt_at.getTime();
        const replay = () =>
          admin('POST', `/admin/clients/${ibsClientId}/webhooks/deliveries/${event._id}/replay`);
        // Claimed by a worker that is sending it: the replay leaves it to that worker.
        await testApp.db.query(
          'UPDATE webhook_events SET next_attempt_at = $2, locked_until = $2 WHERE id = $1',
          [event._id, later],
        );
        assert.equal((await replay()).statusCode, 200);
        assert.equal(await nextAttempt(), later.getTime());
        // Waiting for its next retry: due now.
        await testApp.db.query('UPDATE webhook_events SET locked_until = NULL WHERE id = $1', [
          event._id,
        ]);
        assert.equal((await replay()).statusCode, 200);
        assert.equal(await nextAttempt(), now.getTime());
      });
    });

    describe('400 "Unable to locate record": the event must be that client\'s', () => {
      it("refuses another client's event, an unknown and a malformed event id", async () => {
        const { testApp, ibsClientId, otherHeaders, otherAccountNumber } = context();
        const theirs = await creditWebhookEvent(testApp.app, otherHeaders, otherAccountNumber);
        await markFailed(theirs._id);
        for (const eventId of [theirs._id, `msg_${'x'.repeat(24)}`, 'not-an-id']) {
          const response = await admin(
            'POST',
            `/admin/clients/${ibsClientId}/webhooks/deliveries/${encodeURIComponent(eventId)}/replay`,
          );
          assert.equal(response.statusCode, 400, `${eventId}: ${response.body}`);
          assert.equal(response.json().message, 'Unable to locate record');
        }
        const [row] = await testApp.db.query<{ status: string }>(
          'SELECT status FROM webhook_events WHERE id = $1',
          [theirs._id],
        );
        assert.equal(row?.status, 'failed', "the other client's event was not touched");
      });
    });

    describe('the guards, on an event of the client', () => {
      let eventId: string;
      before(async () => {
        eventId = (await ownEvent())._id;
      });
      const request = (id: string) => ({
        method: 'POST' as const,
        url: `/admin/clients/${id}/webhooks/deliveries/${eventId}/replay`,
      });
      describeAdminAuthGuards(context, request);
      describeAdminRecordIsolation(context, request);
    });
  });
});

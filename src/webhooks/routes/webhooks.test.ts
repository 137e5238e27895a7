import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adminHeaders, sandboxCredit } from '../../../test/factories.ts';
import {
  describeAuthGuards,
  describeRecordIsolation,
  useRouteContext,
} from '../../../test/shared-route-tests.ts';

describe('webhooks API', () => {
  const context = useRouteContext();
  const call = (
    method: 'GET' | 'PUT' | 'POST',
    url: string,
    payload?: object,
    headers = context().headers,
  ) => context().testApp.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  describe('GET/PUT /webhooks/settings', () => {
    it('gives every client a Standard Webhooks secret and no URL at first', async () => {
      const response = await call('GET', '/webhooks/settings');
      assert.equal(response.statusCode, 200);
      const { data } = response.json();
      assert.match(data.secret, /^whsec_/);
      assert.equal(data.url, null);
      assert.equal(data.disabled, false);
      const other = (
        await call('GET', '/webhooks/settings', undefined, context().otherHeaders)
      ).json();
      assert.notEqual(other.data.secret, data.secret);
    });

    it('sets a loopback http URL in sandbox and rotates the secret with a grace period', async () => {
      const before = (await call('GET', '/webhooks/settings')).json().data;
      const response = await call('PUT', '/webhooks/settings', {
        url: 'http://localhost:9999/hooks',
        rotateSecret: true,
      });
      assert.equal(response.statusCode, 200, response.body);
      const { data } = response.json();
      assert.equal(data.url, 'http://localhost:9999/hooks');
      assert.notEqual(data.secret, before.secret);
      assert.ok(new Date(data.previousSecretExpiresAt) > context().testApp.clock.now());
    });

    for (const [label, url] of [
      ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data'],
      ['a private network address', 'http://10.0.0.7/hooks'],
      ['a non-http scheme', 'file:///etc/passwd'],
      ['a URL with credentials', 'http://user:secret@localhost/hooks'],
      ['something that is not a URL', 'hooks please'],
    ]) {
      it(`refuses ${label}`, async () => {
        const response = await call('PUT', '/webhooks/settings', { url });
        assert.equal(response.statusCode, 400, response.body);
        assert.equal(response.json().details[0].field, 'url');
      });
    }
  });

  describe('deliveries: history, filters, replay', () => {
    async function creditAndFindEvent() {
      const { testApp, ownAccountId } = context();
      const account = await call('GET', `/accounts/${ownAccountId}`);
      const transfer = await sandboxCredit(testApp.app, account.json().data.accountNumber, 75);
      const list = (await call('GET', '/webhooks/deliveries?type=transfer')).json();
      const delivery = list.data.find(
        (item: { payload: { data: { _id: string } } }) => item.payload.data._id === transfer._id,
      );
      assert.ok(delivery, 'the credit produced a transfer event');
      return delivery as { _id: string; status: string; payload: unknown };
    }

    it('lists your events with their payload and attempts; others see none of them', async () => {
      const delivery = await creditAndFindEvent();
      assert.match(delivery._id, /^msg_/);
      assert.equal(delivery.status, 'pending');
      const filtered = (await call('GET', '/webhooks/deliveries?status=delivered')).json();
      assert.ok(filtered.data.every((item: { status: string }) => item.status === 'delivered'));
      const theirs = (
        await call('GET', '/webhooks/deliveries', undefined, context().otherHeaders)
      ).json();
      assert.ok(theirs.data.every((item: { _id: string }) => item._id !== delivery._id));
      const one = await call('GET', `/webhooks/deliveries/${delivery._id}`);
      assert.equal(one.statusCode, 200);
      assert.deepEqual(one.json().data.payload, delivery.payload);
      const foreign = await call(
        'GET',
        `/webhooks/deliveries/${delivery._id}`,
        undefined,
        context().otherHeaders,
      );
      assert.equal(foreign.statusCode, 400);
      assert.equal(foreign.json().message, 'Unable to locate record');
    });

    it('replays one event, and every failed event since a time', async () => {
      const { testApp } = context();
      const delivery = await creditAndFindEvent();
      await testApp.db.query("UPDATE webhook_events SET status = 'failed' WHERE id = $1", [
        delivery._id,
      ]);
      const one = await call('POST', `/webhooks/deliveries/${delivery._id}/replay`);
      assert.equal(one.statusCode, 200, one.body);
      assert.equal(one.json().data.status, 'pending');
      await testApp.db.query("UPDATE webhook_events SET status = 'failed' WHERE id = $1", [
        delivery._id,
      ]);
      const bulk = await call('POST', '/webhooks/deliveries/replay', { since: '2020-01-01' });
      assert.equal(bulk.json().data.replayed, 1);
      const none = await call(
        'POST',
        '/webhooks/deliveries/replay',
        { since: '2020-01-01' },
        context().otherHeaders,
      );
      assert.equal(none.json().data.replayed, 0);
    });

    it('refuses a bad status filter and a missing since', async () => {
      assert.equal((await call('GET', '/webhooks/deliveries?status=lost')).statusCode, 400);
      assert.equal((await call('POST', '/webhooks/deliveries/replay', {})).statusCode, 400);
    });
  });

  describe('admin: PUT /admin/clients/:id/webhook', () => {
    it('sets the URL and answers it with the secret', async () => {
      const { testApp, ibsClientId } = context();
      const response = await testApp.app.inject({
        method: 'PUT',
        url: `/admin/clients/${ibsClientId}/webhook`,
        headers: adminHeaders,
        payload: { url: 'http://127.0.0.1:9000/in' },
      });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().data.url, 'http://127.0.0.1:9000/in');
      const mine = (await call('GET', '/webhooks/settings')).json().data;
      assert.equal(response.json().data.secret, mine.secret);
      const list = await testApp.app.inject({
        method: 'GET',
        url: `/admin/clients/${ibsClientId}/webhooks/deliveries`,
        headers: adminHeaders,
      });
      assert.equal(list.statusCode, 200);
    });
  });

  describeAuthGuards(context, () => ({ method: 'GET', url: '/webhooks/settings' }));
  describeRecordIsolation(context, (id) => ({ method: 'GET', url: `/webhooks/deliveries/${id}` }));
});

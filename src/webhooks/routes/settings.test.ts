import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeAuthGuards, useRouteContext } from '../../../test/shared-route-tests.ts';

describe('GET and PUT /webhooks/settings', () => {
  const context = useRouteContext();
  const call = (
    method: 'GET' | 'PUT',
    url: string,
    payload?: object,
    headers = context().headers,
  ) => context().testApp.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  describe('200: GET, your URL and signing secret', () => {
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

    it('answers the same secret every time until it is rotated', async () => {
      const first = (await call('GET', '/webhooks/settings')).json();
      const second = (await call('GET', '/webhooks/settings')).json();
      assert.equal(first.message, 'Webhook settings fetched successfully.');
      assert.equal(second.data.secret, first.data.secret);
    });
  });

  describe('200: PUT, the URL set or the secret rotated', () => {
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

    it('leaves what the body does not name, and null clears the URL', async () => {
      const before = (await call('GET', '/webhooks/settings')).json().data;
      const unchanged = await call('PUT', '/webhooks/settings', {});
      assert.equal(unchanged.statusCode, 200, unchanged.body);
      assert.equal(unchanged.json().message, 'Webhook settings updated successfully.');
      assert.equal(unchanged.json().data.url, before.url);
      assert.equal(unchanged.json().data.secret, before.secret);
      const cleared = (await call('PUT', '/webhooks/settings', { url: null })).json().data;
      assert.equal(cleared.url, null);
      assert.equal(cleared.secret, before.secret);
    });

    it("changes only the caller's settings", async () => {
      const theirs = (
        await call('GET', '/webhooks/settings', undefined, context().otherHeaders)
      ).json().data;
      await call('PUT', '/webhooks/settings', {
        url: 'http://localhost:9999/mine',
        rotateSecret: true,
      });
      const after = (
        await call('GET', '/webhooks/settings', undefined, context().otherHeaders)
      ).json().data;
      assert.deepEqual(after, theirs);
    });
  });

  describe('400: a URL the destination policy refuses', () => {
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

    it('refuses a rotateSecret that is not a boolean', async () => {
      const response = await call('PUT', '/webhooks/settings', { rotateSecret: 'yes' });
      assert.equal(response.statusCode, 400, response.body);
    });
  });

  describe('GET', () => {
    describeAuthGuards(context, () => ({ method: 'GET', url: '/webhooks/settings' }));
  });
  describe('PUT', () => {
    describeAuthGuards(context, () => ({ method: 'PUT', url: '/webhooks/settings', payload: {} }));
  });
});

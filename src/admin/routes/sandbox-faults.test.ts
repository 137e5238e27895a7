import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adminHeaders } from '../../../test/factories.ts';
import { inProduction } from '../../../test/sandbox-controls.ts';
import {
  describeAdminAuthGuards,
  describeAdminRecordIsolation,
  useRouteContext,
} from '../../../test/shared-route-tests.ts';

describe('/admin/sandbox/faults', () => {
  const context = useRouteContext();
  const admin = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    context().testApp.app.inject({
      method,
      url,
      headers: adminHeaders,
      ...(payload === undefined ? {} : { payload }),
    });
  const add = (payload: Record<string, unknown>) =>
    admin('POST', '/admin/sandbox/faults', {
      clientId: context().ibsClientId,
      route: 'GET /accounts',
      fault: '503',
      ...payload,
    });
  const accounts = (headers = context().headers) =>
    context().testApp.app.inject({ method: 'GET', url: '/accounts', headers });

  describe('201: a fault waits for the client’s next calls to the route', () => {
    it('answers the fault with its _id and how many calls it has left', async () => {
      const response = await add({ times: 2 });
      assert.equal(response.statusCode, 201, response.body);
      const fault = response.json().data;
      assert.match(fault._id, /^[0-9a-f]{24}$/);
      assert.deepEqual(
        { ...fault, _id: undefined, createdAt: undefined },
        {
          _id: undefined,
          clientId: context().ibsClientId,
          route: 'GET /accounts',
          fault: '503',
          times: 2,
          remaining: 2,
          retryAfterSeconds: 1,
          createdAt: undefined,
        },
      );
      await admin('DELETE', '/admin/sandbox/faults');
    });

    it('fails that many calls of that client only, in the error envelope, then none', async () => {
      await add({ times: 2 });
      for (const _ of [1, 2]) {
        const failed = await accounts();
        assert.equal(failed.statusCode, 503, failed.body);
        assert.equal(failed.json().code, 'SERVICE_UNAVAILABLE');
        assert.equal(failed.json().statusCode, 503);
        assert.equal(
          (await accounts(context().otherHeaders)).statusCode,
          200,
          'another client is not touched',
        );
      }
      assert.equal((await accounts()).statusCode, 200, 'spent');
      assert.deepEqual((await admin('GET', '/admin/sandbox/faults')).json().data, []);
    });

    it('500 and 429 (with Retry-After) too', async () => {
      await add({ fault: '500' });
      const failed = await accounts();
      assert.equal(failed.statusCode, 500);
      assert.equal(failed.json().code, 'INTERNAL_ERROR');
      await add({ fault: '429', retryAfterSeconds: 7 });
      const limited = await accounts();
      assert.equal(limited.statusCode, 429);
      assert.equal(limited.json().code, 'RATE_LIMITED');
      assert.equal(limited.headers['retry-after'], '7');
    });

    it('matches the route pattern as /openapi.json names it, whatever the parameter’s name', async () => {
      const { ownAccountId } = context();
      const response = await add({ route: 'get /accounts/{accountId}' });
      assert.equal(response.json().data.route, 'GET /accounts/{id}');
      const failed = await context().testApp.app.inject({
        method: 'GET',
        url: `/accounts/${ownAccountId}`,
        headers: context().headers,
      });
      assert.equal(failed.statusCode, 503);
      assert.equal((await accounts()).statusCode, 200, 'GET /accounts is another route');
    });
  });

  describe('200: listed and cleared', () => {
    it('lists them oldest first, per client or all; clears one, a client’s, or all', async () => {
      const { ibsClientId } = context();
      const other = (await admin('GET', '/admin/clients?limit=100'))
        .json()
        .data.find((client: { _id: string }) => client._id !== ibsClientId)._id;
      const first = (await add({})).json().data;
      const second = (await add({ fault: 'timeout', clientId: other })).json().data;
      const third = (await add({ fault: 'commit-then-504', route: 'POST /transfers' })).json().data;
      const ids = async (query = '') =>
        (await admin('GET', `/admin/sandbox/faults${query}`))
          .json()
          .data.map((fault: { _id: string }) => fault._id);
      assert.deepEqual(await ids(), [first._id, second._id, third._id]);
      assert.deepEqual(await ids(`?clientId=${ibsClientId}`), [first._id, third._id]);

      const one = await admin('DELETE', `/admin/sandbox/faults/${first._id}`);
      assert.deepEqual(one.json().data, { cleared: 1 });
      const again = await admin('DELETE', `/admin/sandbox/faults/${first._id}`);
      assert.equal(again.statusCode, 400);
      assert.equal(again.json().message, 'Unable to locate record');
      const clients = await admin('DELETE', `/admin/sandbox/faults?clientId=${other}`);
      assert.deepEqual(clients.json().data, { cleared: 1 });
      assert.deepEqual(await ids(), [third._id]);
      assert.deepEqual((await admin('DELETE', '/admin/sandbox/faults')).json().data, {
        cleared: 1,
      });
      assert.deepEqual(await ids(), []);
    });
  });

  describe('400: what cannot fail', () => {
    const refused: [string, Record<string, unknown>, string][] = [
      ['a route that does not exist', { route: 'POST /nowhere' }, 'route'],
      ['a route without a method', { route: '/transfers' }, 'route'],
      ['a route that takes no access token', { route: 'POST /oauth2/token' }, 'route'],
      ['an admin route', { route: 'POST /admin/sandbox/faults' }, 'route'],
      ['an unknown fault', { fault: '418' }, 'fault'],
      ['zero times', { times: 0 }, 'times'],
      ['more than 1000 times', { times: 1001 }, 'times'],
    ];
    for (const [label, payload, field] of refused) {
      it(`refuses ${label}`, async () => {
        const response = await add(payload);
        assert.equal(response.statusCode, 400, response.body);
        assert.equal(response.json().code, 'VALIDATION_ERROR');
        assert.match(
          JSON.stringify(response.json().details ?? response.json().message),
          new RegExp(field),
        );
        assert.deepEqual((await admin('GET', '/admin/sandbox/faults')).json().data, []);
      });
    }
  });

  describeAdminRecordIsolation(context, (clientId) => ({
    method: 'POST',
    url: '/admin/sandbox/faults',
    payload: { clientId, route: 'GET /accounts', fault: '503' },
  }));

  describe('403: sandbox only', () => {
    it('production has no faults: adding, listing and clearing them are refused', async () => {
      const answers = await inProduction([
        {
          method: 'POST',
          url: '/admin/sandbox/faults',
          payload: { clientId: 'ffffffffffffffffffffffff', route: 'POST /transfers', fault: '503' },
        },
        { method: 'GET', url: '/admin/sandbox/faults' },
        { method: 'DELETE', url: '/admin/sandbox/faults/ffffffffffffffffffffffff' },
        { method: 'DELETE', url: '/admin/sandbox/faults' },
      ]);
      for (const answer of answers) {
        assert.equal(answer.statusCode, 403, answer.body);
        assert.equal(answer.json().code, 'SANDBOX_ONLY');
      }
    });
  });

  for (const [method, url] of [
    ['GET', '/admin/sandbox/faults'],
    ['DELETE', '/admin/sandbox/faults'],
    ['DELETE', '/admin/sandbox/faults/ffffffffffffffffffffffff'],
  ] as const) {
    describeAdminAuthGuards(context, () => ({ method, url }));
  }
  describeAdminAuthGuards(context, (clientId) => ({
    method: 'POST',
    url: '/admin/sandbox/faults',
    payload: { clientId, route: 'GET /accounts', fault: '503' },
  }));
});

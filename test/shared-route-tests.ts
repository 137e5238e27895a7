import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InjectOptions } from 'fastify';
import { signedInClient } from './factories.ts';
import { buildTestApp, type TestApp } from './harness.ts';

export interface RouteContext {
  readonly testApp: TestApp;
  /** Headers of the client that owns `ownAccountId`. */
  readonly headers: Record<string, string>;
  readonly ownAccountId: string;
  readonly ibsClientId: string;
  readonly oauthClientId: string;
  /** Headers of a second client, for cross-client checks. */
  readonly otherHeaders: Record<string, string>;
  readonly otherAccountId: string;
}

/** One app per test file with two signed-in clients. */
export function useRouteContext(): () => RouteContext {
  let context: RouteContext | undefined;
  before(async () => {
    const testApp = await buildTestApp();
    const own = await signedInClient(testApp, 'Acme Ltd', 0);
    const other = await signedInClient(testApp, 'Rival Ltd', 1);
    context = {
      testApp,
      headers: own.headers,
      ownAccountId: own.client.mainAccountId,
      ibsClientId: own.client.ibsClientId,
      oauthClientId: own.client.oauthClientId,
      otherHeaders: other.headers,
      otherAccountId: other.client.mainAccountId,
    };
  });
  after(() => context?.testApp.close());
  return () => {
    assert.ok(context, 'route context is built in before()');
    return context;
  };
}

type RequestFor = (accountId: string) => Omit<InjectOptions, 'headers'>;

/**
 * The guarantees every authenticated route keeps: no token 401, bad or expired token 401,
 * missing or foreign ClientID 403 "Forbidden resource".
 */
export function describeAuthGuards(getContext: () => RouteContext, requestFor: RequestFor) {
  describe('401/403: authentication and the ClientID header', () => {
    const send = (headers: Record<string, string>) => {
      const context = getContext();
      return context.testApp.app.inject({ ...requestFor(context.ownAccountId), headers });
    };

    it('401 without a bearer token', async () => {
      const response = await send({ clientid: getContext().ibsClientId });
      assert.equal(response.statusCode, 401);
      assert.equal(response.json().error, 'Unauthorized');
    });

    it('401 with a forged token', async () => {
      const response = await send({
        authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl',
        clientid: getContext().ibsClientId,
      });
      assert.equal(response.statusCode, 401);
    });

    it('401 with an expired token', async () => {
      const { testApp, headers } = getContext();
      const restore = testApp.clock.now();
      testApp.clock.advanceSeconds(testApp.config.accessTokenTtlSeconds + 60);
      try {
        assert.equal((await send(headers)).statusCode, 401);
      } finally {
        testApp.clock.set(restore);
      }
    });

    it('403 "Forbidden resource" without the ClientID header', async () => {
      const { authorization } = getContext().headers;
      const response = await send({ authorization: authorization ?? '' });
      assert.equal(response.statusCode, 403);
      assert.equal(response.json().message, 'Forbidden resource');
    });

    it("403 with another client's id in ClientID", async () => {
      const { headers, otherHeaders } = getContext();
      const response = await send({ ...headers, clientid: otherHeaders.clientid ?? '' });
      assert.equal(response.statusCode, 403);
    });

    it('accepts the OAuth client id as ClientID too', async () => {
      const { headers, oauthClientId } = getContext();
      const response = await send({ ...headers, clientid: oauthClientId });
      assert.ok(response.statusCode < 401 || response.statusCode > 403, response.body);
    });
  });
}

/** Foreign and malformed ids answer exactly like unknown ones: 400 "Unable to locate record". */
export function describeRecordIsolation(getContext: () => RouteContext, requestFor: RequestFor) {
  describe('400 "Unable to locate record": foreign, unknown and malformed ids', () => {
    const ids = () => [
      ['another client', getContext().otherAccountId],
      ['unknown', 'ffffffffffffffffffffffff'],
      ['malformed', 'not-an-id'],
      ['injection attempt', "' OR '1'='1"],
      ['uppercase hex', getContext().ownAccountId.toUpperCase()],
    ];

    it('answers the same for every one, leaking nothing', async () => {
      const { testApp, headers } = getContext();
      for (const [label, id] of ids()) {
        const response = await testApp.app.inject({
          ...requestFor(encodeURIComponent(id ?? '')),
          headers,
        });
        assert.equal(response.statusCode, 400, `${label}: ${response.body}`);
        const body = response.json();
        assert.equal(body.message, 'Unable to locate record', label);
        assert.equal(body.code, 'RECORD_NOT_FOUND', label);
        assert.equal(body.data, undefined, label);
      }
    });
  });
}

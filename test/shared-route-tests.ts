import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { adminHeaders, signedInClient } from './factories.ts';
import { buildTestApp, type TestApp } from './harness.ts';

export interface RouteContext {
  readonly testApp: TestApp;
  /** Headers of the client that owns `ownAccountId`. */
  readonly headers: Record<string, string>;
  readonly ownAccountId: string;
  readonly ownAccountNumber: string;
  readonly ibsClientId: string;
  readonly oauthClientId: string;
  /** Headers of a second client, for cross-client checks. */
  readonly otherHeaders: Record<string, string>;
  readonly otherAccountId: string;
  readonly otherAccountNumber: string;
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
      ownAccountNumber: own.client.mainAccountNumber,
      ibsClientId: own.client.ibsClientId,
      oauthClientId: own.client.oauthClientId,
      otherHeaders: other.headers,
      otherAccountId: other.client.mainAccountId,
      otherAccountNumber: other.client.mainAccountNumber,
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
      assert.notEqual(response.statusCode, 401, response.body);
      assert.notEqual(response.statusCode, 403, response.body);
      assert.ok(response.statusCode < 500, `a server error is never an answer: ${response.body}`);
    });
  });
}

export interface RecordIsolationOptions {
  /**
   * A record of the same kind that belongs to the other client (a delivery, a verification, a
   * session id); without it, the other client's main account id stands in.
   */
  readonly foreignId?: () => string | Promise<string>;
}

/** Foreign and malformed ids answer exactly like unknown ones: 400 "Unable to locate record". */
export function describeRecordIsolation(
  getContext: () => RouteContext,
  requestFor: RequestFor,
  options: RecordIsolationOptions = {},
) {
  describe('400 "Unable to locate record": foreign, unknown and malformed ids', () => {
    const ids = async () => [
      ['another client', await (options.foreignId?.() ?? getContext().otherAccountId)],
      ['unknown', 'ffffffffffffffffffffffff'],
      ['malformed', 'not-an-id'],
      ['injection attempt', "' OR '1'='1"],
      ['uppercase hex', getContext().ownAccountId.toUpperCase()],
    ];

    it('answers the same for every one, leaking nothing', async () => {
      const { testApp, headers } = getContext();
      for (const [label, id] of await ids()) {
        const response = await testApp.app.inject({
          ...requestFor(encodeURIComponent(id ?? '')),
          headers,
        });
        assertRecordNotFound(response, label ?? '');
      }
    });
  });
}

/**
 * Operator routes (/admin) take the admin token, not client authentication: no token, a wrong
 * one, another scheme, or a client's access token all answer 401. `requestFor` gets the id of a
 * real client.
 */
export function describeAdminAuthGuards(getContext: () => RouteContext, requestFor: RequestFor) {
  describe('401: the admin token guards the route', () => {
    const send = (headers: Record<string, string>) => {
      const context = getContext();
      return context.testApp.app.inject({ ...requestFor(context.ibsClientId), headers });
    };
    const refused: [string, () => Record<string, string>][] = [
      ['without an Authorization header', () => ({})],
      ['with a wrong admin token', () => ({ authorization: 'Bearer wrong-token' })],
      [
        'with the admin token under another scheme',
        () => ({ authorization: `Basic ${adminHeaders.authorization.slice('Bearer '.length)}` }),
      ],
      ["with a client's access token", () => getContext().headers],
    ];

    for (const [label, headers] of refused) {
      it(`401 ${label}`, async () => {
        const response = await send(headers());
        assert.equal(response.statusCode, 401, response.body);
        assert.equal(response.json().error, 'Unauthorized');
      });
    }

    it('the admin token passes the guard', async () => {
      const response = await send(adminHeaders);
      assert.notEqual(response.statusCode, 401, response.body);
      assert.ok(response.statusCode < 500, `a server error is never an answer: ${response.body}`);
    });
  });
}

/** An operator route's client id: unknown, malformed or not a client id answers 400. */
export function describeAdminRecordIsolation(
  getContext: () => RouteContext,
  requestFor: RequestFor,
) {
  describe('400 "Unable to locate record": unknown and malformed client ids', () => {
    const ids = () => [
      ['an account id, not a client id', getContext().ownAccountId],
      ['unknown', 'ffffffffffffffffffffffff'],
      ['malformed', 'not-an-id'],
      ['injection attempt', "' OR '1'='1"],
      ['uppercase hex', getContext().ibsClientId.toUpperCase()],
    ];

    it('answers the same for every one, leaking nothing', async () => {
      const { testApp } = getContext();
      for (const [label, id] of ids()) {
        const response = await testApp.app.inject({
          ...requestFor(encodeURIComponent(id ?? '')),
          headers: adminHeaders,
        });
        assertRecordNotFound(response, label ?? '');
      }
    });
  });
}

function assertRecordNotFound(response: LightMyRequestResponse, label: string) {
  assert.equal(response.statusCode, 400, `${label}: ${response.body}`);
  const body = response.json();
  assert.equal(body.message, 'Unable to locate record', label);
  assert.equal(body.code, 'RECORD_NOT_FOUND', label);
  assert.equal(body.data, undefined, label);
}

import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { SignJWT, UnsecuredJWT } from 'jose';
import {
  adminHeaders,
  createClient,
  issueTokens,
  publicKeyPem,
  rsaKeyPair,
  signAssertion,
  type TestClient,
} from '../../../test/factories.ts';
import { buildTestApp, TEST_BASE_URL, type TestApp } from '../../../test/harness.ts';

const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

describe('POST /oauth2/token', () => {
  let testApp: TestApp;
  let client: TestClient;

  before(async () => {
    testApp = await buildTestApp();
    client = await createClient(testApp.app);
  });
  after(() => testApp.close());

  const exchange = (payload: Record<string, string>) =>
    testApp.app.inject({ method: 'POST', url: '/oauth2/token', payload });

  const credentials = (assertion: string, clientId = client.oauthClientId) => ({
    grant_type: 'client_credentials',
    client_id: clientId,
    client_assertion_type: ASSERTION_TYPE,
    client_assertion: assertion,
  });

  async function expectOAuthError(
    payload: Record<string, string>,
    status: number,
    error: string,
  ): Promise<Record<string, unknown>> {
    const response = await exchange(payload);
    assert.equal(response.statusCode, status, response.body);
    const body = response.json();
    assert.equal(body.error, error);
    assert.equal(body.statusCode, status);
    assert.equal(body.error_description, body.message);
    assert.equal(body.access_token, undefined);
    return body;
  }

  describe('201: issues tokens', () => {
    it('answers a JSON body with the published token fields', async () => {
      const response = await exchange(
        credentials(await signAssertion(client, { now: testApp.clock.now() })),
      );
      assert.equal(response.statusCode, 201);
      const body = response.json();
      assert.equal(body.token_type, 'Bearer');
      assert.equal(body.expires_in, 3600);
      assert.equal(body.client_id, client.oauthClientId);
      assert.equal(body.ibs_client_id, client.ibsClientId);
      assert.match(body.ibs_user_id, /^[0-9a-f]{24}$/);
      assert.ok(body.access_token.length > 20);
      assert.ok(body.refresh_token.length > 20);
      assert.equal(body.statusCode, undefined);
    });

    it('answers a form-encoded body, as SDKs send it', async () => {
      const assertion = await signAssertion(client, { now: testApp.clock.now() });
      const response = await testApp.app.inject({
        method: 'POST',
        url: '/oauth2/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(credentials(assertion)).toString(),
      });
      assert.equal(response.statusCode, 201, response.body);
    });

    it('reuses one hand-signed assertion until it expires, as the published docs allow', async () => {
      const assertion = await signAssertion(client, {
        now: testApp.clock.now(),
        lifetimeSeconds: 3600,
      });
      assert.equal((await exchange(credentials(assertion))).statusCode, 201);
      testApp.clock.advanceSeconds(1800);
      assert.equal((await exchange(credentials(assertion))).statusCode, 201);
    });

    it('accepts a lifetime of exactly ASSERTION_MAX_LIFETIME_SECONDS (1 hour by default)', async () => {
      assert.equal(testApp.config.assertionMaxLifetimeSeconds, 3600);
      const assertion = await signAssertion(client, {
        now: testApp.clock.now(),
        lifetimeSeconds: 3600,
      });
      assert.equal((await exchange(credentials(assertion))).statusCode, 201);
    });

    it('accepts an iat a little ahead of the server clock (30 s tolerance)', async () => {
      const assertion = await signAssertion(client, {
        now: new Date(testApp.clock.now().getTime() + 30_000),
      });
      const response = await exchange(credentials(assertion));
      assert.equal(response.statusCode, 201, response.body);
    });

    it('accepts an assertion without iat living up to the maximum from now', async () => {
      const now = Math.floor(testApp.clock.now().getTime() / 1000);
      const assertion = await new SignJWT({})
        .setProtectedHeader({ alg: 'RS256' })
        .setSubject(client.oauthClientId)
        .setAudience(TEST_BASE_URL)
        .setExpirationTime(now + 3600)
        .sign(client.privateKey);
      assert.equal((await exchange(credentials(assertion))).statusCode, 201);
    });

    it('takes the client id from the assertion when the body omits it', async () => {
      const assertion = await signAssertion(client, { now: testApp.clock.now() });
      const response = await exchange({
        grant_type: 'client_credentials',
        client_assertion: assertion,
      });
      assert.equal(response.statusCode, 201, response.body);
    });

    it('accepts the token URL as audience', async () => {
      const assertion = await signAssertion(client, {
        now: testApp.clock.now(),
        audience: `${TEST_BASE_URL}/oauth2/token`,
      });
      assert.equal((await exchange(credentials(assertion))).statusCode, 201);
    });

    it('accepts an ES256 key registered as an X.509-free SPKI key', async () => {
      const keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const other = await createClient(testApp.app, 'Ec Ltd');
      const registered = await testApp.app.inject({
        method: 'POST',
        url: `/admin/clients/${other.ibsClientId}/apps`,
        headers: adminHeaders,
        payload: { name: 'EC app', publicKey: publicKeyPem(keys.publicKey) },
      });
      assert.equal(registered.statusCode, 201, registered.body);
      const oauthClientId = registered.json().data.clientId;
      const now = Math.floor(testApp.clock.now().getTime() / 1000);
      const assertion = await new SignJWT({})
        .setProtectedHeader({ alg: 'ES256' })
        .setSubject(oauthClientId)
        .setAudience(TEST_BASE_URL)
        .setExpirationTime(now + 60)
        .sign(keys.privateKey);
      assert.equal((await exchange(credentials(assertion, oauthClientId))).statusCode, 201);
    });
  });

  describe('401 invalid_client: the assertion does not authenticate the app', () => {
    it('refuses a bad signature (signed by another key)', async () => {
      const forged = await signAssertion(
        { oauthClientId: client.oauthClientId, privateKey: rsaKeyPair(1).privateKey },
        { now: testApp.clock.now() },
      );
      const body = await expectOAuthError(credentials(forged), 401, 'invalid_client');
      assert.match(String(body.message), /signature/);
    });

    it('refuses an expired assertion', async () => {
      const assertion = await signAssertion(client, {
        now: testApp.clock.now(),
        lifetimeSeconds: 60,
      });
      testApp.clock.advanceSeconds(600);
      const body = await expectOAuthError(credentials(assertion), 401, 'invalid_client');
      assert.match(String(body.message), /expired/);
    });

    it('refuses a wrong aud', async () => {
      const assertion = await signAssertion(client, {
        now: testApp.clock.now(),
        audience: 'https://api.sandbox.safehavenmfb.com',
      });
      const body = await expectOAuthError(credentials(assertion), 401, 'invalid_client');
      assert.match(String(body.message), /aud/);
    });

    it('refuses a sub that is not the client id', async () => {
      const other = await createClient(testApp.app, 'Other Ltd');
      const assertion = await signAssertion(client, {
        now: testApp.clock.now(),
        subject: other.oauthClientId,
      });
      await expectOAuthError(credentials(assertion), 401, 'invalid_client');
    });

    it('refuses alg: none', async () => {
      const now = Math.floor(testApp.clock.now().getTime() / 1000);
      const unsigned = new UnsecuredJWT({})
        .setSubject(client.oauthClientId)
        .setAudience(TEST_BASE_URL)
        .setExpirationTime(now + 300)
        .encode();
      await expectOAuthError(credentials(unsigned), 401, 'invalid_client');
    });

    it('refuses HS256 keyed with the public key (algorithm confusion)', async () => {
      const now = Math.floor(testApp.clock.now().getTime() / 1000);
      const secret = new TextEncoder().encode(publicKeyPem(rsaKeyPair(0).publicKey));
      const confused = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(client.oauthClientId)
        .setAudience(TEST_BASE_URL)
        .setExpirationTime(now + 300)
        .sign(secret);
      const body = await expectOAuthError(credentials(confused), 401, 'invalid_client');
      assert.match(String(body.message), /algorithm/);
    });

    it('refuses an unknown client', async () => {
      const assertion = await signAssertion(
        { oauthClientId: 'f'.repeat(32), privateKey: client.privateKey },
        { now: testApp.clock.now() },
      );
      await expectOAuthError(credentials(assertion, 'f'.repeat(32)), 401, 'invalid_client');
    });

    it('refuses a lifetime above ASSERTION_MAX_LIFETIME_SECONDS (exp - iat)', async () => {
      for (const lifetimeSeconds of [3601, 86400]) {
        const assertion = await signAssertion(client, {
          now: testApp.clock.now(),
          lifetimeSeconds,
        });
        const body = await expectOAuthError(credentials(assertion), 401, 'invalid_client');
        assert.match(String(body.message), /at most 3600 seconds/);
      }
    });

    it('refuses a long lifetime even when iat is backdated, since exp - iat is what counts', async () => {
      const assertion = await signAssertion(client, {
        now: new Date(testApp.clock.now().getTime() - 86_000_000),
        lifetimeSeconds: 86_400 + 86_000,
      });
      await expectOAuthError(credentials(assertion), 401, 'invalid_client');
    });

    it('refuses an assertion without iat whose exp is more than the maximum away', async () => {
      const now = Math.floor(testApp.clock.now().getTime() / 1000);
      const assertion = await new SignJWT({})
        .setProtectedHeader({ alg: 'RS256' })
        .setSubject(client.oauthClientId)
        .setAudience(TEST_BASE_URL)
        .setExpirationTime(now + 7200)
        .sign(client.privateKey);
      const body = await expectOAuthError(credentials(assertion), 401, 'invalid_client');
      assert.match(String(body.message), /at most 3600 seconds/);
    });

    it('refuses an iat in the future beyond the 30 s tolerance', async () => {
      const assertion = await signAssertion(client, {
        now: new Date(testApp.clock.now().getTime() + 120_000),
      });
      const body = await expectOAuthError(credentials(assertion), 401, 'invalid_client');
      assert.match(String(body.message), /future \(iat\)/);
    });

    it('refuses garbage in place of a JWT', async () => {
      await expectOAuthError(
        { grant_type: 'client_credentials', client_assertion: 'not.a.jwt' },
        401,
        'invalid_client',
      );
    });
  });

  describe('400: malformed requests', () => {
    it('refuses a missing grant_type with invalid_request', async () => {
      await expectOAuthError({ client_id: client.oauthClientId }, 400, 'invalid_request');
    });

    it('refuses a missing client_assertion with invalid_request', async () => {
      await expectOAuthError(
        { grant_type: 'client_credentials', client_id: client.oauthClientId },
        400,
        'invalid_request',
      );
    });

    it('refuses a wrong client_assertion_type', async () => {
      const assertion = await signAssertion(client, { now: testApp.clock.now() });
      await expectOAuthError(
        { ...credentials(assertion), client_assertion_type: 'urn:other' },
        400,
        'invalid_request',
      );
    });

    it('answers authorization_code with unsupported_grant_type', async () => {
      await expectOAuthError({ grant_type: 'authorization_code' }, 400, 'unsupported_grant_type');
    });
  });

  describe('refresh_token grant: rotation and reuse detection', () => {
    /** A refresh as RFC 6749 §6 wants it from a confidential client: authenticated. */
    const refresh = async (refreshToken: string, as: TestClient = client) =>
      exchange({
        grant_type: 'refresh_token',
        client_id: as.oauthClientId,
        client_assertion_type: ASSERTION_TYPE,
        client_assertion: await signAssertion(as, { now: testApp.clock.now() }),
        refresh_token: refreshToken,
      });

    it('rotates: each use issues a new refresh token and a working access token', async () => {
      const first = await issueTokens(testApp, client);
      const response = await refresh(first.refresh_token);
      assert.equal(response.statusCode, 201, response.body);
      const second = response.json();
      assert.notEqual(second.refresh_token, first.refresh_token);
      const accounts = await testApp.app.inject({
        method: 'GET',
        url: '/accounts',
        headers: { authorization: `Bearer ${second.access_token}`, clientid: client.ibsClientId },
      });
      assert.equal(accounts.statusCode, 200);
    });

    it('takes the client id from the assertion when the body omits it', async () => {
      const first = await issueTokens(testApp, client);
      const response = await exchange({
        grant_type: 'refresh_token',
        client_assertion: await signAssertion(client, { now: testApp.clock.now() }),
        refresh_token: first.refresh_token,
      });
      assert.equal(response.statusCode, 201, response.body);
    });

    it('refuses a reused refresh token and revokes its whole family', async () => {
      const first = await issueTokens(testApp, client);
      const second = (await refresh(first.refresh_token)).json();
      const reused = await refresh(first.refresh_token);
      assert.equal(reused.statusCode, 400);
      assert.equal(reused.json().error, 'invalid_grant');
      // The legitimate successor dies with the family: the thief and the client both start over.
      const successor = await refresh(second.refresh_token);
      assert.equal(successor.statusCode, 400);
      assert.equal(successor.json().error, 'invalid_grant');
    });

    it('refuses an unknown refresh token', async () => {
      const response = await refresh('nonsense');
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().error, 'invalid_grant');
    });

    it('refuses an expired refresh token', async () => {
      const tokens = await issueTokens(testApp, client);
      testApp.clock.advanceSeconds(testApp.config.refreshTokenTtlSeconds + 1);
      const response = await refresh(tokens.refresh_token);
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().error, 'invalid_grant');
    });

    it("refuses another client's refresh token without burning it for its owner", async () => {
      const other = await createClient(testApp.app, 'Thief Ltd');
      const tokens = await issueTokens(testApp, client);
      const stolen = await refresh(tokens.refresh_token, other);
      assert.equal(stolen.statusCode, 400, stolen.body);
      assert.equal(stolen.json().error, 'invalid_grant');
      assert.equal((await refresh(tokens.refresh_token)).statusCode, 201);
    });
  });

  describe('refresh_token grant: 401 invalid_client, the client must authenticate', () => {
    it('refuses a refresh token alone, and the token still works for its owner', async () => {
      const tokens = await issueTokens(testApp, client);
      const body = await expectOAuthError(
        { grant_type: 'refresh_token', refresh_token: tokens.refresh_token },
        401,
        'invalid_client',
      );
      assert.match(String(body.message), /client_assertion/);
      await expectOAuthError(
        {
          grant_type: 'refresh_token',
          client_id: client.oauthClientId,
          refresh_token: tokens.refresh_token,
        },
        401,
        'invalid_client',
      );
      const response = await exchange({
        ...credentials(await signAssertion(client, { now: testApp.clock.now() })),
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
      });
      assert.equal(response.statusCode, 201, response.body);
    });

    it('does not revoke the family when a used token comes without client authentication', async () => {
      const first = await issueTokens(testApp, client);
      const assertion = await signAssertion(client, { now: testApp.clock.now() });
      const asClient = (refreshToken: string) =>
        exchange({
          ...credentials(assertion),
          grant_type: 'refresh_token',
          refresh_token: refreshToken,
        });
      const second = (await asClient(first.refresh_token)).json();
      await expectOAuthError(
        { grant_type: 'refresh_token', refresh_token: first.refresh_token },
        401,
        'invalid_client',
      );
      assert.equal((await asClient(second.refresh_token)).statusCode, 201);
    });

    it('refuses an assertion signed by another key, without burning the token', async () => {
      const tokens = await issueTokens(testApp, client);
      const forged = await signAssertion(
        { oauthClientId: client.oauthClientId, privateKey: rsaKeyPair(1).privateKey },
        { now: testApp.clock.now() },
      );
      const body = await expectOAuthError(
        {
          ...credentials(forged),
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
        },
        401,
        'invalid_client',
      );
      assert.match(String(body.message), /signature/);
      const response = await exchange({
        ...credentials(await signAssertion(client, { now: testApp.clock.now() })),
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
      });
      assert.equal(response.statusCode, 201, response.body);
    });

    it('refuses a client_id that is not the assertion subject', async () => {
      const other = await createClient(testApp.app, 'Mismatch Ltd');
      const tokens = await issueTokens(testApp, client);
      await expectOAuthError(
        {
          ...credentials(
            await signAssertion(client, { now: testApp.clock.now() }),
            other.oauthClientId,
          ),
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
        },
        401,
        'invalid_client',
      );
    });

    it('refuses a wrong client_assertion_type with invalid_request', async () => {
      const tokens = await issueTokens(testApp, client);
      await expectOAuthError(
        {
          ...credentials(await signAssertion(client, { now: testApp.clock.now() })),
          client_assertion_type: 'urn:other',
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
        },
        400,
        'invalid_request',
      );
    });
  });
});

describe('POST /oauth2/token with ASSERTION_MAX_LIFETIME_SECONDS=86400', () => {
  let testApp: TestApp;
  let client: TestClient;

  before(async () => {
    testApp = await buildTestApp({ ASSERTION_MAX_LIFETIME_SECONDS: '86400' });
    client = await createClient(testApp.app);
  });
  after(() => testApp.close());

  it('accepts a day-long hand-signed assertion, and refuses a longer one', async () => {
    for (const [lifetimeSeconds, status] of [
      [86400, 201],
      [86401, 401],
    ] as const) {
      const response = await testApp.app.inject({
        method: 'POST',
        url: '/oauth2/token',
        payload: {
          grant_type: 'client_credentials',
          client_id: client.oauthClientId,
          client_assertion_type: ASSERTION_TYPE,
          client_assertion: await signAssertion(client, {
            now: testApp.clock.now(),
            lifetimeSeconds,
          }),
        },
      });
      assert.equal(response.statusCode, status, response.body);
    }
  });
});

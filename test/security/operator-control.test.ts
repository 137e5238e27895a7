import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  adminHeaders,
  createClient,
  issueTokens,
  publicKeyPem,
  rsaKeyPair,
  signAssertion,
  signedInClient,
  type TestClient,
} from '../factories.ts';
import { buildSecondApp, buildTestApp, type TestApp } from '../harness.ts';

/**
 * Operator control (docs/security.md): revoke an app, add and revoke keys, disable a client,
 * revoke a client's tokens. Access tokens are verified without the database, so each test checks
 * that a token this process has already verified (and cached) is refused after the revocation.
 */
describe('operator control over apps, keys and clients', () => {
  let testApp: TestApp;

  before(async () => {
    testApp = await buildTestApp({ REVOCATION_REFRESH_SECONDS: '1' });
  });
  after(() => testApp.close());

  const admin = (method: 'GET' | 'POST', url: string, payload?: object) =>
    testApp.app.inject({ method, url, headers: adminHeaders, ...(payload ? { payload } : {}) });
  const accounts = (headers: Record<string, string>) =>
    testApp.app.inject({ method: 'GET', url: '/accounts', headers });
  const exchange = async (client: TestClient) =>
    testApp.app.inject({
      method: 'POST',
      url: '/oauth2/token',
      payload: {
        grant_type: 'client_credentials',
        client_id: client.oauthClientId,
        client_assertion: await signAssertion(client, { now: testApp.clock.now() }),
      },
    });
  const refresh = async (client: TestClient, refreshToken: string) =>
    testApp.app.inject({
      method: 'POST',
      url: '/oauth2/token',
      payload: {
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: client.oauthClientId,
        client_assertion: await signAssertion(client, { now: testApp.clock.now() }),
      },
    });
  async function appIdOf(client: TestClient) {
    const listed = await admin('GET', `/admin/clients/${client.ibsClientId}/apps`);
    assert.equal(listed.statusCode, 200);
    const apps = listed.json().data as { _id: string; clientId: string }[];
    const found = apps.find((app) => app.clientId === client.oauthClientId);
    assert.ok(found);
    return found._id;
  }

  it('lists a client’s apps with their keys, and never another client’s app', async () => {
    const { client } = await signedInClient(testApp, 'Listed Ltd');
    const other = await createClient(testApp.app, 'Other Ltd');
    const listed = await admin('GET', `/admin/clients/${client.ibsClientId}/apps`);
    const [app] = listed.json().data;
    assert.equal(app.status, 'Active');
    assert.equal(app.keys.length, 1);
    assert.equal(app.keys[0].revokedAt, null);
    assert.equal(JSON.stringify(app).includes('BEGIN PUBLIC KEY'), false);
    const foreign = await admin(
      'POST',
      `/admin/clients/${other.ibsClientId}/apps/${app._id}/revoke`,
    );
    assert.equal(foreign.statusCode, 400);
    assert.equal(foreign.json().code, 'RECORD_NOT_FOUND');
  });

  it('revoking an app refuses its cached access token, its refresh token and new exchanges', async () => {
    const { client, tokens, headers } = await signedInClient(testApp, 'Revoked App Ltd');
    assert.equal((await accounts(headers)).statusCode, 200);
    const appId = await appIdOf(client);
    const revoked = await admin(
      'POST',
      `/admin/clients/${client.ibsClientId}/apps/${appId}/revoke`,
    );
    assert.equal(revoked.statusCode, 200);

    const refused = await accounts(headers);
    assert.equal(refused.statusCode, 401);
    assert.match(refused.json().message, /revoked/);
    assert.equal((await refresh(client, tokens.refresh_token)).statusCode, 401);
    testApp.clock.advanceSeconds(1);
    assert.equal((await exchange(client)).statusCode, 401);
    const listed = await admin('GET', `/admin/clients/${client.ibsClientId}/apps`);
    assert.equal(listed.json().data[0].status, 'Revoked');
    // Revoking again is harmless.
    const again = await admin('POST', `/admin/clients/${client.ibsClientId}/apps/${appId}/revoke`);
    assert.equal(again.statusCode, 200);
  });

  it('rotates keys: the new key authenticates, the revoked key does not, old tokens stop', async () => {
    const { client, headers } = await signedInClient(testApp, 'Rotating Ltd');
    const appId = await appIdOf(client);
    const newKeys = rsaKeyPair(1);
    const added = await admin('POST', `/admin/clients/${client.ibsClientId}/apps/${appId}/keys`, {
      publicKey: publicKeyPem(newKeys.publicKey),
    });
    assert.equal(added.statusCode, 201);
    const withNewKey = { ...client, privateKey: newKeys.privateKey };
    assert.equal((await exchange(withNewKey)).statusCode, 201);

    const listed = await admin('GET', `/admin/clients/${client.ibsClientId}/apps`);
    const oldKey = listed
      .json()
      .data[0].keys.find((key: { _id: string }) => key._id !== added.json().data._id);
    const revoked = await admin(
      'POST',
      `/admin/clients/${client.ibsClientId}/apps/${appId}/keys/${oldKey._id}/revoke`,
    );
    assert.equal(revoked.statusCode, 200);
    assert.equal((await accounts(headers)).statusCode, 401, 'a token from before the revocation');
    testApp.clock.advanceSeconds(1);
    assert.equal((await exchange(client)).statusCode, 401, 'the revoked key');
    const fresh = await exchange(withNewKey);
    assert.equal(fresh.statusCode, 201, 'the new key');
    const freshHeaders = {
      authorization: `Bearer ${fresh.json().access_token}`,
      clientid: client.ibsClientId,
    };
    assert.equal((await accounts(freshHeaders)).statusCode, 200);
    const unknownKey = await admin(
      'POST',
      `/admin/clients/${client.ibsClientId}/apps/${appId}/keys/${oldKey._id}/revoke`,
    );
    assert.equal(unknownKey.statusCode, 400, 'a key already revoked is no live key');
  });

  it('refuses a weak key, a key for a revoked app and a sixth live key', async () => {
    const { client } = await signedInClient(testApp, 'Keys Ltd');
    const appId = await appIdOf(client);
    const keysUrl = `/admin/clients/${client.ibsClientId}/apps/${appId}/keys`;
    const { generateKeyPairSync } = await import('node:crypto');
    const weak = generateKeyPairSync('rsa', { modulusLength: 1024 });
    assert.equal(
      (await admin('POST', keysUrl, { publicKey: publicKeyPem(weak.publicKey) })).statusCode,
      400,
    );
    for (let index = 2; index <= 5; index += 1) {
      const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
      assert.equal(
        (await admin('POST', keysUrl, { publicKey: publicKeyPem(ec.publicKey) })).statusCode,
        201,
      );
    }
    const sixth = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const refused = await admin('POST', keysUrl, { publicKey: publicKeyPem(sixth.publicKey) });
    assert.equal(refused.statusCode, 409);
    await admin('POST', `/admin/clients/${client.ibsClientId}/apps/${appId}/revoke`);
    const onRevoked = await admin('POST', keysUrl, { publicKey: publicKeyPem(sixth.publicKey) });
    assert.equal(onRevoked.statusCode, 409);
  });

  it('disabling a client stops its tokens and exchanges; enabling lets it sign in again', async () => {
    const { client, tokens, headers } = await signedInClient(testApp, 'Disabled Ltd');
    const disabled = await admin('POST', `/admin/clients/${client.ibsClientId}/disable`);
    assert.equal(disabled.statusCode, 200);
    assert.equal(disabled.json().data.status, 'Disabled');
    assert.equal((await accounts(headers)).statusCode, 401);
    assert.equal((await refresh(client, tokens.refresh_token)).statusCode, 401);
    testApp.clock.advanceSeconds(1);
    const exchanged = await exchange(client);
    assert.equal(exchanged.statusCode, 401);
    assert.equal(exchanged.json().code, 'OAUTH_INVALID_CLIENT');

    const enabled = await admin('POST', `/admin/clients/${client.ibsClientId}/enable`);
    assert.equal(enabled.json().data.status, 'Active');
    assert.equal((await accounts(headers)).statusCode, 401, 'old tokens stay revoked');
    const again = await exchange(client);
    assert.equal(again.statusCode, 201);
    const againHeaders = {
      authorization: `Bearer ${again.json().access_token}`,
      clientid: client.ibsClientId,
    };
    assert.equal((await accounts(againHeaders)).statusCode, 200);
  });

  it('revoking a client’s tokens stops every app’s tokens at once; new ones work', async () => {
    const { client, tokens, headers } = await signedInClient(testApp, 'Revoke All Ltd');
    const second = await issueTokens(testApp, client);
    const secondHeaders = {
      authorization: `Bearer ${second.access_token}`,
      clientid: client.ibsClientId,
    };
    const other = await signedInClient(testApp, 'Bystander Ltd');
    assert.equal((await accounts(headers)).statusCode, 200);

    const revoked = await admin('POST', `/admin/clients/${client.ibsClientId}/revoke-tokens`);
    assert.equal(revoked.statusCode, 200);
    assert.ok(revoked.json().data.tokensRevokedAt);
    assert.equal((await accounts(headers)).statusCode, 401);
    assert.equal((await accounts(secondHeaders)).statusCode, 401);
    // The app still authenticates, so the refused grant is a 400 invalid_grant (RFC 6749 §5.2).
    for (const refreshToken of [tokens.refresh_token, second.refresh_token]) {
      const refused = await refresh(client, refreshToken);
      assert.equal(refused.statusCode, 400);
      assert.equal(refused.json().error, 'invalid_grant');
    }
    assert.equal((await accounts(other.headers)).statusCode, 200, 'another client is untouched');
    testApp.clock.advanceSeconds(1);
    const fresh = await issueTokens(testApp, client);
    const freshHeaders = {
      authorization: `Bearer ${fresh.access_token}`,
      clientid: client.ibsClientId,
    };
    assert.equal((await accounts(freshHeaders)).statusCode, 200);
  });

  it('an unknown client id on every operator route answers as an unknown record', async () => {
    for (const action of ['disable', 'enable', 'revoke-tokens']) {
      const answer = await admin('POST', `/admin/clients/000000000000000000000000/${action}`);
      assert.equal(answer.statusCode, 400);
      assert.equal(answer.json().code, 'RECORD_NOT_FOUND');
    }
  });

  it('another server process refuses a revoked cached token within REVOCATION_REFRESH_SECONDS', async () => {
    // A second instance on the same database: it learns of the revocation only by reading it.
    const second = await buildSecondApp(testApp);
    try {
      const { client, headers } = await signedInClient(testApp, 'Two Instances Ltd');
      const onSecond = () => second.inject({ method: 'GET', url: '/accounts', headers });
      assert.equal((await onSecond()).statusCode, 200, 'verified and cached by the second');
      await admin('POST', `/admin/clients/${client.ibsClientId}/revoke-tokens`);
      assert.equal((await accounts(headers)).statusCode, 401, 'at once where it was revoked');
      const deadline = Date.now() + 1_000 * testApp.config.revocationRefreshSeconds + 1_500;
      let status = (await onSecond()).statusCode;
      while (status === 200 && Date.now() < deadline) {
        await sleep(100);
        status = (await onSecond()).statusCode;
      }
      assert.equal(status, 401, 'within the refresh interval on the other instance');
    } finally {
      await second.close();
    }
  });
});

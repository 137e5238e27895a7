import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import { TEST_BASE_URL, TEST_SECRETS, type TestApp } from './harness.ts';

export const adminHeaders = { authorization: `Bearer ${TEST_SECRETS.adminToken}` };

// Generating RSA keys is slow; tests share a few.
const rsaKeys: { privateKey: KeyObject; publicKey: KeyObject }[] = [];
export function rsaKeyPair(index = 0) {
  while (rsaKeys.length <= index) {
    rsaKeys.push(generateKeyPairSync('rsa', { modulusLength: 2048 }));
  }
  return rsaKeys[index] as { privateKey: KeyObject; publicKey: KeyObject };
}

export function publicKeyPem(publicKey: KeyObject): string {
  return publicKey.export({ type: 'spki', format: 'pem' }).toString();
}

export interface TestClient {
  readonly ibsClientId: string;
  readonly oauthClientId: string;
  readonly privateKey: KeyObject;
  readonly mainAccountId: string;
  readonly mainAccountNumber: string;
}

/** A client with its main account and an RS256 app, through the admin API. */
export async function createClient(app: FastifyInstance, name = 'Acme Ltd', keyIndex = 0) {
  const created = await app.inject({
    method: 'POST',
    url: '/admin/clients',
    headers: adminHeaders,
    payload: { name },
  });
  if (created.statusCode !== 201) {
    throw new Error(`client creation failed: ${created.body}`);
  }
  const client = created.json().data;
  const keys = rsaKeyPair(keyIndex);
  const registered = await app.inject({
    method: 'POST',
    url: `/admin/clients/${client._id}/apps`,
    headers: adminHeaders,
    payload: { name: 'Test app', publicKey: publicKeyPem(keys.publicKey) },
  });
  if (registered.statusCode !== 201) {
    throw new Error(`app registration failed: ${registered.body}`);
  }
  return {
    ibsClientId: client._id,
    oauthClientId: registered.json().data.clientId,
    privateKey: keys.privateKey,
    mainAccountId: client.mainAccount._id,
    mainAccountNumber: client.mainAccount.accountNumber,
  } satisfies TestClient;
}

export async function signAssertion(
  client: { oauthClientId: string; privateKey: KeyObject },
  options: { now: Date; audience?: string; subject?: string; lifetimeSeconds?: number },
): Promise<string> {
  const nowSeconds = Math.floor(options.now.getTime() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuer('https://fintech.example')
    .setSubject(options.subject ?? client.oauthClientId)
    .setAudience(options.audience ?? TEST_BASE_URL)
    .setIssuedAt(nowSeconds)
    .setExpirationTime(nowSeconds + (options.lifetimeSeconds ?? 300))
    .sign(client.privateKey);
}

export async function issueTokens(testApp: TestApp, client: TestClient) {
  const response = await testApp.app.inject({
    method: 'POST',
    url: '/oauth2/token',
    payload: {
      grant_type: 'client_credentials',
      client_id: client.oauthClientId,
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: await signAssertion(client, { now: testApp.clock.now() }),
    },
  });
  if (response.statusCode !== 201) {
    throw new Error(`token exchange failed: ${response.body}`);
  }
  return response.json() as { access_token: string; refresh_token: string; ibs_client_id: string };
}

/** A client and the headers every authenticated call needs. */
export async function signedInClient(testApp: TestApp, name = 'Acme Ltd', keyIndex = 0) {
  const client = await createClient(testApp.app, name, keyIndex);
  const tokens = await issueTokens(testApp, client);
  const headers = { authorization: `Bearer ${tokens.access_token}`, clientid: client.ibsClientId };
  return { client, tokens, headers };
}

export async function sandboxCredit(app: FastifyInstance, accountNumber: string, amount: number) {
  const response = await app.inject({
    method: 'POST',
    url: '/admin/sandbox/credits',
    headers: adminHeaders,
    payload: { accountNumber, amount },
  });
  if (response.statusCode !== 201) {
    throw new Error(`sandbox credit failed: ${response.body}`);
  }
  return response.json().data;
}

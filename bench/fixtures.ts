import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { expectJson, type HttpClient } from './http-client.ts';

/** What the measurements need: a signed-in client owning a big and a small account. */
export interface Fixtures {
  readonly clientId: string;
  /** Authorization (Bearer access token) and ClientID: what every API call sends. */
  readonly apiHeaders: Readonly<Record<string, string>>;
  readonly bigAccount: { readonly id: string; readonly accountNumber: string };
  readonly smallAccount: { readonly id: string; readonly accountNumber: string };
}

interface AccountData {
  _id: string;
  accountNumber: string;
}

/**
 * Everything through the public HTTP API, as an integrator would: the admin API onboards a
 * client (with its main account, the big one) and registers an RS256 app; the app signs a
 * client assertion for an access token; the token opens a second account (the small one).
 */
export async function createFixtures(
  http: HttpClient,
  options: { adminToken: string; audience: string },
): Promise<Fixtures> {
  const admin = { authorization: `Bearer ${options.adminToken}` };
  const client = expectJson<{ data: { _id: string; mainAccount: AccountData } }>(
    await http.post('/admin/clients', { name: 'Bench Ltd' }, admin),
    201,
    'POST /admin/clients',
  ).data;
  const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicKey = keys.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const registered = expectJson<{ data: { clientId: string } }>(
    await http.post(`/admin/clients/${client._id}/apps`, { name: 'Bench app', publicKey }, admin),
    201,
    'POST /admin/clients/:id/apps',
  ).data;
  const assertion = await signAssertion(registered.clientId, keys.privateKey, options.audience);
  const tokens = expectJson<{ access_token: string }>(
    await http.post('/oauth2/token', {
      grant_type: 'client_credentials',
      client_id: registered.clientId,
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: assertion,
    }),
    201,
    'POST /oauth2/token',
  );
  const apiHeaders = { authorization: `Bearer ${tokens.access_token}`, clientid: client._id };
  const small = expectJson<{ data: AccountData }>(
    await http.post('/accounts', { suffix: 'small' }, apiHeaders),
    200,
    'POST /accounts',
  ).data;
  return {
    clientId: client._id,
    apiHeaders,
    bigAccount: { id: client.mainAccount._id, accountNumber: client.mainAccount.accountNumber },
    smallAccount: { id: small._id, accountNumber: small.accountNumber },
  };
}

function signAssertion(
  oauthClientId: string,
  privateKey: KeyObject,
  audience: string,
): Promise<string> {
  const nowSeconds = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuer('https://bench.openibs.invalid')
    .setSubject(oauthClientId)
    .setAudience(audience)
    .setIssuedAt(nowSeconds)
    .setExpirationTime(nowSeconds + 300)
    .sign(privateKey);
}

/**
 * Small inbound credits through the sandbox admin API, so the small account's entries are
 * posted by ledger_post itself. Under the stamp duty threshold, each is exactly one entry.
 */
export async function creditSmallAccount(
  http: HttpClient,
  options: { adminToken: string; accountNumber: string; count: number },
): Promise<void> {
  const admin = { authorization: `Bearer ${options.adminToken}` };
  for (let index = 1; index <= options.count; index += 1) {
    expectJson(
      await http.post(
        '/admin/sandbox/credits',
        { accountNumber: options.accountNumber, amount: 100 + index, narration: `Bench ${index}` },
        admin,
      ),
      201,
      'POST /admin/sandbox/credits',
    );
  }
}

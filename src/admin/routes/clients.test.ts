import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { adminHeaders, createClient, publicKeyPem, rsaKeyPair } from '../../../test/factories.ts';
import {
  describeAdminAuthGuards,
  describeAdminRecordIsolation,
  useRouteContext,
} from '../../../test/shared-route-tests.ts';

describe('admin clients: POST /admin/clients, GET /admin/clients/:id, POST /admin/clients/:id/apps', () => {
  const context = useRouteContext();

  const admin = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
    context().testApp.app.inject({
      method,
      url,
      headers: adminHeaders,
      ...(payload ? { payload } : {}),
    });

  describe('401: the admin token guards every route', () => {
    for (const authorization of [undefined, 'Bearer wrong-token', 'Basic abc']) {
      it(`refuses ${authorization ?? 'no Authorization header'}`, async () => {
        const response = await context().testApp.app.inject({
          method: 'POST',
          url: '/admin/clients',
          headers: authorization === undefined ? {} : { authorization },
          payload: { name: 'Nobody' },
        });
        assert.equal(response.statusCode, 401);
      });
    }

    it('does not accept a client access token as an admin token', async () => {
      const response = await context().testApp.app.inject({
        method: 'GET',
        url: '/admin/clients/ffffffffffffffffffffffff',
        headers: { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.x' },
      });
      assert.equal(response.statusCode, 401);
    });
  });

  describe('POST /admin/clients', () => {
    describe('201: a client with a zero-balance main account', () => {
      it('creates a client with a zero-balance main account', async () => {
        const response = await admin('POST', '/admin/clients', {
          name: 'Kobo Pay',
          emailAddress: 'ops@kobopay.example',
        });
        assert.equal(response.statusCode, 201, response.body);
        const { data } = response.json();
        assert.match(data._id, /^[0-9a-f]{24}$/);
        assert.equal(data.mainAccount.accountName, 'KOBO PAY');
        assert.equal(data.mainAccount.accountBalance, 0);
        assert.equal(data.mainAccount.client, data._id);
        const fetched = await admin('GET', `/admin/clients/${data._id}`);
        assert.equal(fetched.json().data.mainAccount.accountNumber, data.mainAccount.accountNumber);
      });
    });

    describe('400: bad input', () => {
      it('refuses a blank name and a bad email', async () => {
        assert.equal((await admin('POST', '/admin/clients', { name: '   ' })).statusCode, 400);
        const badEmail = await admin('POST', '/admin/clients', { name: 'A', emailAddress: 'nope' });
        assert.equal(badEmail.statusCode, 400);
      });
    });

    describeAdminAuthGuards(context, () => ({
      method: 'POST',
      url: '/admin/clients',
      payload: { name: 'Guarded Ltd' },
    }));
  });

  describe('GET /admin/clients/:id', () => {
    describe('200: the client with its main account', () => {
      it('answers the client as it was created', async () => {
        const { ibsClientId, ownAccountId, ownAccountNumber } = context();
        const response = await admin('GET', `/admin/clients/${ibsClientId}`);
        assert.equal(response.statusCode, 200, response.body);
        const body = response.json();
        assert.equal(body.message, 'Client fetched successfully.');
        assert.equal(body.data._id, ibsClientId);
        assert.equal(body.data.name, 'Acme Ltd');
        assert.equal(body.data.mainAccount._id, ownAccountId);
        assert.equal(body.data.mainAccount.accountNumber, ownAccountNumber);
        assert.equal(body.data.createdAt, new Date(body.data.createdAt).toISOString());
      });
    });

    const request = (id: string) => ({ method: 'GET' as const, url: `/admin/clients/${id}` });
    describeAdminAuthGuards(context, request);
    describeAdminRecordIsolation(context, request);
  });

  describe('POST /admin/clients/:id/apps', () => {
    let clientId: string;
    before(async () => {
      clientId = (await createClient(context().testApp.app, 'Keys Ltd')).ibsClientId;
    });
    const register = (publicKey: string, id = clientId) =>
      admin('POST', `/admin/clients/${id}/apps`, { name: 'App', publicKey });

    describe('201: the OAuth client id of the registered key', () => {
      it('accepts an SPKI RSA key and answers the OAuth client id', async () => {
        const response = await register(publicKeyPem(rsaKeyPair(0).publicKey));
        assert.equal(response.statusCode, 201, response.body);
        assert.match(response.json().data.clientId, /^[0-9a-f]{32}$/);
        assert.equal(response.json().data.algorithm, 'RS256');
      });
    });

    describe('400: keys that are weak, private, garbage or of another curve', () => {
      it('refuses RSA keys under 2048 bits', async () => {
        const weak = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey;
        const response = await register(publicKeyPem(weak));
        assert.equal(response.statusCode, 400);
        assert.match(response.json().message, /2048/);
      });

      it('refuses a private key, garbage, and an unsupported curve', async () => {
        const privatePem = rsaKeyPair(0)
          .privateKey.export({ type: 'pkcs8', format: 'pem' })
          .toString();
        assert.equal((await register(privatePem)).statusCode, 400);
        assert.equal(
          (await register('-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----')).statusCode,
          400,
        );
        const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey;
        assert.equal((await register(publicKeyPem(p384))).statusCode, 400);
      });
    });

    describe('400 "Unable to locate record": the client must exist', () => {
      it('answers 400 "Unable to locate record" for an unknown client', async () => {
        const response = await register(publicKeyPem(rsaKeyPair(0).publicKey), 'f'.repeat(24));
        assert.equal(response.statusCode, 400);
        assert.equal(response.json().message, 'Unable to locate record');
      });
    });

    const request = (id: string) => ({
      method: 'POST' as const,
      url: `/admin/clients/${id}/apps`,
      payload: { name: 'App', publicKey: publicKeyPem(rsaKeyPair(0).publicKey) },
    });
    describeAdminAuthGuards(context, request);
    describeAdminRecordIsolation(context, request);
  });
});

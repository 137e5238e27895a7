import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { adminHeaders, createClient, publicKeyPem, rsaKeyPair } from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';

describe('admin API', () => {
  let testApp: TestApp;
  before(async () => {
    testApp = await buildTestApp();
  });
  after(() => testApp.close());

  const admin = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
    testApp.app.inject({ method, url, headers: adminHeaders, ...(payload ? { payload } : {}) });

  describe('401: the admin token guards every route', () => {
    for (const authorization of [undefined, 'Bearer wrong-token', 'Basic abc']) {
      it(`refuses ${authorization ?? 'no Authorization header'}`, async () => {
        const response = await testApp.app.inject({
          method: 'POST',
          url: '/admin/clients',
          headers: authorization === undefined ? {} : { authorization },
          payload: { name: 'Nobody' },
        });
        assert.equal(response.statusCode, 401);
      });
    }

    it('does not accept a client access token as an admin token', async () => {
      const response = await testApp.app.inject({
        method: 'GET',
        url: '/admin/clients/ffffffffffffffffffffffff',
        headers: { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.x' },
      });
      assert.equal(response.statusCode, 401);
    });
  });

  describe('POST /admin/clients', () => {
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

    it('refuses a blank name and a bad email', async () => {
      assert.equal((await admin('POST', '/admin/clients', { name: '   ' })).statusCode, 400);
      const badEmail = await admin('POST', '/admin/clients', { name: 'A', emailAddress: 'nope' });
      assert.equal(badEmail.statusCode, 400);
    });
  });

  describe('POST /admin/clients/:id/apps', () => {
    let clientId: string;
    before(async () => {
      clientId = (await createClient(testApp.app, 'Keys Ltd')).ibsClientId;
    });
    const register = (publicKey: string, id = clientId) =>
      admin('POST', `/admin/clients/${id}/apps`, { name: 'App', publicKey });

    it('accepts an SPKI RSA key and answers the OAuth client id', async () => {
      const response = await register(publicKeyPem(rsaKeyPair(0).publicKey));
      assert.equal(response.statusCode, 201, response.body);
      assert.match(response.json().data.clientId, /^[0-9a-f]{32}$/);
      assert.equal(response.json().data.algorithm, 'RS256');
    });

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

    it('answers 400 "Unable to locate record" for an unknown client', async () => {
      const response = await register(publicKeyPem(rsaKeyPair(0).publicKey), 'f'.repeat(24));
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().message, 'Unable to locate record');
    });
  });

  describe('POST /admin/sandbox/credits', () => {
    let accountNumber: string;
    before(async () => {
      accountNumber = (await createClient(testApp.app, 'Credit Ltd')).mainAccountNumber;
    });
    const credit = (payload: Record<string, unknown>) =>
      admin('POST', '/admin/sandbox/credits', { accountNumber, ...payload });

    it('answers an inbound NIP transfer object in the published shape', async () => {
      const response = await credit({
        amount: 2500.75,
        narration: 'Invoice 7',
        senderName: 'JANE DOE',
      });
      assert.equal(response.statusCode, 201, response.body);
      const { data } = response.json();
      assert.equal(data.type, 'Inwards');
      assert.equal(data.status, 'Completed');
      assert.equal(data.amount, 2500.75);
      assert.equal(data.stampDuty, 0);
      assert.equal(data.fees, 0);
      assert.equal(data.responseCode, '00');
      assert.equal(data.responseMessage, 'Approved or completed successfully');
      assert.match(data.sessionId, /^000013\d{24}$/);
      assert.equal(data.paymentReference, data.sessionId);
      assert.equal(data.provider, 'NIBSS');
      assert.equal(data.providerChannel, 'NIP');
      assert.equal(data.creditAccountNumber, accountNumber);
      assert.equal(data.debitAccountName, 'JANE DOE');
      assert.equal(data.destinationInstitutionCode, '999240');
      assert.equal(data.narration, 'Invoice 7');
      assert.equal(data.isReversed, false);
      assert.equal(data.approvedAt, data.createdAt);
    });

    it('takes ₦50 stamp duty from credits of ₦10,000 or more', async () => {
      const below = (await credit({ amount: 9999.99 })).json().data;
      const at = (await credit({ amount: 10000 })).json().data;
      assert.equal(below.stampDuty, 0);
      assert.equal(at.stampDuty, 50);
      const ledger = await testApp.db.query<{ balance_kobo: bigint }>(
        "SELECT balance_kobo FROM ledger_accounts WHERE id = 'gl.stamp_duty_payable'",
      );
      assert.equal(ledger[0]?.balance_kobo, 5000n);
    });

    const invalid: [string, Record<string, unknown>, number][] = [
      ['a negative amount', { amount: -5 }, 400],
      ['a zero amount', { amount: 0 }, 400],
      ['three decimals', { amount: 10.005 }, 400],
      ['an amount above the maximum', { amount: 2e9 }, 400],
      ['a malformed account number', { accountNumber: '12345' }, 400],
      ['an unknown account', { accountNumber: '9999999999', amount: 10 }, 400],
    ];
    for (const [label, payload, status] of invalid) {
      it(`refuses ${label} and moves no money`, async () => {
        const before = await totalEntries();
        const response = await credit({ amount: 10, ...payload });
        assert.equal(response.statusCode, status, response.body);
        assert.equal(await totalEntries(), before);
      });
    }

    async function totalEntries(): Promise<bigint> {
      const rows = await testApp.db.query<{ count: bigint }>('SELECT count(*) FROM ledger_entries');
      return rows[0]?.count ?? 0n;
    }

    it('is refused outside sandbox', async () => {
      const production = await buildTestApp({
        IBS_ENV: 'production',
        DATABASE_URL: 'postgres://unused.invalid/db',
        ADMIN_TOKEN: 'test-admin-token-0123456789abcdefghijklmnop',
        TOKEN_SIGNING_SECRET: 'test-signing-secret-0123456789abcdefghijklmnop',
        PUBLIC_BASE_URL: 'https://bank.example',
        INSTITUTION_CODE: '090286',
      });
      try {
        const response = await production.app.inject({
          method: 'POST',
          url: '/admin/sandbox/credits',
          headers: adminHeaders,
          payload: { accountNumber, amount: 10 },
        });
        assert.equal(response.statusCode, 403);
        assert.equal(response.json().code, 'SANDBOX_ONLY');
      } finally {
        await production.close();
      }
    });
  });
});

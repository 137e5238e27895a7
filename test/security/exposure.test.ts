import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config/config.ts';
import { sandboxBanner } from '../../src/sandbox/banner.ts';
import { adminHeaders, signedInClient } from '../factories.ts';
import { buildTestApp, TEST_BASE_URL, TEST_SECRETS } from '../harness.ts';

const demo = {
  ibsClientId: 'c1',
  oauthClientId: 'o1',
  mainAccountNumber: '1000000019',
  baseUrl: TEST_BASE_URL,
  privateKeyFile: 'key.pem',
};

/** What OpenIBS shows of itself, and to whom (docs/security.md, "Exposure"). */
describe('exposure', () => {
  it('leaves the admin API out of /openapi.json when ADMIN_API_IN_DOCS is off (production default)', async () => {
    const hidden = await buildTestApp({ ADMIN_API_IN_DOCS: 'false' });
    const shown = await buildTestApp();
    try {
      const paths = async (app: typeof hidden.app) =>
        Object.keys((await app.inject({ method: 'GET', url: '/openapi.json' })).json().paths);
      const hiddenPaths = await paths(hidden.app);
      assert.ok(hiddenPaths.includes('/accounts'));
      assert.equal(hiddenPaths.filter((path) => path.startsWith('/admin')).length, 0);
      assert.ok((await paths(shown.app)).some((path) => path.startsWith('/admin')));
      // Hidden from the reference, not removed: the operator still reaches it.
      const reached = await hidden.app.inject({
        method: 'GET',
        url: '/admin/audit-events',
        headers: adminHeaders,
      });
      assert.equal(reached.statusCode, 200);
    } finally {
      await hidden.close();
      await shown.close();
    }
  });

  it('production hides the admin API from the reference unless told otherwise', () => {
    const production = {
      IBS_ENV: 'production',
      DATABASE_URL: 'postgres://db.internal/openibs',
      ADMIN_TOKEN: 'a'.repeat(40),
      TOKEN_SIGNING_SECRET: 'b'.repeat(40),
      OPERATOR_SECRETS_KEY: 'c'.repeat(64),
      PUBLIC_BASE_URL: 'https://bank.example',
      INSTITUTION_CODE: '090286',
    };
    assert.equal(loadConfig(production).exposure.adminApiInDocs, false);
    assert.equal(
      loadConfig({ ...production, ADMIN_API_IN_DOCS: 'true' }).exposure.adminApiInDocs,
      true,
    );
    assert.equal(loadConfig({}).exposure.adminApiInDocs, true);
  });

  it('ADMIN_ALLOWED_IPS: other addresses find no admin API, even with the token', async () => {
    const testApp = await buildTestApp({ ADMIN_ALLOWED_IPS: '10.0.0.0/8, 192.0.2.9' });
    try {
      const from = (remoteAddress: string) =>
        testApp.app.inject({
          method: 'GET',
          url: '/admin/audit-events',
          headers: adminHeaders,
          remoteAddress,
        });
      assert.equal((await from('10.20.30.40')).statusCode, 200);
      assert.equal((await from('192.0.2.9')).statusCode, 200);
      assert.equal((await from('::ffff:10.0.0.1')).statusCode, 200);
      const outside = await from('198.51.100.1');
      assert.equal(outside.statusCode, 404);
      assert.equal(outside.json().code, 'ROUTE_NOT_FOUND');
      assert.equal((await from('192.0.2.10')).statusCode, 404);
    } finally {
      await testApp.close();
    }
  });

  it('refuses a malformed ADMIN_ALLOWED_IPS or TRUST_PROXY at start', () => {
    assert.throws(() => loadConfig({ ADMIN_ALLOWED_IPS: '10.0.0.0/33' }), /ADMIN_ALLOWED_IPS/);
    assert.throws(() => loadConfig({ ADMIN_ALLOWED_IPS: 'localhost' }), /ADMIN_ALLOWED_IPS/);
    assert.throws(() => loadConfig({ TRUST_PROXY: 'true' }), /TRUST_PROXY/);
  });

  it('TRUST_PROXY: the address behind a trusted proxy is the one limited and audited', async () => {
    const testApp = await buildTestApp({ TRUST_PROXY: '127.0.0.1' });
    try {
      await testApp.app.inject({
        method: 'POST',
        url: '/admin/clients/000000000000000000000000/disable',
        headers: { ...adminHeaders, 'x-forwarded-for': '203.0.113.5' },
        remoteAddress: '127.0.0.1',
      });
      const listed = await testApp.app.inject({
        method: 'GET',
        url: '/admin/audit-events',
        headers: adminHeaders,
      });
      assert.equal(listed.json().data[0].sourceIp, '203.0.113.5');
    } finally {
      await testApp.close();
    }
  });

  it('never accepts an access token from the query string', async () => {
    const testApp = await buildTestApp();
    try {
      const { client, tokens } = await signedInClient(testApp);
      for (const name of ['access_token', 'token', 'authorization']) {
        const answer = await testApp.app.inject({
          method: 'GET',
          url: `/accounts?${name}=${tokens.access_token}`,
          headers: { clientid: client.ibsClientId },
        });
        assert.equal(answer.statusCode, 401, name);
      }
    } finally {
      await testApp.close();
    }
  });

  it('the sandbox banner prints a generated admin token, never one from the environment', () => {
    const generated = sandboxBanner(
      { publicBaseUrl: TEST_BASE_URL, dataDir: './data', adminToken: undefined },
      TEST_SECRETS.adminToken,
      demo,
      true,
    );
    assert.ok(generated.includes(TEST_SECRETS.adminToken));
    const fromEnvironment = sandboxBanner(
      { publicBaseUrl: TEST_BASE_URL, dataDir: './data', adminToken: TEST_SECRETS.adminToken },
      TEST_SECRETS.adminToken,
      demo,
      false,
    );
    assert.equal(fromEnvironment.includes(TEST_SECRETS.adminToken), false);
    assert.match(fromEnvironment, /not printed/);
  });

  it("the banner's dashboard link is a one-time ticket, never the admin token", () => {
    const link = `${TEST_BASE_URL}/dashboard/login/ticket-abc`;
    const banner = sandboxBanner(
      { publicBaseUrl: TEST_BASE_URL, dataDir: './data', adminToken: TEST_SECRETS.adminToken },
      TEST_SECRETS.adminToken,
      demo,
      false,
      link,
    );
    assert.match(banner, /dashboard: +http:\/\/openibs\.test\/dashboard\/login\/ticket-abc\n/);
    assert.equal(banner.includes(TEST_SECRETS.adminToken), false);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EnvReader } from './env-reader.ts';
import { readSsoConfig } from './sso-config.ts';

const BASE_URL = 'https://api.bank.example';
const SECRET = 'oidc-client-secret-from-the-provider';

function read(env: NodeJS.ProcessEnv) {
  const reader: EnvReader = { env, problems: [] };
  return { config: readSsoConfig(reader, BASE_URL), problems: reader.problems };
}

const ON = {
  OIDC_ISSUER: 'https://login.bank.example/realms/staff',
  OIDC_CLIENT_ID: 'openibs-dashboard',
  OIDC_CLIENT_SECRET: SECRET,
};

describe('single sign-on configuration', () => {
  it('is off without OIDC_ISSUER, whatever else is set', () => {
    assert.deepEqual(read({ OIDC_CLIENT_ID: 'x', OIDC_ROLE_MAP: 'nonsense' }), {
      config: undefined,
      problems: [],
    });
  });

  it('reads the issuer and client, with the redirect URL and roles claim defaulted', () => {
    assert.deepEqual(read(ON), {
      config: {
        issuer: ON.OIDC_ISSUER,
        clientId: 'openibs-dashboard',
        clientSecret: SECRET,
        redirectUrl: `${BASE_URL}/dashboard/sso/callback`,
        rolesClaim: 'openibs_roles',
        roleMap: undefined,
        extraScopes: [],
      },
      problems: [],
    });
  });

  it('reads the role map, the roles claim and extra scopes', () => {
    const { config, problems } = read({
      ...ON,
      OIDC_ROLE_MAP: ' ibs-finance = finance, ibs-admins=admin ',
      OIDC_ROLES_CLAIM: 'groups',
      OIDC_EXTRA_SCOPES: 'groups openid  groups',
      OIDC_REDIRECT_URL: 'https://ops.bank.example/dashboard/sso/callback',
    });
    assert.deepEqual(problems, []);
    assert.deepEqual({ ...config?.roleMap }, { 'ibs-finance': 'finance', 'ibs-admins': 'admin' });
    assert.equal(config?.rolesClaim, 'groups');
    assert.deepEqual(config?.extraScopes, ['groups']);
    assert.equal(config?.redirectUrl, 'https://ops.bank.example/dashboard/sso/callback');
  });

  it('requires the client id and secret once the issuer is set, and never echoes the secret', () => {
    const { problems } = read({ OIDC_ISSUER: ON.OIDC_ISSUER });
    assert.deepEqual(problems, ['OIDC_CLIENT_ID is required', 'OIDC_CLIENT_SECRET is required']);
    const bad = read({ ...ON, OIDC_ROLE_MAP: 'x=root', OIDC_ISSUER: 'ftp://idp' });
    assert.ok(bad.problems.length > 0);
    assert.ok(bad.problems.every((problem) => !problem.includes(SECRET)));
  });

  it('allows http for the loopback address only', () => {
    assert.deepEqual(read({ ...ON, OIDC_ISSUER: 'http://127.0.0.1:9000' }).problems, []);
    assert.deepEqual(read({ ...ON, OIDC_ISSUER: 'http://localhost:9000/idp' }).problems, []);
    assert.deepEqual(read({ ...ON, OIDC_ISSUER: 'http://idp.bank.example' }).problems, [
      'OIDC_ISSUER must be https (http only for 127.0.0.1 or localhost): "http://idp.bank.example"',
    ]);
    const redirect = read({ ...ON, OIDC_REDIRECT_URL: 'http://ops.bank.example/cb' });
    assert.match(redirect.problems.join('\n'), /OIDC_REDIRECT_URL must be https/);
  });

  it('refuses a malformed issuer, role map, claim name and scope, each named', () => {
    const { problems } = read({
      ...ON,
      OIDC_ISSUER: 'not a url',
      OIDC_ROLE_MAP: 'ibs-ops=operator,ibs-finance=finance,ibs-finance=admin,=viewer,plain',
      OIDC_ROLES_CLAIM: 'roles claim',
      OIDC_EXTRA_SCOPES: 'groups "quoted"',
    });
    assert.deepEqual(
      problems.map((problem) => problem.split(' ')[0]),
      [
        'OIDC_ISSUER',
        'OIDC_ROLES_CLAIM',
        'OIDC_ROLE_MAP',
        'OIDC_ROLE_MAP',
        'OIDC_ROLE_MAP',
        'OIDC_ROLE_MAP',
        'OIDC_EXTRA_SCOPES',
      ],
    );
    assert.match(problems[2] ?? '', /got "ibs-ops=operator"/);
    assert.match(problems[3] ?? '', /got "ibs-finance=admin"/);
  });
});

// No database: these tests run the same on both suites (PGlite and TEST_DATABASE_URL).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type TestClient, TestIdentityProvider, type TestUser } from '../../test/oidc-provider.ts';
import type { SingleSignOnConfig } from '../config/sso-config.ts';
import {
  createSingleSignOn,
  PENDING_SIGN_IN_TTL_MS,
  SingleSignOnError,
  type SingleSignOnRefusal,
} from './single-sign-on.ts';

const DASHBOARD: TestClient = {
  clientId: 'openibs-dashboard',
  clientSecret: 'dashboard-secret-from-the-identity-provider',
  redirectUri: 'https://bank.test/dashboard/sso/callback',
};

const USERS: TestUser[] = [
  {
    id: 'ada',
    claims: {
      email: 'Ada@Bank.test',
      email_verified: true,
      name: 'Ada Obi',
      openibs_roles: ['ibs-finance', 'ibs-support', 'all-staff', 'admin'],
    },
  },
  { id: 'bola', claims: { email: 'bola@bank.test', openibs_roles: 'security viewer unknown' } },
  { id: 'no-email', claims: { name: 'No Email', openibs_roles: ['ibs-support'] } },
  { id: 'unverified', claims: { email: 'u@bank.test', email_verified: false } },
];

function configFor(idp: TestIdentityProvider, change: Partial<SingleSignOnConfig> = {}) {
  return {
    issuer: idp.issuer,
    clientId: DASHBOARD.clientId,
    clientSecret: DASHBOARD.clientSecret,
    redirectUrl: DASHBOARD.redirectUri,
    rolesClaim: 'openibs_roles',
    roleMap: { 'ibs-finance': 'finance', 'ibs-support': 'support' },
    extraScopes: ['openibs'],
    ...change,
  } satisfies SingleSignOnConfig;
}

function refusedFor(reason: SingleSignOnRefusal) {
  return (error: unknown) => {
    assert.ok(error instanceof SingleSignOnError, `not a SingleSignOnError: ${String(error)}`);
    assert.equal(error.reason, reason, error.message);
    return true;
  };
}

describe('single sign-on against a real OpenID Connect provider', () => {
  let idp: TestIdentityProvider;

  before(async () => {
    idp = await TestIdentityProvider.start({ clients: [DASHBOARD], users: USERS });
  });
  after(() => idp.close());

  it('signs an operator in with PKCE, state and nonce, roles mapped through the role map', async () => {
    const sso = createSingleSignOn(configFor(idp));
    const { authorizationUrl, pending } = await sso.start();
    const asked = new URL(authorizationUrl).searchParams;
    assert.equal(asked.get('code_challenge_method'), 'S256');
    assert.equal(asked.get('scope'), 'openid email profile openibs');
    assert.equal(asked.get('state'), pending.state);
    assert.equal(asked.get('nonce'), pending.nonce);
    const identity = await sso.finish(await idp.signIn(authorizationUrl, 'ada'), pending);
    // "admin" is a group name the role map does not list: it gives nothing.
    assert.deepEqual(identity, {
      issuer: idp.issuer,
      subject: 'ada',
      email: 'ada@bank.test',
      name: 'Ada Obi',
      roles: ['support', 'finance'],
    });
  });

  it('takes the claim as role names when no role map is set, dropping unknown ones', async () => {
    const sso = createSingleSignOn(configFor(idp, { roleMap: undefined }));
    const { authorizationUrl, pending } = await sso.start();
    const identity = await sso.finish(await idp.signIn(authorizationUrl, 'bola'), pending);
    assert.deepEqual(identity.roles, ['viewer', 'security']);
    assert.equal(identity.name, undefined);
  });

  it('refuses an ID token issued for another client, though well signed', async () => {
    const sso = createSingleSignOn(configFor(idp));
    const { authorizationUrl, pending } = await sso.start();
    const callback = await idp.signIn(authorizationUrl, 'ada');
    idp.misissueNextIdToken((claims) => ({ ...claims, aud: 'another-client' }));
    await assert.rejects(sso.finish(callback, pending), refusedFor('audience'));
  });

  it('refuses an ID token signed by a key the provider never published', async () => {
    const sso = createSingleSignOn(configFor(idp));
    const { authorizationUrl, pending } = await sso.start();
    const callback = await idp.signIn(authorizationUrl, 'ada');
    idp.misissueNextIdToken((claims) => claims, { foreignKey: true });
    await assert.rejects(sso.finish(callback, pending), refusedFor('signature'));
  });

  it('refuses a callback that names another issuer (mix-up)', async () => {
    const sso = createSingleSignOn(configFor(idp));
    const { authorizationUrl, pending } = await sso.start();
    const callback = await idp.signIn(authorizationUrl, 'ada');
    assert.equal(callback.searchParams.get('iss'), idp.issuer);
    callback.searchParams.set('iss', 'https://attacker.example');
    await assert.rejects(sso.finish(callback, pending), refusedFor('issuer'));
  });

  it('refuses a replayed authorization code', async () => {
    const sso = createSingleSignOn(configFor(idp));
    const { authorizationUrl, pending } = await sso.start();
    const callback = await idp.signIn(authorizationUrl, 'ada');
    await sso.finish(callback, pending);
    await assert.rejects(sso.finish(callback, pending), refusedFor('exchange_failed'));
  });

  it('refuses a callback with a wrong or a missing state', async () => {
    const sso = createSingleSignOn(configFor(idp));
    const { authorizationUrl, pending } = await sso.start();
    const callback = await idp.signIn(authorizationUrl, 'ada');
    const other = await sso.start();
    await assert.rejects(sso.finish(callback, other.pending), refusedFor('state_mismatch'));
    const stateless = new URL(callback);
    stateless.searchParams.delete('state');
    await assert.rejects(sso.finish(stateless, pending), refusedFor('state_mismatch'));
    // Neither refusal spent the code: the right browser still signs in with it.
    assert.equal((await sso.finish(callback, pending)).subject, 'ada');
  });

  it('refuses a pending sign-in older than ten minutes', async () => {
    const sso = createSingleSignOn(configFor(idp));
    const { authorizationUrl, pending } = await sso.start();
    const callback = await idp.signIn(authorizationUrl, 'ada');
    const stale = { ...pending, createdAt: pending.createdAt - PENDING_SIGN_IN_TTL_MS - 1 };
    await assert.rejects(sso.finish(callback, stale), refusedFor('expired'));
  });

  it('refuses a user without an email, and one whose email is not verified', async () => {
    const sso = createSingleSignOn(configFor(idp));
    const first = await sso.start();
    const callback = await idp.signIn(first.authorizationUrl, 'no-email');
    await assert.rejects(sso.finish(callback, first.pending), refusedFor('no_email'));
    const second = await sso.start();
    const unverified = await idp.signIn(second.authorizationUrl, 'unverified');
    await assert.rejects(sso.finish(unverified, second.pending), refusedFor('email_unverified'));
  });

  it('refuses when the client secret is wrong', async () => {
    const sso = createSingleSignOn(configFor(idp, { clientSecret: 'not-the-secret' }));
    const { authorizationUrl, pending } = await sso.start();
    const callback = await idp.signIn(authorizationUrl, 'ada');
    await assert.rejects(sso.finish(callback, pending), refusedFor('exchange_failed'));
  });
});

describe('single sign-on with the claims in the ID token', () => {
  it('reads email, name and roles from the ID token', async () => {
    const idp = await TestIdentityProvider.start({
      clients: [DASHBOARD],
      users: USERS,
      claimsInIdToken: true,
    });
    try {
      const sso = createSingleSignOn(configFor(idp));
      const { authorizationUrl, pending } = await sso.start();
      const identity = await sso.finish(await idp.signIn(authorizationUrl, 'ada'), pending);
      assert.deepEqual(identity.roles, ['support', 'finance']);
      assert.equal(identity.email, 'ada@bank.test');
    } finally {
      await idp.close();
    }
  });
});

describe('single sign-on discovery', () => {
  it('refuses to start while the provider is down, and discovers it once it is back', async () => {
    const idp = await TestIdentityProvider.start({ clients: [DASHBOARD], users: USERS });
    try {
      const sso = createSingleSignOn(configFor(idp));
      idp.available = false;
      await assert.rejects(sso.start(), refusedFor('discovery_failed'));
      idp.available = true;
      const { authorizationUrl } = await sso.start();
      assert.ok(authorizationUrl.startsWith(`${idp.issuer}/`));
    } finally {
      await idp.close();
    }
  });
});

import { timingSafeEqual } from 'node:crypto';
import * as oidc from 'openid-client';
import { isLoopbackUrl, type SingleSignOnConfig } from '../config/sso-config.ts';
import { refusalFromExchange, SingleSignOnError } from './sso-errors.ts';
import { identityFromClaims, type SsoIdentity } from './sso-identity.ts';

export type { SingleSignOnRefusal } from './sso-errors.ts';
export type { SsoIdentity } from './sso-identity.ts';
export { SingleSignOnError };

/** How long the operator has at the identity provider before the sign-in must start again. */
export const PENDING_SIGN_IN_TTL_MS = 10 * 60_000;
/** A pending sign-in dated later than this is refused: another instance's clock, or forged. */
const FUTURE_TOLERANCE_MS = 60_000;

/**
 * What `start` remembers for `finish`: kept server-side or in a signed HttpOnly cookie, used
 * once, then deleted. JSON-serialisable as is.
 */
export interface PendingSignIn {
  readonly codeVerifier: string;
  readonly state: string;
  readonly nonce: string;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
}

export interface SingleSignOn {
  /** Where to send the operator's browser, and what to keep until they come back. */
  start(): Promise<{ authorizationUrl: string; pending: PendingSignIn }>;
  /** Checks the callback against `pending`, exchanges the code; throws SingleSignOnError. */
  finish(callbackUrl: URL, pending: PendingSignIn): Promise<SsoIdentity>;
}

/**
 * Operators' sign-in through the bank's identity provider: authorization code with PKCE (S256),
 * state and nonce; openid-client checks the ID token (issuer, audience, nonce, signature).
 * Discovery happens on first use and is kept; a failed one is tried again next time.
 */
export function createSingleSignOn(config: SingleSignOnConfig): SingleSignOn {
  const discover = cachedDiscovery(config);
  return {
    async start() {
      const configuration = await discover();
      const pending: PendingSignIn = {
        codeVerifier: oidc.randomPKCECodeVerifier(),
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        createdAt: Date.now(),
      };
      const authorizationUrl = oidc.buildAuthorizationUrl(configuration, {
        redirect_uri: config.redirectUrl,
        response_type: 'code',
        scope: ['openid', 'email', 'profile', ...config.extraScopes].join(' '),
        code_challenge: await oidc.calculatePKCECodeChallenge(pending.codeVerifier),
        code_challenge_method: 'S256',
        state: pending.state,
        nonce: pending.nonce,
      });
      return { authorizationUrl: authorizationUrl.href, pending };
    },
    async finish(callbackUrl, pending) {
      checkPending(pending, Date.now());
      const callback = checkCallback(callbackUrl, pending, config.redirectUrl);
      const configuration = await discover();
      const claims = await exchangeCode(configuration, callback, pending);
      const complete = await withUserInfo(configuration, claims, config.rolesClaim);
      return identityFromClaims(complete, config);
    },
  };
}

/** Whether a value read back (from a cookie, a store) has the shape of a pending sign-in. */
export function isPendingSignIn(value: unknown): value is PendingSignIn {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const { codeVerifier, state, nonce, createdAt } = value as Record<string, unknown>;
  return (
    typeof codeVerifier === 'string' &&
    typeof state === 'string' &&
    typeof nonce === 'string' &&
    typeof createdAt === 'number' &&
    Number.isFinite(createdAt)
  );
}

function cachedDiscovery(config: SingleSignOnConfig): () => Promise<oidc.Configuration> {
  let discovered: Promise<oidc.Configuration> | undefined;
  const issuer = new URL(config.issuer);
  // openid-client trusts an ID token from the token endpoint on TLS alone (OIDC Core 3.1.3.7);
  // the signature is checked too, against the provider's published keys, so a token altered
  // between the provider and us (a TLS-terminating proxy, a mis-issued token) is refused.
  const execute = [oidc.enableNonRepudiationChecks];
  // openid-client refuses http; the configuration allows it for the loopback address only.
  if (issuer.protocol === 'http:' && isLoopbackUrl(issuer)) {
    execute.push(oidc.allowInsecureRequests);
  }
  return () => {
    discovered ??= oidc
      .discovery(issuer, config.clientId, undefined, oidc.ClientSecretBasic(config.clientSecret), {
        execute,
        timeout: 10,
      })
      .catch((error: unknown) => {
        discovered = undefined;
        const detail = error instanceof Error ? error.message : 'unknown error';
        throw new SingleSignOnError(
          'discovery_failed',
          `discovery at ${issuer.href} failed: ${detail}`,
        );
      });
    return discovered;
  };
}

function checkPending(pending: PendingSignIn, now: number): void {
  if (!isPendingSignIn(pending)) {
    throw new SingleSignOnError('expired', 'no sign-in was started from this browser');
  }
  const age = now - pending.createdAt;
  if (age > PENDING_SIGN_IN_TTL_MS || age < -FUTURE_TOLERANCE_MS) {
    throw new SingleSignOnError('expired', 'the sign-in took longer than ten minutes');
  }
}

/**
 * The callback's parameters on the configured redirect URL: openid-client sends that URL's
 * address to the token endpoint, so a proxy's view of the host cannot make the exchange fail.
 */
function checkCallback(callbackUrl: URL, pending: PendingSignIn, redirectUrl: string): URL {
  const params = callbackUrl.searchParams;
  const state = params.get('state');
  if (state === null || !sameText(state, pending.state)) {
    throw new SingleSignOnError('state_mismatch', 'the callback does not answer this sign-in');
  }
  const error = params.get('error');
  if (error !== null) {
    throw new SingleSignOnError('denied', `the identity provider refused: ${error.slice(0, 100)}`);
  }
  if (params.get('code') === null) {
    throw new SingleSignOnError('no_code', 'the callback carries no authorization code');
  }
  const url = new URL(redirectUrl);
  url.search = callbackUrl.search;
  return url;
}

async function exchangeCode(
  configuration: oidc.Configuration,
  callback: URL,
  pending: PendingSignIn,
): Promise<{ claims: Readonly<Record<string, unknown>>; accessToken: string }> {
  try {
    const tokens = await oidc.authorizationCodeGrant(configuration, callback, {
      pkceCodeVerifier: pending.codeVerifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (claims === undefined) {
      throw new SingleSignOnError('id_token_invalid', 'the token response has no ID token');
    }
    return { claims, accessToken: tokens.access_token };
  } catch (error) {
    throw refusalFromExchange(error);
  }
}

/**
 * Many providers put only `sub` in the ID token of a code flow and the profile at userinfo:
 * what the ID token lacks is read there, for the same subject; the ID token's values win.
 */
async function withUserInfo(
  configuration: oidc.Configuration,
  exchanged: { claims: Readonly<Record<string, unknown>>; accessToken: string },
  rolesClaim: string,
): Promise<Readonly<Record<string, unknown>>> {
  const { claims, accessToken } = exchanged;
  const complete = claims.email !== undefined && claims[rolesClaim] !== undefined;
  if (complete || configuration.serverMetadata().userinfo_endpoint === undefined) {
    return claims;
  }
  try {
    const subject = typeof claims.sub === 'string' ? claims.sub : '';
    const userInfo = await oidc.fetchUserInfo(configuration, accessToken, subject);
    return { ...userInfo, ...claims };
  } catch {
    throw new SingleSignOnError('userinfo_failed', 'the userinfo endpoint could not be read');
  }
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

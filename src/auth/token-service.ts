import { decodeJwt, decodeProtectedHeader } from 'jose';
import type { AuditLog } from '../audit/index.ts';
import type { Db, Queryable } from '../db/db.ts';
import { AppError } from '../errors/app-error.ts';
import type { Clock } from '../shared/clock.ts';
import { sha256Hex } from '../shared/hashing.ts';
import { newObjectId, newSecretToken } from '../shared/ids.ts';
import { holdsUnstorableText } from '../shared/storable-text.ts';
import type { AccessTokenIssuer } from './access-tokens.ts';
import { type AssertionPolicy, verifyClientAssertion } from './client-assertion.ts';
import type { OAuthAppRecord } from './oauth-app-repository.ts';
import * as apps from './oauth-app-repository.ts';
import * as refreshTokens from './refresh-token-repository.ts';

export const JWT_BEARER_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

export interface TokenRequest {
  grant_type?: string;
  client_id?: string;
  client_assertion?: string;
  client_assertion_type?: string;
  refresh_token?: string;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  client_id: string;
  ibs_client_id: string;
  ibs_user_id: string;
}

export interface TokenServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly accessTokens: AccessTokenIssuer;
  /** Failed client authentication and refresh-token reuse are security events. */
  readonly auditLog: AuditLog;
  readonly assertionPolicy: AssertionPolicy;
  readonly refreshTokenTtlSeconds: number;
  readonly rejectReusedAssertionIds: boolean;
}

/** Where a token request came from, for the audit trail. */
export type TokenRequestSource = { readonly ip: string; readonly id: string } | undefined;

/**
 * The answer to every failed client authentication whose cause would tell an attacker which
 * client ids exist (unknown, revoked or disabled client, bad signature): one status, one code,
 * one message. The audit trail keeps the real cause.
 */
const CLIENT_AUTHENTICATION_FAILED =
  'Client authentication failed: unknown client_id, or the client assertion signature does not verify.';

export function createTokenService(deps: TokenServiceDeps) {
  async function exchange(
    request: TokenRequest,
    source?: TokenRequestSource,
  ): Promise<TokenResponse> {
    try {
      return await exchangeOrThrow(request, source);
    } catch (error) {
      if (error instanceof AppError && error.code === 'OAUTH_INVALID_CLIENT') {
        await auditFailure(request, error, source);
      }
      throw error;
    }
  }

  async function auditFailure(request: TokenRequest, error: AppError, source: TokenRequestSource) {
    const cause = error.cause instanceof AppError ? error.cause.message : error.message;
    await deps.auditLog.record({
      actor: `oauth-client:${(request.client_id ?? '').slice(0, 64) || 'unknown'}`,
      action: 'token.client_authentication_failed',
      target: null,
      outcome: 'refused',
      details: { grantType: request.grant_type ?? null, cause },
      request: source,
    });
  }

  async function exchangeOrThrow(
    request: TokenRequest,
    source: TokenRequestSource,
  ): Promise<TokenResponse> {
    switch (request.grant_type) {
      case 'client_credentials':
        return clientCredentials(request);
      case 'refresh_token':
        return refresh(request, source);
      case undefined:
      case '':
        throw new AppError('OAUTH_INVALID_REQUEST', 'grant_type is required.');
      default:
        throw new AppError(
          'OAUTH_UNSUPPORTED_GRANT_TYPE',
          `grant_type "${request.grant_type}" is not supported; use client_credentials or refresh_token.`,
        );
    }
  }

  async function clientCredentials(request: TokenRequest): Promise<TokenResponse> {
    const assertion = requireAssertion(request);
    const app = await authenticateApp(
      deps.db,
      assertion,
      request.client_id ?? assertionSubject(assertion),
    );
    return issueTokens(deps.db, app, newObjectId(deps.clock));
  }

  async function refresh(
    request: TokenRequest,
    source: TokenRequestSource,
  ): Promise<TokenResponse> {
    const refreshToken = request.refresh_token;
    if (refreshToken === undefined || refreshToken === '') {
      throw new AppError('OAUTH_INVALID_REQUEST', 'refresh_token is required.');
    }
    // A confidential client authenticates on refresh too (RFC 6749 §6): a refresh token alone
    // mints nothing, and an unauthenticated request changes nothing (no consume, no revocation).
    if (request.client_assertion === undefined || request.client_assertion === '') {
      throw new AppError(
        'OAUTH_INVALID_CLIENT',
        'Client authentication is required: send client_assertion (and client_id) with the refresh token.',
      );
    }
    const assertion = requireAssertion(request);
    const app = await authenticateApp(
      deps.db,
      assertion,
      request.client_id ?? assertionSubject(assertion),
    );
    const now = deps.clock.now();
    const tokenHash = sha256Hex(refreshToken);
    // Consuming the old token and storing its successor commit together; a refusal after the
    // consume (another app's token) rolls back, so a stolen token presented by another client
    // does not burn the owner's token.
    const issued = await deps.db.transaction(async (tx) => {
      const consumed = await refreshTokens.consumeRefreshToken(tx, tokenHash, now);
      if (consumed === undefined) {
        return undefined;
      }
      if (consumed.appId !== app.id) {
        throw new AppError(
          'OAUTH_INVALID_GRANT',
          'The refresh token was not issued to this client.',
        );
      }
      return issueTokens(tx, app, consumed.familyId);
    });
    if (issued === undefined) {
      await revokeOnReuse(tokenHash, now, source);
      throw new AppError(
        'OAUTH_INVALID_GRANT',
        'The refresh token is invalid, expired or revoked.',
      );
    }
    return issued;
  }

  /** A used token presented again means it leaked: the whole family dies (RFC 9700). */
  async function revokeOnReuse(
    tokenHash: string,
    now: Date,
    source: TokenRequestSource,
  ): Promise<void> {
    const known = await refreshTokens.findRefreshToken(deps.db, tokenHash);
    if (known?.usedAt != null && known.revokedAt === null) {
      await refreshTokens.revokeFamily(deps.db, known.familyId, now);
      await deps.auditLog.record({
        actor: `app:${known.appId}`,
        action: 'token.refresh_reuse',
        target: known.familyId,
        outcome: 'family_revoked',
        details: { appId: known.appId, tokenId: known.id },
        request: source,
      });
    }
  }

  async function authenticateApp(
    db: Queryable,
    assertion: string,
    oauthClientId: string | undefined,
  ) {
    if (oauthClientId === undefined || oauthClientId === '') {
      throw new AppError('OAUTH_INVALID_REQUEST', 'client_id is required.');
    }
    const app = await apps.findActiveAppByOAuthClientId(db, oauthClientId);
    if (app === undefined) {
      throw sameAsBadSignature(
        new AppError('OAUTH_INVALID_CLIENT', 'Unknown, revoked or disabled client.'),
      );
    }
    const keys = await apps.listActiveAppKeys(db, app.id);
    const payload = await verifyClientAssertion(
      assertion,
      app.oauthClientId,
      keys,
      deps.assertionPolicy,
    ).catch((error: unknown) => {
      throw error instanceof AppError && error.message.includes('signature')
        ? sameAsBadSignature(error)
        : error;
    });
    if (deps.rejectReusedAssertionIds) {
      await rememberAssertion(db, app.id, payload.jti, payload.exp);
    }
    return app;
  }

  async function rememberAssertion(
    db: Queryable,
    appId: string,
    jti?: string,
    exp?: number,
  ): Promise<void> {
    if (jti === undefined || exp === undefined) {
      throw new AppError('OAUTH_INVALID_CLIENT', 'The client assertion needs a jti claim.');
    }
    const fresh = await apps.rememberAssertionId(db, {
      appId,
      jti,
      expiresAt: new Date(exp * 1000),
    });
    if (!fresh) {
      throw new AppError('OAUTH_INVALID_CLIENT', 'The client assertion was already used.');
    }
  }

  async function issueTokens(
    db: Queryable,
    app: OAuthAppRecord,
    familyId: string,
  ): Promise<TokenResponse> {
    const now = deps.clock.now();
    const refreshToken = newSecretToken(32);
    await refreshTokens.insertRefreshToken(db, {
      id: newObjectId(deps.clock),
      tokenHash: sha256Hex(refreshToken),
      familyId,
      appId: app.id,
      issuedAt: now,
      expiresAt: new Date(now.getTime() + deps.refreshTokenTtlSeconds * 1000),
    });
    const principal = { appId: app.id, clientId: app.clientId, oauthClientId: app.oauthClientId };
    return {
      access_token: await deps.accessTokens.issue(principal),
      token_type: 'Bearer',
      expires_in: deps.accessTokens.ttlSeconds,
      refresh_token: refreshToken,
      client_id: app.oauthClientId,
      ibs_client_id: app.clientId,
      ibs_user_id: app.id,
    };
  }

  return { exchange };
}

export type TokenService = ReturnType<typeof createTokenService>;

function sameAsBadSignature(cause: AppError): AppError {
  return new AppError('OAUTH_INVALID_CLIENT', CLIENT_AUTHENTICATION_FAILED, { cause });
}

function requireAssertion(request: TokenRequest): string {
  const type = request.client_assertion_type;
  if (type !== undefined && type !== '' && type !== JWT_BEARER_ASSERTION_TYPE) {
    throw new AppError(
      'OAUTH_INVALID_REQUEST',
      `client_assertion_type must be ${JWT_BEARER_ASSERTION_TYPE}.`,
    );
  }
  if (request.client_assertion === undefined || request.client_assertion === '') {
    throw new AppError('OAUTH_INVALID_REQUEST', 'client_assertion is required.');
  }
  refuseUnstorableClaims(request.client_assertion);
  return request.client_assertion;
}

/**
 * An assertion's header and claims are the caller's own text, and `sub` and `jti` are looked up
 * and stored: one holding U+0000 or a lone surrogate anywhere (a claim's name included) is a
 * malformed assertion, refused before any lookup like one that does not decode.
 */
function refuseUnstorableClaims(assertion: string): void {
  let decoded: unknown[];
  try {
    decoded = [decodeProtectedHeader(assertion), decodeJwt(assertion)];
  } catch {
    return; // jwtVerify refuses it as malformed, before any lookup by its claims
  }
  if (holdsUnstorableText(decoded)) {
    throw new AppError('OAUTH_INVALID_CLIENT', MALFORMED_ASSERTION);
  }
}

function assertionSubject(assertion: string): string | undefined {
  try {
    const sub = decodeJwt(assertion).sub;
    return typeof sub === 'string' ? sub : undefined;
  } catch {
    throw new AppError('OAUTH_INVALID_CLIENT', MALFORMED_ASSERTION);
  }
}

const MALFORMED_ASSERTION = 'The client assertion is malformed.';

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.ts';
import type { AccessTokenIssuer } from './access-tokens.ts';
import type { Principal } from './principal.ts';
import type { RevocationList } from './revocation-list.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the authenticate hook on every route that needs a token. */
    principal: Principal;
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

interface TokenChecks {
  readonly accessTokens: AccessTokenIssuer;
  readonly revocations: RevocationList;
}

/**
 * Every route registered inside `app` needs a valid, unrevoked access token in the
 * Authorization header (never the query string) and a ClientID header naming the token's client
 * (its ibs_client_id or its app's OAuth client id).
 */
export function requireAccessToken(app: FastifyInstance, checks: TokenChecks): void {
  app.decorateRequest('principal', null as unknown as Principal);
  app.addHook('onRequest', async (request) => {
    request.principal = await authenticate(request, checks);
  });
}

async function authenticate(request: FastifyRequest, checks: TokenChecks) {
  const match = BEARER.exec(request.headers.authorization ?? '');
  if (match?.[1] === undefined) {
    throw new AppError('UNAUTHORIZED', 'Missing bearer access token.');
  }
  const verified = await checks.accessTokens.verify(match[1]);
  if (verified === undefined) {
    throw new AppError('UNAUTHORIZED', 'Invalid or expired access token.');
  }
  const { principal } = verified;
  if (await checks.revocations.isRevoked(principal, verified.issuedAtMs)) {
    throw new AppError('UNAUTHORIZED', 'The access token has been revoked.');
  }
  const clientIdHeader = request.headers.clientid;
  if (clientIdHeader !== principal.clientId && clientIdHeader !== principal.oauthClientId) {
    throw new AppError('FORBIDDEN');
  }
  return principal;
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.ts';
import type { AccessTokenIssuer } from './access-tokens.ts';
import type { Principal } from './principal.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the authenticate hook on every route that needs a token. */
    principal: Principal;
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Every route registered inside `app` needs a valid access token and a ClientID header naming
 * the token's client (its ibs_client_id or its app's OAuth client id).
 */
export function requireAccessToken(app: FastifyInstance, accessTokens: AccessTokenIssuer): void {
  app.decorateRequest('principal', null as unknown as Principal);
  app.addHook('onRequest', async (request) => {
    request.principal = await authenticate(request, accessTokens);
  });
}

async function authenticate(request: FastifyRequest, accessTokens: AccessTokenIssuer) {
  const match = BEARER.exec(request.headers.authorization ?? '');
  if (match?.[1] === undefined) {
    throw new AppError('UNAUTHORIZED', 'Missing bearer access token.');
  }
  const principal = await accessTokens.verify(match[1]);
  if (principal === undefined) {
    throw new AppError('UNAUTHORIZED', 'Invalid or expired access token.');
  }
  const clientIdHeader = request.headers.clientid;
  if (clientIdHeader !== principal.clientId && clientIdHeader !== principal.oauthClientId) {
    throw new AppError('FORBIDDEN');
  }
  return principal;
}

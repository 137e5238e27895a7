import { type BlockList, isIP } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../errors/app-error.ts';
import { constantTimeEqual } from '../../shared/hashing.ts';
import type { Limiter, Lockout } from './rate-limits.ts';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Operator routes: `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time. Every
 * request counts against a per-IP limit, and a wrong token against a much smaller one that locks
 * the address out: once it is spent, the address's requests are refused before any token is
 * compared, the right one too, so guessing goes no faster than the failure limit. With an
 * allow-list, any other address finds no admin API at all (404, as for a route that does not
 * exist).
 */
export function requireAdminToken(
  app: FastifyInstance,
  adminToken: string,
  limits: { readonly everyRequest: Limiter; readonly failures: Lockout } = NO_LIMITS,
  allowList?: BlockList,
): void {
  app.addHook('onRequest', async (request) => {
    if (allowList !== undefined && !allowed(allowList, request)) {
      throw new AppError(
        'ROUTE_NOT_FOUND',
        `No route for ${request.method} ${request.routeOptions.url}.`,
      );
    }
    await limits.failures.refuseIfLocked(request);
    await limits.everyRequest(request);
    const presented = BEARER.exec(request.headers.authorization ?? '')?.[1];
    if (presented === undefined || !constantTimeEqual(presented, adminToken)) {
      await limits.failures.countFailure(request);
      throw new AppError('UNAUTHORIZED', 'A valid admin token is required.');
    }
  });
}

/** Whether the request's source address is on an allow-list (the admin API, the dashboard). */
export function allowed(allowList: BlockList, request: FastifyRequest): boolean {
  // An IPv4 peer on a dual-stack socket shows as ::ffff:a.b.c.d.
  const address = request.ip.startsWith('::ffff:') ? request.ip.slice(7) : request.ip;
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  return isIP(address) !== 0 && allowList.check(address, family);
}

const NO_LIMITS = {
  everyRequest: async () => {},
  failures: { refuseIfLocked: async () => {}, countFailure: async () => {} },
};

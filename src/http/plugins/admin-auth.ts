import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors/app-error.ts';
import { constantTimeEqual } from '../../shared/hashing.ts';
import type { Limiter } from './rate-limits.ts';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Operator routes: `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time. Every
 * request counts against a per-IP limit, and a wrong token against a much smaller one, so the
 * token cannot be guessed at speed.
 */
export function requireAdminToken(
  app: FastifyInstance,
  adminToken: string,
  limits: { readonly everyRequest: Limiter; readonly failures: Limiter } = NO_LIMITS,
): void {
  app.addHook('onRequest', async (request) => {
    await limits.everyRequest(request);
    const presented = BEARER.exec(request.headers.authorization ?? '')?.[1];
    if (presented === undefined || !constantTimeEqual(presented, adminToken)) {
      await limits.failures(request);
      throw new AppError('UNAUTHORIZED', 'A valid admin token is required.');
    }
  });
}

const NO_LIMITS = { everyRequest: async () => {}, failures: async () => {} };

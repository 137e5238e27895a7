import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors/app-error.ts';
import { constantTimeEqual } from '../../shared/hashing.ts';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Operator routes: `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time. */
export function requireAdminToken(app: FastifyInstance, adminToken: string): void {
  app.addHook('onRequest', async (request) => {
    const presented = BEARER.exec(request.headers.authorization ?? '')?.[1];
    if (presented === undefined || !constantTimeEqual(presented, adminToken)) {
      throw new AppError('UNAUTHORIZED', 'A valid admin token is required.');
    }
  });
}

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Db } from '../db/db.ts';
import { databaseUnavailable } from '../errors/app-error.ts';

const Status = Type.Object({ status: Type.String() });
/** A database that does not answer within this is not ready (probes time out at 1 to 5 s). */
const READY_TIMEOUT_MS = 2_000;

/**
 * /health: the process is up (liveness; a database outage must not get it restarted).
 * /ready: it can reach its database; 503 DATABASE_UNAVAILABLE while it cannot.
 */
export const healthRoutes: FastifyPluginAsyncTypebox<{ db: Db; readyTimeoutMs?: number }> = async (
  app,
  { db, readyTimeoutMs = READY_TIMEOUT_MS },
) => {
  app.get('/health', { schema: { tags: ['Operations'], response: { 200: Status } } }, async () => ({
    status: 'ok',
  }));
  app.get(
    '/ready',
    { schema: { tags: ['Operations'], response: { 200: Status } } },
    async (request) => {
      try {
        await withTimeout(db.query('SELECT 1'), readyTimeoutMs);
      } catch (error) {
        request.log.warn({ err: error }, 'database not reachable');
        throw databaseUnavailable(error);
      }
      return { status: 'ready' };
    },
  );
};

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the database did not answer within ${ms} ms`)), ms);
  });
  // The query may still fail after the timeout won: that is not an unhandled rejection.
  promise.catch(() => undefined);
  return Promise.race([promise, timedOut]).finally(() => clearTimeout(timer));
}

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Db } from '../db/db.ts';
import { AppError } from '../errors/app-error.ts';

const Status = Type.Object({ status: Type.String() });

/** /health: the process is up. /ready: it can reach its database. */
export const healthRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.get('/health', { schema: { tags: ['Operations'], response: { 200: Status } } }, async () => ({
    status: 'ok',
  }));
  app.get(
    '/ready',
    { schema: { tags: ['Operations'], response: { 200: Status } } },
    async (request) => {
      try {
        await db.query('SELECT 1');
      } catch (error) {
        request.log.warn({ err: error }, 'database not reachable');
        throw new AppError('SERVICE_UNAVAILABLE', 'Database is not reachable.');
      }
      return { status: 'ready' };
    },
  );
};

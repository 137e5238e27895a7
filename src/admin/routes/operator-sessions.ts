import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { OperatorDirectory } from '../../auth/operator-directory.ts';
import { AppError } from '../../errors/app-error.ts';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import { adminContract } from '../contract/index.ts';

const route = adminContract['POST /admin/operators/:id/sessions/end'];

export interface OperatorSessionsRouteOptions {
  readonly operators: Pick<OperatorDirectory, 'find' | 'endSessions'>;
}

/**
 * POST /admin/operators/:id/sessions/end: ends every dashboard session of an operator, on every
 * process, from their next request (role security: a lost laptop, a stolen cookie).
 */
export const operatorSessionsRoute: FastifyPluginAsyncTypebox<
  OperatorSessionsRouteOptions
> = async (app, { operators }) => {
  app.post(
    '/admin/operators/:id/sessions/end',
    {
      schema: {
        tags: ['Admin'],
        summary: 'End every dashboard session of an operator',
        params: route.params,
        response: { 200: route.answer, 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema },
      },
    },
    async (request) => {
      if ((await operators.find(request.params.id)) === undefined) {
        throw new AppError('RECORD_NOT_FOUND');
      }
      const ended = await operators.endSessions(request.params.id);
      return ok('Operator sessions ended.', { ended });
    },
  );
};

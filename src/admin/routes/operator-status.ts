import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { OperatorDirectory } from '../../auth/operator-directory.ts';
import { AppError } from '../../errors/app-error.ts';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import { adminContract } from '../contract/index.ts';
import { callerOf } from '../operator-audit.ts';
import { operatorView } from '../operator-view.ts';

export interface OperatorStatusRoutesOptions {
  readonly operators: Pick<OperatorDirectory, 'setStatus'>;
}

/**
 * POST /admin/operators/:id/disable and /enable (role admin). Disabling ends the operator's
 * dashboard sessions and stops their API keys at their next request, on every process (the
 * credential lookups read the operator's status); an operator cannot disable themselves.
 */
export const operatorStatusRoutes: FastifyPluginAsyncTypebox<OperatorStatusRoutesOptions> = async (
  app,
  { operators },
) => {
  for (const [action, status] of [
    ['disable', 'disabled'],
    ['enable', 'active'],
  ] as const) {
    const route = adminContract[`POST /admin/operators/:id/${action}`];
    app.post(
      `/admin/operators/:id/${action}`,
      {
        schema: {
          tags: ['Admin'],
          summary: status === 'disabled' ? 'Disable an operator' : 'Enable a disabled operator',
          params: route.params,
          response: { 200: route.answer, 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema },
        },
      },
      async (request) => {
        if (status === 'disabled' && callerOf(request).operatorId === request.params.id) {
          throw new AppError('FORBIDDEN', 'An operator cannot disable themselves.');
        }
        const operator = await operators.setStatus(request.params.id, status);
        if (operator === undefined) {
          throw new AppError('RECORD_NOT_FOUND');
        }
        return ok(
          status === 'disabled' ? 'Operator disabled.' : 'Operator enabled.',
          operatorView(operator),
        );
      },
    );
  }
};

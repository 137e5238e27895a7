import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { OperatorDirectory } from '../../auth/operator-directory.ts';
import { AppError } from '../../errors/app-error.ts';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import { adminContract } from '../contract/index.ts';
import { operatorView } from '../operator-view.ts';

const route = adminContract['PUT /admin/operators/:id/roles'];

export interface OperatorRolesRouteOptions {
  readonly operators: Pick<OperatorDirectory, 'setRoles'>;
}

/**
 * PUT /admin/operators/:id/roles: an operator's roles, replaced whole (role admin). The new
 * roles hold from the operator's next request on every process: nothing caches them.
 */
export const operatorRolesRoute: FastifyPluginAsyncTypebox<OperatorRolesRouteOptions> = async (
  app,
  { operators },
) => {
  app.put(
    '/admin/operators/:id/roles',
    {
      schema: {
        tags: ['Admin'],
        summary: "Replace an operator's roles",
        params: route.params,
        body: route.body,
        response: { 200: route.answer, 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema },
      },
    },
    async (request) => {
      const operator = await operators.setRoles(request.params.id, request.body.roles);
      if (operator === undefined) {
        throw new AppError('RECORD_NOT_FOUND');
      }
      return ok('Operator roles updated.', operatorView(operator));
    },
  );
};

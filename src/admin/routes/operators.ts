import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { OperatorDirectory } from '../../auth/operator-directory.ts';
import { AppError } from '../../errors/app-error.ts';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok, paged } from '../../http/envelope.ts';
import { adminContract } from '../contract/index.ts';
import { callerOf } from '../operator-audit.ts';
import { operatorView } from '../operator-view.ts';

const errors = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema };
const list = adminContract['GET /admin/operators'];
const create = adminContract['POST /admin/operators'];
const show = adminContract['GET /admin/operators/:id'];

export interface OperatorRoutesOptions {
  readonly operators: Pick<OperatorDirectory, 'list' | 'create' | 'find'>;
}

/**
 * GET /admin/operators, POST /admin/operators, GET /admin/operators/:id: the bank's operators
 * (role admin). A new operator has roles and no way to sign in yet: they enrol a password and a
 * second factor from a setup link, or arrive through single sign-on (docs/operators.md).
 */
export const operatorRoutes: FastifyPluginAsyncTypebox<OperatorRoutesOptions> = async (
  app,
  { operators },
) => {
  app.get(
    '/admin/operators',
    {
      schema: {
        tags: ['Admin'],
        summary: "The bank's operators, by email",
        querystring: list.query,
        response: { 200: list.answer, ...errors },
      },
    },
    async (request) => {
      const { page, limit } = request.query;
      const { rows, total } = await operators.list({ limit, offset: page * limit });
      return paged('Operators fetched successfully.', rows.map(operatorView), {
        page,
        limit,
        total,
      });
    },
  );
  app.post(
    '/admin/operators',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Add an operator with their roles',
        body: create.body,
        response: { 201: create.answer, ...errors, 409: ErrorSchema },
      },
    },
    async (request, reply) => {
      const operator = await operators.create(request.body, callerOf(request));
      return reply.status(201).send(ok('Operator created.', operatorView(operator), 201));
    },
  );
  app.get(
    '/admin/operators/:id',
    {
      schema: {
        tags: ['Admin'],
        summary: 'One operator',
        params: show.params,
        response: { 200: show.answer, ...errors },
      },
    },
    async (request) => {
      const operator = await operators.find(request.params.id);
      if (operator === undefined) {
        throw new AppError('RECORD_NOT_FOUND');
      }
      return ok('Operator fetched successfully.', operatorView(operator));
    },
  );
};

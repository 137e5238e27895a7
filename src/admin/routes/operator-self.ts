import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { OperatorDirectory } from '../../auth/operator-directory.ts';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import { adminContract } from '../contract/index.ts';
import { callerOf, personalOperatorId } from '../operator-audit.ts';
import { operatorView } from '../operator-view.ts';

const whoAmI = adminContract['GET /admin/operators/me'];
const signOut = adminContract['POST /admin/operators/me/sign-out-everywhere'];

export interface OperatorSelfRoutesOptions {
  readonly operators: Pick<OperatorDirectory, 'find' | 'endSessions'>;
}

/**
 * GET /admin/operators/me: who the admin API takes the caller for (an operator with their roles,
 * or break-glass). POST /admin/operators/me/sign-out-everywhere: ends every dashboard session of
 * the caller, on every process (their API keys are revoked one by one, by their id).
 */
export const operatorSelfRoutes: FastifyPluginAsyncTypebox<OperatorSelfRoutesOptions> = async (
  app,
  { operators },
) => {
  app.get(
    '/admin/operators/me',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Who the caller is, and their roles',
        response: { 200: whoAmI.answer, 401: ErrorSchema },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const operator =
        caller.operatorId === null ? undefined : await operators.find(caller.operatorId);
      return ok('Operator fetched successfully.', {
        kind: caller.kind,
        operator: operator === undefined ? null : operatorView(operator),
        roles: [...caller.roles],
        actor: caller.actor,
      });
    },
  );
  app.post(
    '/admin/operators/me/sign-out-everywhere',
    {
      schema: {
        tags: ['Admin'],
        summary: "End every one of the caller's dashboard sessions",
        response: { 200: signOut.answer, 401: ErrorSchema, 403: ErrorSchema },
      },
    },
    async (request) => {
      const ended = await operators.endSessions(personalOperatorId(request));
      return ok('Signed out everywhere.', { ended });
    },
  );
};

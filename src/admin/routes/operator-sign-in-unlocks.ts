import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { OperatorSignIn, SignInState } from '../../auth/operator-sign-in.ts';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import { adminContract } from '../contract/index.ts';
import { callerOf } from '../operator-audit.ts';

export interface OperatorSignInUnlockRouteOptions {
  readonly operatorSignIn: Pick<OperatorSignIn, 'unlock'>;
}

/**
 * POST /admin/operators/:id/unlock: lifts the lockout that repeated failed sign-ins put on an
 * operator (OPERATOR_LOCKOUT_FAILURES, OPERATOR_LOCKOUT_SECONDS) before it ends by itself, once
 * another admin has checked the failures were the operator's own. Not for oneself (403).
 */
export const operatorSignInUnlockRoute: FastifyPluginAsyncTypebox<
  OperatorSignInUnlockRouteOptions
> = async (app, { operatorSignIn }) => {
  const route = adminContract['POST /admin/operators/:id/unlock'];
  app.post(
    '/admin/operators/:id/unlock',
    {
      schema: {
        tags: ['Admin'],
        summary: "Lift a local operator's sign-in lockout",
        params: route.params,
        response: { 200: route.answer, 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema },
      },
    },
    async (request) => {
      const state = await operatorSignIn.unlock(request.params.id, callerOf(request));
      return ok('Operator unlocked.', signInStateView(state));
    },
  );
};

function signInStateView(state: SignInState) {
  return {
    id: state.id,
    email: state.email,
    status: state.status,
    hasPassword: state.hasPassword,
    hasSecondFactor: state.hasSecondFactor,
    failedSignIns: state.failedSignIns,
    lockedUntil: state.lockedUntil === null ? null : state.lockedUntil.toISOString(),
  };
}

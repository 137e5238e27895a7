import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { OperatorSignIn } from '../../auth/operator-sign-in.ts';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import { adminContract } from '../contract/index.ts';
import { callerOf } from '../operator-audit.ts';
import { setupLinkAnswer } from './operator-setup-links.ts';

export interface OperatorSignInResetRouteOptions {
  readonly operatorSignIn: Pick<OperatorSignIn, 'resetSignIn'>;
  readonly publicBaseUrl: string;
}

/**
 * POST /admin/operators/:id/reset-sign-in: for an operator who lost their password or their
 * authenticator. Another admin forgets both, lifts any lockout, ends the operator's dashboard
 * sessions and gets a new setup link to hand them. An admin cannot reset themselves (403).
 */
export const operatorSignInResetRoute: FastifyPluginAsyncTypebox<
  OperatorSignInResetRouteOptions
> = async (app, { operatorSignIn, publicBaseUrl }) => {
  const route = adminContract['POST /admin/operators/:id/reset-sign-in'];
  app.post(
    '/admin/operators/:id/reset-sign-in',
    {
      schema: {
        tags: ['Admin'],
        summary: "Reset a local operator's password and second factor: a new setup link",
        params: route.params,
        response: {
          201: route.answer,
          400: ErrorSchema,
          401: ErrorSchema,
          403: ErrorSchema,
          409: ErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const link = await operatorSignIn.resetSignIn(request.params.id, callerOf(request));
      return reply
        .status(201)
        .send(
          ok('Sign-in reset; a new setup link made.', setupLinkAnswer(publicBaseUrl, link), 201),
        );
    },
  );
};

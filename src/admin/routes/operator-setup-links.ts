import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { OperatorSignIn, SetupLink } from '../../auth/operator-sign-in.ts';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import { adminContract } from '../contract/index.ts';
import { callerOf } from '../operator-audit.ts';

export interface OperatorSetupLinkRouteOptions {
  readonly operatorSignIn: Pick<OperatorSignIn, 'issueSetupLink'>;
  readonly publicBaseUrl: string;
}

/** The dashboard page a setup link opens. */
export function setupLinkAnswer(publicBaseUrl: string, link: SetupLink) {
  return {
    operatorId: link.operatorId,
    url: `${publicBaseUrl}/dashboard/setup/${link.ticket}`,
    expiresAt: link.expiresAt.toISOString(),
  };
}

/**
 * POST /admin/operators/:id/setup-link: a one-time link for a new local operator, which an admin
 * hands them (docs/operators.md). Opening it, they choose a password and register the TOTP
 * secret it shows; it works once, within OPERATOR_SETUP_LINK_TTL_SECONDS, and asking again
 * replaces it. An operator who has set up already is reset instead (reset-sign-in).
 */
export const operatorSetupLinkRoute: FastifyPluginAsyncTypebox<
  OperatorSetupLinkRouteOptions
> = async (app, { operatorSignIn, publicBaseUrl }) => {
  const route = adminContract['POST /admin/operators/:id/setup-link'];
  app.post(
    '/admin/operators/:id/setup-link',
    {
      schema: {
        tags: ['Admin'],
        summary: "A one-time link to set up a local operator's password and second factor",
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
      const link = await operatorSignIn.issueSetupLink(request.params.id, callerOf(request));
      return reply
        .status(201)
        .send(ok('Setup link made.', setupLinkAnswer(publicBaseUrl, link), 201));
    },
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import type { ClientService } from '../../modules/clients/index.ts';
import { adminContract } from '../contract/index.ts';

const errors = { 400: ErrorSchema, 401: ErrorSchema };

export interface ClientAccessRoutesOptions {
  readonly clientService: Pick<
    ClientService,
    'getClient' | 'setDisabled' | 'revokeTokens' | 'accessOf'
  >;
}

/**
 * An operator disables a client (no token is issued to its apps, every token it holds stops;
 * its accounts and money stay as they are), enables it again, or revokes every token it holds
 * at once (its apps authenticate again for new ones).
 */
export const clientAccessRoutes: FastifyPluginAsyncTypebox<ClientAccessRoutesOptions> = async (
  app,
  { clientService },
) => {
  const answer = async (clientId: string) =>
    accessView(clientId, await clientService.accessOf(clientId));
  const actions = [
    [
      'disable',
      'Disable a client: no token for its apps, and every token it holds stops',
      'Client disabled successfully.',
    ],
    [
      'enable',
      'Enable a disabled client (its revoked tokens stay revoked)',
      'Client enabled successfully.',
    ],
    [
      'revoke-tokens',
      "Revoke every access and refresh token of the client's apps",
      'Client tokens revoked successfully.',
    ],
  ] as const;
  for (const [action, summary, message] of actions) {
    const route = adminContract[`POST /admin/clients/:id/${action}`];
    app.post(
      `/admin/clients/:id/${action}`,
      {
        schema: {
          tags: ['Admin'],
          summary,
          params: route.params,
          response: { 200: route.answer, ...errors },
        },
      },
      async (request) => {
        const client = await clientService.getClient(request.params.id);
        if (action === 'revoke-tokens') {
          await clientService.revokeTokens(client.id);
        } else {
          await clientService.setDisabled(client.id, action === 'disable');
        }
        return ok(message, await answer(client.id));
      },
    );
  }

  const read = adminContract['GET /admin/clients/:id/access'];
  app.get(
    '/admin/clients/:id/access',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Whether a client is disabled, and when its tokens were last revoked',
        params: read.params,
        response: { 200: read.answer, ...errors },
      },
    },
    async (request) => {
      const client = await clientService.getClient(request.params.id);
      return ok('Client access fetched successfully.', await answer(client.id));
    },
  );
};

function accessView(
  clientId: string,
  access: { disabledAt: Date | null; tokensRevokedAt: Date | null },
) {
  return {
    client: clientId,
    status: access.disabledAt === null ? ('Active' as const) : ('Disabled' as const),
    disabledAt: access.disabledAt?.toISOString() ?? null,
    tokensRevokedAt: access.tokensRevokedAt?.toISOString() ?? null,
  };
}

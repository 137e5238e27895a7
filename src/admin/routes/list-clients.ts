import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorSchema, pagedEnvelopeSchema } from '../../http/common-schemas.ts';
import { paged } from '../../http/envelope.ts';
import type { ClientService } from '../../modules/clients/index.ts';
import { AdminPageQuery } from '../admin-read-schemas.ts';
import { ClientSchema } from '../admin-schemas.ts';
import { clientView } from '../client-view.ts';

const errors = { 400: ErrorSchema, 401: ErrorSchema };

export interface ListClientsRouteOptions {
  readonly clientService: Pick<ClientService, 'listClients'>;
  readonly institutionCode: string;
}

/** GET /admin/clients: every client with its main account, newest first. */
export const listClientsRoute: FastifyPluginAsyncTypebox<ListClientsRouteOptions> = async (
  app,
  { clientService, institutionCode },
) => {
  app.get(
    '/admin/clients',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Every client with its main account, newest first',
        querystring: AdminPageQuery,
        response: { 200: pagedEnvelopeSchema(ClientSchema), ...errors },
      },
    },
    async (request) => {
      const { page, limit } = request.query;
      const { clients, total } = await clientService.listClients({ page, limit });
      const data = clients.map((client) => clientView(client, institutionCode));
      return paged('Clients fetched successfully.', data, { page, limit, total });
    },
  );
};

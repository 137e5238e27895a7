import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { paged } from '../../http/envelope.ts';
import type { ClientService } from '../../modules/clients/index.ts';
import { clientView } from '../client-view.ts';
import { adminContract } from '../contract/index.ts';

const errors = { 400: ErrorSchema, 401: ErrorSchema };
const listClients = adminContract['GET /admin/clients'];

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
        querystring: listClients.query,
        response: { 200: listClients.answer, ...errors },
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

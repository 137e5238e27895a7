import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { OAuthAppRecord } from '../../auth/app-registration.ts';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import type { ClientService } from '../../modules/clients/index.ts';
import { clientView } from '../client-view.ts';
import { adminContract } from '../contract/index.ts';

const errors = { 400: ErrorSchema, 401: ErrorSchema };
const createClient = adminContract['POST /admin/clients'];
const readClient = adminContract['GET /admin/clients/:id'];
const registerApp = adminContract['POST /admin/clients/:id/apps'];

export interface ClientRoutesOptions {
  readonly clientService: ClientService;
  readonly institutionCode: string;
}

export const clientRoutes: FastifyPluginAsyncTypebox<ClientRoutesOptions> = async (
  app,
  { clientService, institutionCode },
) => {
  app.post(
    '/admin/clients',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Onboard a client (business) with its main account',
        body: createClient.body,
        response: { 201: createClient.answer, ...errors },
      },
    },
    async (request, reply) => {
      const created = await clientService.createClient(request.body);
      return reply
        .status(201)
        .send(ok('Client created successfully.', clientView(created, institutionCode), 201));
    },
  );

  app.get(
    '/admin/clients/:id',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Get a client with its main account',
        params: readClient.params,
        response: { 200: readClient.answer, ...errors },
      },
    },
    async (request) => {
      const found = await clientService.getClientWithMainAccount(request.params.id);
      return ok('Client fetched successfully.', clientView(found, institutionCode));
    },
  );

  app.post(
    '/admin/clients/:id/apps',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Register an OAuth app and its public key for a client',
        params: registerApp.params,
        body: registerApp.body,
        response: { 201: registerApp.answer, ...errors },
      },
    },
    async (request, reply) => {
      const { app: registered, algorithm } = await clientService.registerApp(
        request.params.id,
        request.body,
      );
      return reply
        .status(201)
        .send(ok('App created successfully.', appView(registered, algorithm), 201));
    },
  );
};

function appView(app: OAuthAppRecord, algorithm: 'RS256' | 'ES256') {
  return {
    _id: app.id,
    client: app.clientId,
    clientId: app.oauthClientId,
    name: app.name,
    algorithm,
    createdAt: app.createdAt.toISOString(),
  };
}

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { OAuthAppRecord } from '../../auth/app-registration.ts';
import { ErrorSchema, envelopeSchema, IdParams } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import type { ClientService } from '../../modules/clients/index.ts';
import { AppSchema, ClientSchema, CreateClientBody, RegisterAppBody } from '../admin-schemas.ts';
import { clientView } from '../client-view.ts';

const errors = { 400: ErrorSchema, 401: ErrorSchema };

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
        body: CreateClientBody,
        response: { 201: envelopeSchema(ClientSchema), ...errors },
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
        params: IdParams,
        response: { 200: envelopeSchema(ClientSchema), ...errors },
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
        params: IdParams,
        body: RegisterAppBody,
        response: { 201: envelopeSchema(AppSchema), ...errors },
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

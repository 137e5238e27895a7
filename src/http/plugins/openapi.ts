import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config/config.ts';

/** OpenAPI 3.1 generated from the route schemas at /openapi.json; a browsable reference at /docs. */
export async function registerOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'OpenIBS: IBS banking API v1.0',
        version: '1.0',
        description:
          'An open-source implementation of the IBS banking API on a double-entry ledger. ' +
          'Every call except /oauth2/token needs `Authorization: Bearer <access_token>` and a ' +
          '`ClientID` header (your ibs_client_id).',
      },
      servers: [{ url: config.publicBaseUrl }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          clientId: { type: 'apiKey', in: 'header', name: 'ClientID' },
        },
      },
      security: [{ bearer: [], clientId: [] }],
    },
    // In production the operator API is not advertised (ADMIN_API_IN_DOCS turns it back on).
    transform: ({ schema, url }) =>
      !config.exposure.adminApiInDocs && url.startsWith('/admin')
        ? { schema: { ...schema, hide: true }, url }
        : { schema, url },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

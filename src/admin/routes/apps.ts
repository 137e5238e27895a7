import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppWithKeys } from '../../auth/app-management.ts';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import type { ClientService } from '../../modules/clients/index.ts';
import { adminContract } from '../contract/index.ts';

const errors = { 400: ErrorSchema, 401: ErrorSchema, 409: ErrorSchema };
const listApps = adminContract['GET /admin/clients/:id/apps'];
const revokeApp = adminContract['POST /admin/clients/:id/apps/:appId/revoke'];
const addKey = adminContract['POST /admin/clients/:id/apps/:appId/keys'];
const revokeKey = adminContract['POST /admin/clients/:id/apps/:appId/keys/:keyId/revoke'];

export interface AppRoutesOptions {
  readonly clientService: Pick<
    ClientService,
    'listApps' | 'revokeApp' | 'addAppKey' | 'revokeAppKey'
  >;
}

/**
 * An operator lists a client's apps and keys, revokes an app, and rotates keys (add the new
 * key, then revoke the old). Revoking a key or an app stops every token it holds.
 */
export const appRoutes: FastifyPluginAsyncTypebox<AppRoutesOptions> = async (app, options) => {
  await app.register(appListAndRevokeRoutes, options);
  await app.register(appKeyRoutes, options);
};

const appListAndRevokeRoutes: FastifyPluginAsyncTypebox<AppRoutesOptions> = async (
  app,
  { clientService },
) => {
  app.get(
    '/admin/clients/:id/apps',
    {
      schema: {
        tags: ['Admin'],
        summary: "A client's OAuth apps with their keys",
        params: listApps.params,
        response: { 200: listApps.answer, ...errors },
      },
    },
    async (request) => {
      const apps = await clientService.listApps(request.params.id);
      return ok('Apps fetched successfully.', apps.map(appWithKeysView));
    },
  );

  app.post(
    '/admin/clients/:id/apps/:appId/revoke',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Revoke an app: no new token, and its access and refresh tokens stop',
        params: revokeApp.params,
        response: { 200: revokeApp.answer, ...errors },
      },
    },
    async (request) => {
      const revoked = await clientService.revokeApp(request.params.id, request.params.appId);
      return ok('App revoked successfully.', { _id: revoked.id });
    },
  );
};

const appKeyRoutes: FastifyPluginAsyncTypebox<AppRoutesOptions> = async (
  app,
  { clientService },
) => {
  app.post(
    '/admin/clients/:id/apps/:appId/keys',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Add a public key to an app (at most 5 live keys)',
        params: addKey.params,
        body: addKey.body,
        response: { 201: addKey.answer, ...errors },
      },
    },
    async (request, reply) => {
      const key = await clientService.addAppKey(
        request.params.id,
        request.params.appId,
        request.body.publicKey,
      );
      const view = {
        _id: key.id,
        algorithm: key.algorithm,
        createdAt: key.createdAt.toISOString(),
        revokedAt: null,
      };
      return reply.status(201).send(ok('Key added successfully.', view, 201));
    },
  );

  app.post(
    '/admin/clients/:id/apps/:appId/keys/:keyId/revoke',
    {
      schema: {
        tags: ['Admin'],
        summary: "Revoke a key of an app; the app's tokens stop too",
        params: revokeKey.params,
        response: { 200: revokeKey.answer, ...errors },
      },
    },
    async (request) => {
      const { id, appId, keyId } = request.params;
      await clientService.revokeAppKey(id, appId, keyId);
      return ok('Key revoked successfully.', { _id: keyId });
    },
  );
};

function appWithKeysView(app: AppWithKeys) {
  const live = app.keys.find((key) => key.revokedAt === null) ?? app.keys[0];
  return {
    _id: app.id,
    client: app.clientId,
    clientId: app.oauthClientId,
    name: app.name,
    algorithm: live?.algorithm ?? 'RS256',
    createdAt: app.createdAt.toISOString(),
    status: app.revokedAt === null ? ('Active' as const) : ('Revoked' as const),
    revokedAt: app.revokedAt?.toISOString() ?? null,
    keys: app.keys.map((key) => ({
      _id: key.id,
      algorithm: key.algorithm,
      createdAt: key.createdAt.toISOString(),
      revokedAt: key.revokedAt?.toISOString() ?? null,
    })),
  };
}

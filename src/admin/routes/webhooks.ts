import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { parseDateRange } from '../../http/date-range.ts';
import { ok, paged } from '../../http/envelope.ts';
import type { ClientService } from '../../modules/clients/index.ts';
import type { WebhookService } from '../../webhooks/webhook-service.ts';
import { webhookDeliveryView } from '../../webhooks/webhook-view.ts';
import { adminContract } from '../contract/index.ts';

const errors = { 400: ErrorSchema, 401: ErrorSchema };
const setWebhook = adminContract['PUT /admin/clients/:id/webhook'];
const readWebhook = adminContract['GET /admin/clients/:id/webhook'];
const listDeliveries = adminContract['GET /admin/clients/:id/webhooks/deliveries'];
const replayFailed = adminContract['POST /admin/clients/:id/webhooks/replay'];
const replayOne = adminContract['POST /admin/clients/:id/webhooks/deliveries/:eventId/replay'];

/** Operators set a client's webhook URL and inspect or replay its deliveries. */
export interface AdminWebhookRoutesOptions {
  readonly clientService: Pick<ClientService, 'getClient'>;
  readonly webhookService: WebhookService;
}

export const adminWebhookRoutes: FastifyPluginAsyncTypebox<AdminWebhookRoutesOptions> = async (
  app,
  options,
) => {
  await app.register(webhookSettingsRoutes, options);
  await app.register(webhookDeliveryRoutes, options);
};

/** The client's webhook URL, and its signing secret when it is set. */
const webhookSettingsRoutes: FastifyPluginAsyncTypebox<AdminWebhookRoutesOptions> = async (
  app,
  { clientService, webhookService },
) => {
  app.put(
    '/admin/clients/:id/webhook',
    {
      schema: {
        tags: ['Admin'],
        summary: "Set a client's webhook URL; answers the URL and the signing secret",
        params: setWebhook.params,
        body: setWebhook.body,
        response: { 200: setWebhook.answer, ...errors },
      },
    },
    async (request) => {
      const client = await clientService.getClient(request.params.id);
      const endpoint = await webhookService.updateSettings(client.id, {
        url: request.body.url,
        ...(request.body.rotateSecret === true ? { rotateSecret: true } : {}),
      });
      return ok('Webhook updated successfully.', { url: endpoint.url, secret: endpoint.secret });
    },
  );

  app.get(
    '/admin/clients/:id/webhook',
    {
      schema: {
        tags: ['Admin'],
        summary: "A client's webhook URL (never the secret: it is shown only when it is set)",
        params: readWebhook.params,
        response: { 200: readWebhook.answer, ...errors },
      },
    },
    async (request) => {
      const client = await clientService.getClient(request.params.id);
      const endpoint = await webhookService.getSettings(client.id);
      return ok('Webhook settings fetched successfully.', { url: endpoint.url });
    },
  );
};

/** The client's deliveries with their attempts, and replaying them. */
const webhookDeliveryRoutes: FastifyPluginAsyncTypebox<AdminWebhookRoutesOptions> = async (
  app,
  { clientService, webhookService },
) => {
  app.get(
    '/admin/clients/:id/webhooks/deliveries',
    {
      schema: {
        tags: ['Admin'],
        summary: "A client's webhook deliveries with their attempts",
        params: listDeliveries.params,
        querystring: listDeliveries.query,
        response: { 200: listDeliveries.answer, ...errors },
      },
    },
    async (request) => {
      const client = await clientService.getClient(request.params.id);
      const { page, limit } = request.query;
      const { deliveries, total } = await webhookService.listDeliveries(client.id, request.query);
      return paged(
        'Webhook deliveries fetched successfully.',
        deliveries.map(webhookDeliveryView),
        {
          page,
          limit,
          total,
        },
      );
    },
  );

  app.post(
    '/admin/clients/:id/webhooks/replay',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Replay every failed delivery of a client since a time',
        params: replayFailed.params,
        body: replayFailed.body,
        response: { 200: replayFailed.answer, ...errors },
      },
    },
    async (request) => {
      const client = await clientService.getClient(request.params.id);
      const { from } = parseDateRange(request.body.since);
      const replayed = await webhookService.replayFailedSince(client.id, from ?? new Date(0));
      return ok('Failed webhook deliveries queued again.', { replayed });
    },
  );

  app.post(
    '/admin/clients/:id/webhooks/deliveries/:eventId/replay',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Replay one delivery of a client',
        params: replayOne.params,
        response: { 200: replayOne.answer, ...errors },
      },
    },
    async (request) => {
      const client = await clientService.getClient(request.params.id);
      const delivery = await webhookService.replay(client.id, request.params.eventId);
      return ok('Webhook delivery queued again.', webhookDeliveryView(delivery));
    },
  );
};

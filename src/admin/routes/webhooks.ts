import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  ErrorSchema,
  envelopeSchema,
  IdParams,
  pagedEnvelopeSchema,
} from '../../http/common-schemas.ts';
import { parseDateRange } from '../../http/date-range.ts';
import { ok, paged } from '../../http/envelope.ts';
import type { ClientService } from '../../modules/clients/index.ts';
import {
  ListDeliveriesQuery,
  ReplayBody,
  ReplayResultSchema,
  WebhookDeliverySchema,
} from '../../webhooks/webhook-schemas.ts';
import type { WebhookService } from '../../webhooks/webhook-service.ts';
import { webhookDeliveryView } from '../../webhooks/webhook-view.ts';

const errors = { 400: ErrorSchema, 401: ErrorSchema };

/** Operators set a client's webhook URL and inspect or replay its deliveries. */
export interface AdminWebhookRoutesOptions {
  readonly clientService: Pick<ClientService, 'getClient'>;
  readonly webhookService: WebhookService;
}

export const adminWebhookRoutes: FastifyPluginAsyncTypebox<AdminWebhookRoutesOptions> = async (
  app,
  { clientService, webhookService },
) => {
  app.put(
    '/admin/clients/:id/webhook',
    {
      schema: {
        tags: ['Admin'],
        summary: "Set a client's webhook URL; answers the URL and the signing secret",
        params: IdParams,
        body: Type.Object({
          url: Type.Union([Type.String({ minLength: 1, maxLength: 2048 }), Type.Null()]),
          rotateSecret: Type.Optional(
            Type.Boolean({
              description:
                'Make a new signing secret; the previous one keeps signing for the grace period.',
            }),
          ),
        }),
        response: {
          200: envelopeSchema(
            Type.Object({ url: Type.Union([Type.String(), Type.Null()]), secret: Type.String() }),
          ),
          ...errors,
        },
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
        params: IdParams,
        response: {
          200: envelopeSchema(Type.Object({ url: Type.Union([Type.String(), Type.Null()]) })),
          ...errors,
        },
      },
    },
    async (request) => {
      const client = await clientService.getClient(request.params.id);
      const endpoint = await webhookService.getSettings(client.id);
      return ok('Webhook settings fetched successfully.', { url: endpoint.url });
    },
  );

  app.get(
    '/admin/clients/:id/webhooks/deliveries',
    {
      schema: {
        tags: ['Admin'],
        summary: "A client's webhook deliveries with their attempts",
        params: IdParams,
        querystring: ListDeliveriesQuery,
        response: { 200: pagedEnvelopeSchema(WebhookDeliverySchema), ...errors },
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
        params: IdParams,
        body: ReplayBody,
        response: { 200: envelopeSchema(ReplayResultSchema), ...errors },
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
        params: Type.Object({
          id: Type.String({ maxLength: 64 }),
          eventId: Type.String({ maxLength: 64 }),
        }),
        response: { 200: envelopeSchema(WebhookDeliverySchema), ...errors },
      },
    },
    async (request) => {
      const client = await clientService.getClient(request.params.id);
      const delivery = await webhookService.replay(client.id, request.params.eventId);
      return ok('Webhook delivery queued again.', webhookDeliveryView(delivery));
    },
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AUTHENTICATED_ERROR_RESPONSES,
  envelopeSchema,
  IdParams,
  pagedEnvelopeSchema,
} from '../../http/common-schemas.ts';
import { parseDateRange } from '../../http/date-range.ts';
import { ok, paged } from '../../http/envelope.ts';
import {
  ListDeliveriesQuery,
  ReplayBody,
  ReplayResultSchema,
  WebhookDeliverySchema,
} from '../webhook-schemas.ts';
import type { WebhookService } from '../webhook-service.ts';
import { webhookDeliveryView } from '../webhook-view.ts';

export interface DeliveryRoutesOptions {
  readonly webhookService: WebhookService;
}

export const deliveryRoutes: FastifyPluginAsyncTypebox<DeliveryRoutesOptions> = async (
  app,
  { webhookService },
) => {
  const one = { 200: envelopeSchema(WebhookDeliverySchema), ...AUTHENTICATED_ERROR_RESPONSES };

  app.get(
    '/webhooks/deliveries',
    {
      schema: {
        tags: ['Webhooks'],
        summary: 'Webhook events sent to you, newest first, with every attempt',
        querystring: ListDeliveriesQuery,
        response: {
          200: pagedEnvelopeSchema(WebhookDeliverySchema),
          ...AUTHENTICATED_ERROR_RESPONSES,
        },
      },
    },
    async (request) => {
      const { page, limit } = request.query;
      const { deliveries, total } = await webhookService.listDeliveries(
        request.principal.clientId,
        request.query,
      );
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

  app.get(
    '/webhooks/deliveries/:id',
    {
      schema: { tags: ['Webhooks'], summary: 'One webhook event', params: IdParams, response: one },
    },
    async (request) => {
      const delivery = await webhookService.getDelivery(
        request.principal.clientId,
        request.params.id,
      );
      return ok('Webhook delivery fetched successfully.', webhookDeliveryView(delivery));
    },
  );

  app.post(
    '/webhooks/deliveries/:id/replay',
    {
      schema: {
        tags: ['Webhooks'],
        summary: 'Send one event again, with the same webhook-id',
        params: IdParams,
        response: one,
      },
    },
    async (request) => {
      const delivery = await webhookService.replay(request.principal.clientId, request.params.id);
      return ok('Webhook delivery queued again.', webhookDeliveryView(delivery));
    },
  );

  app.post(
    '/webhooks/deliveries/replay',
    {
      schema: {
        tags: ['Webhooks'],
        summary: 'Send again every failed event created since a time',
        body: ReplayBody,
        response: { 200: envelopeSchema(ReplayResultSchema), ...AUTHENTICATED_ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { from } = parseDateRange(request.body.since);
      const replayed = await webhookService.replayFailedSince(
        request.principal.clientId,
        from ?? new Date(0),
      );
      return ok('Failed webhook deliveries queued again.', { replayed });
    },
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AUTHENTICATED_ERROR_RESPONSES, pagedEnvelopeSchema } from '../../http/common-schemas.ts';
import { paged } from '../../http/envelope.ts';
import { ListDeliveriesQuery, WebhookDeliverySchema } from '../webhook-schemas.ts';
import type { WebhookService } from '../webhook-service.ts';
import { webhookDeliveryView } from '../webhook-view.ts';

export interface ListDeliveriesRouteOptions {
  readonly webhookService: Pick<WebhookService, 'listDeliveries'>;
}

export const listDeliveriesRoute: FastifyPluginAsyncTypebox<ListDeliveriesRouteOptions> = async (
  app,
  { webhookService },
) => {
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
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AUTHENTICATED_ERROR_RESPONSES,
  envelopeSchema,
  IdParams,
} from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import { WebhookDeliverySchema } from '../webhook-schemas.ts';
import type { WebhookService } from '../webhook-service.ts';
import { webhookDeliveryView } from '../webhook-view.ts';

export interface GetDeliveryRouteOptions {
  readonly webhookService: Pick<WebhookService, 'getDelivery'>;
}

export const getDeliveryRoute: FastifyPluginAsyncTypebox<GetDeliveryRouteOptions> = async (
  app,
  { webhookService },
) => {
  app.get(
    '/webhooks/deliveries/:id',
    {
      schema: {
        tags: ['Webhooks'],
        summary: 'One webhook event',
        params: IdParams,
        response: { 200: envelopeSchema(WebhookDeliverySchema), ...AUTHENTICATED_ERROR_RESPONSES },
      },
    },
    async (request) => {
      const delivery = await webhookService.getDelivery(
        request.principal.clientId,
        request.params.id,
      );
      return ok('Webhook delivery fetched successfully.', webhookDeliveryView(delivery));
    },
  );
};

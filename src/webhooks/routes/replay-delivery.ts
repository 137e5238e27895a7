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

export interface ReplayDeliveryRouteOptions {
  readonly webhookService: Pick<WebhookService, 'replay'>;
}

export const replayDeliveryRoute: FastifyPluginAsyncTypebox<ReplayDeliveryRouteOptions> = async (
  app,
  { webhookService },
) => {
  app.post(
    '/webhooks/deliveries/:id/replay',
    {
      schema: {
        tags: ['Webhooks'],
        summary: 'Send one event again, with the same webhook-id',
        params: IdParams,
        response: { 200: envelopeSchema(WebhookDeliverySchema), ...AUTHENTICATED_ERROR_RESPONSES },
      },
    },
    async (request) => {
      const delivery = await webhookService.replay(request.principal.clientId, request.params.id);
      return ok('Webhook delivery queued again.', webhookDeliveryView(delivery));
    },
  );
};

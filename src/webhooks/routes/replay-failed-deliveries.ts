import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AUTHENTICATED_ERROR_RESPONSES, envelopeSchema } from '../../http/common-schemas.ts';
import { parseDateRange } from '../../http/date-range.ts';
import { ok } from '../../http/envelope.ts';
import { ReplayBody, ReplayResultSchema } from '../webhook-schemas.ts';
import type { WebhookService } from '../webhook-service.ts';

export interface ReplayFailedDeliveriesRouteOptions {
  readonly webhookService: Pick<WebhookService, 'replayFailedSince'>;
}

export const replayFailedDeliveriesRoute: FastifyPluginAsyncTypebox<
  ReplayFailedDeliveriesRouteOptions
> = async (app, { webhookService }) => {
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

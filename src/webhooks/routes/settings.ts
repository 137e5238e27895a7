import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AUTHENTICATED_ERROR_RESPONSES, envelopeSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import type { Clock } from '../../shared/clock.ts';
import { UpdateWebhookSettingsBody, WebhookSettingsSchema } from '../webhook-schemas.ts';
import type { WebhookService } from '../webhook-service.ts';
import { webhookSettingsView } from '../webhook-view.ts';

export interface SettingsRoutesOptions {
  readonly webhookService: WebhookService;
  readonly clock: Clock;
}

export const settingsRoutes: FastifyPluginAsyncTypebox<SettingsRoutesOptions> = async (
  app,
  { webhookService, clock },
) => {
  const response = { 200: envelopeSchema(WebhookSettingsSchema), ...AUTHENTICATED_ERROR_RESPONSES };

  app.get(
    '/webhooks/settings',
    { schema: { tags: ['Webhooks'], summary: 'Your webhook URL and signing secret', response } },
    async (request) => {
      const endpoint = await webhookService.getSettings(request.principal.clientId);
      return ok(
        'Webhook settings fetched successfully.',
        webhookSettingsView(endpoint, clock.now()),
      );
    },
  );

  app.put(
    '/webhooks/settings',
    {
      schema: {
        tags: ['Webhooks'],
        summary: 'Set your webhook URL, or rotate the signing secret',
        body: UpdateWebhookSettingsBody,
        response,
      },
    },
    async (request) => {
      const endpoint = await webhookService.updateSettings(
        request.principal.clientId,
        request.body,
      );
      return ok(
        'Webhook settings updated successfully.',
        webhookSettingsView(endpoint, clock.now()),
      );
    },
  );
};

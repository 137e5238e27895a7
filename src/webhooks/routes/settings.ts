import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AuditLog } from '../../audit/index.ts';
import { AUTHENTICATED_ERROR_RESPONSES, envelopeSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import type { Clock } from '../../shared/clock.ts';
import { UpdateWebhookSettingsBody, WebhookSettingsSchema } from '../webhook-schemas.ts';
import type { WebhookService } from '../webhook-service.ts';
import { webhookSettingsView } from '../webhook-view.ts';

export interface SettingsRoutesOptions {
  readonly webhookService: WebhookService;
  readonly clock: Clock;
  /** A client changing where its events go (or its secret) is a security event. */
  readonly auditLog: Pick<AuditLog, 'record'>;
}

export const settingsRoutes: FastifyPluginAsyncTypebox<SettingsRoutesOptions> = async (
  app,
  { webhookService, clock, auditLog },
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
      const { clientId, oauthClientId } = request.principal;
      const endpoint = await webhookService.updateSettings(clientId, request.body);
      // Where money events now go, by origin only: a URL's path or query may carry a token.
      await auditLog.record({
        actor: `client:${clientId}`,
        action: 'webhook.settings_changed',
        target: clientId,
        outcome: 'ok',
        details: {
          app: oauthClientId,
          urlOrigin: endpoint.url === null ? null : new URL(endpoint.url).origin,
          urlChanged: request.body.url !== undefined,
          secretRotated: request.body.rotateSecret === true,
        },
        request,
      });
      return ok(
        'Webhook settings updated successfully.',
        webhookSettingsView(endpoint, clock.now()),
      );
    },
  );
};

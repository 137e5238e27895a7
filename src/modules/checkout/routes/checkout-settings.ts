import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AuditLog } from '../../../audit/index.ts';
import { AUTHENTICATED_ERROR_RESPONSES, envelopeSchema } from '../../../http/common-schemas.ts';
import { ok } from '../../../http/envelope.ts';
import { CheckoutSettingsBody, CheckoutSettingsSchema } from '../checkout-schemas.ts';
import type { CheckoutService } from '../checkout-service.ts';
import { checkoutSettingsView } from '../checkout-view.ts';

export interface CheckoutSettingsRoutesOptions {
  readonly checkoutService: Pick<CheckoutService, 'getSettings' | 'saveSettings'>;
  /** Where a client's checkout may be opened from and notify is a security setting. */
  readonly auditLog: Pick<AuditLog, 'record'>;
}

/**
 * GET and PUT /checkout/settings: the client registers the origins of its checkout pages and
 * the webhook URLs its checkout configs may name. Only its authenticated API (or an operator)
 * decides these; the public widget config cannot.
 */
export const checkoutSettingsRoutes: FastifyPluginAsyncTypebox<
  CheckoutSettingsRoutesOptions
> = async (app, { checkoutService, auditLog }) => {
  const response = {
    200: envelopeSchema(CheckoutSettingsSchema),
    ...AUTHENTICATED_ERROR_RESPONSES,
  };
  app.get(
    '/checkout/settings',
    { schema: { tags: ['Checkout'], summary: 'Your checkout origins and webhook URLs', response } },
    async (request) => {
      const settings = await checkoutService.getSettings(request.principal);
      return ok('Checkout settings fetched successfully.', checkoutSettingsView(settings));
    },
  );
  app.put(
    '/checkout/settings',
    {
      schema: {
        tags: ['Checkout'],
        summary: 'Register the origins of your checkout pages and their webhook URLs',
        body: CheckoutSettingsBody,
        response,
      },
    },
    async (request) => {
      const { clientId, oauthClientId } = request.principal;
      const settings = await checkoutService.saveSettings(request.principal, {
        allowedOrigins: request.body.allowedOrigins,
        webhookUrls: request.body.webhookUrls ?? [],
      });
      await auditLog.record({
        actor: `client:${clientId}`,
        action: 'checkout.settings_changed',
        target: clientId,
        outcome: 'ok',
        // Origins only: a webhook URL's path or query may carry a token.
        details: {
          app: oauthClientId,
          allowedOrigins: settings.allowedOrigins,
          webhookUrlOrigins: settings.webhookUrls.map((url) => new URL(url).origin),
        },
        request,
      });
      return ok('Checkout settings updated successfully.', checkoutSettingsView(settings));
    },
  );
};

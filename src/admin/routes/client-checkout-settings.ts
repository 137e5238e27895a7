import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import { type CheckoutService, checkoutSettingsView } from '../../modules/checkout/index.ts';
import type { ClientService } from '../../modules/clients/index.ts';
import { adminContract } from '../contract/index.ts';

const errors = { 400: ErrorSchema, 401: ErrorSchema };
const readSettings = adminContract['GET /admin/clients/:id/checkout-settings'];
const saveSettings = adminContract['PUT /admin/clients/:id/checkout-settings'];

export interface ClientCheckoutSettingsRoutesOptions {
  readonly clientService: Pick<ClientService, 'getClient'>;
  readonly checkoutService: Pick<CheckoutService, 'getSettings' | 'saveSettings'>;
}

/**
 * GET and PUT /admin/clients/:id/checkout-settings: an operator reads or registers, for a
 * client, the origins its checkout pages are served from and the webhook URLs its configs may
 * name (what the client itself does with PUT /checkout/settings).
 */
export const clientCheckoutSettingsRoutes: FastifyPluginAsyncTypebox<
  ClientCheckoutSettingsRoutesOptions
> = async (app, { clientService, checkoutService }) => {
  app.get(
    '/admin/clients/:id/checkout-settings',
    {
      schema: {
        tags: ['Admin'],
        summary: "A client's checkout origins and webhook URLs",
        params: readSettings.params,
        response: { 200: readSettings.answer, ...errors },
      },
    },
    async (request) => {
      const client = await clientService.getClient(request.params.id);
      const settings = await checkoutService.getSettings({ clientId: client.id });
      return ok('Checkout settings fetched successfully.', checkoutSettingsView(settings));
    },
  );
  app.put(
    '/admin/clients/:id/checkout-settings',
    {
      schema: {
        tags: ['Admin'],
        summary: "Register a client's checkout origins and webhook URLs",
        params: saveSettings.params,
        body: saveSettings.body,
        response: { 200: saveSettings.answer, ...errors },
      },
    },
    async (request) => {
      const client = await clientService.getClient(request.params.id);
      const settings = await checkoutService.saveSettings(
        { clientId: client.id },
        {
          allowedOrigins: request.body.allowedOrigins,
          webhookUrls: request.body.webhookUrls ?? [],
        },
      );
      return ok('Checkout settings updated successfully.', checkoutSettingsView(settings));
    },
  );
};

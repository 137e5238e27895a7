import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type DeliveryRoutesOptions, deliveryRoutes } from './deliveries.ts';
import { type SettingsRoutesOptions, settingsRoutes } from './settings.ts';

export type WebhookRoutesOptions = DeliveryRoutesOptions & SettingsRoutesOptions;

/** The client's own webhook API: settings, delivery history, replays. */
export const webhookRoutes: FastifyPluginAsyncTypebox<WebhookRoutesOptions> = async (
  app,
  options,
) => {
  await app.register(settingsRoutes, options);
  await app.register(deliveryRoutes, options);
};

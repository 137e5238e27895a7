import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type GetDeliveryRouteOptions, getDeliveryRoute } from './get-delivery.ts';
import { type ListDeliveriesRouteOptions, listDeliveriesRoute } from './list-deliveries.ts';
import { type ReplayDeliveryRouteOptions, replayDeliveryRoute } from './replay-delivery.ts';
import {
  type ReplayFailedDeliveriesRouteOptions,
  replayFailedDeliveriesRoute,
} from './replay-failed-deliveries.ts';
import { type SettingsRoutesOptions, settingsRoutes } from './settings.ts';

export type WebhookRoutesOptions = SettingsRoutesOptions &
  ListDeliveriesRouteOptions &
  GetDeliveryRouteOptions &
  ReplayDeliveryRouteOptions &
  ReplayFailedDeliveriesRouteOptions;

/** The client's own webhook API: settings, delivery history, replays. */
export const webhookRoutes: FastifyPluginAsyncTypebox<WebhookRoutesOptions> = async (
  app,
  options,
) => {
  await app.register(settingsRoutes, options);
  await app.register(listDeliveriesRoute, options);
  await app.register(getDeliveryRoute, options);
  await app.register(replayDeliveryRoute, options);
  await app.register(replayFailedDeliveriesRoute, options);
};

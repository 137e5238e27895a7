import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Clock } from '../../shared/clock.ts';
import type { WebhookService } from '../webhook-service.ts';
import { deliveryRoutes } from './deliveries.ts';
import { settingsRoutes } from './settings.ts';

export interface WebhookRoutesOptions {
  readonly webhookService: WebhookService;
  readonly clock: Clock;
}

/** The client's own webhook API: settings, delivery history, replays. */
export const webhookRoutes: FastifyPluginAsyncTypebox<WebhookRoutesOptions> = async (
  app,
  options,
) => {
  await app.register(settingsRoutes, options);
  await app.register(deliveryRoutes, options);
};

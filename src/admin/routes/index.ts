import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireAdminToken } from '../../http/plugins/admin-auth.ts';
import type { ClientService } from '../../modules/clients/client-service.ts';
import type { InboundCreditService } from '../../modules/transfers/inbound/inbound-credit-service.ts';
import type { NipSimulator } from '../../rails/nip/nip-simulator.ts';
import type { WebhookService } from '../../webhooks/webhook-service.ts';
import { clientRoutes } from './clients.ts';
import { sandboxCreditRoute } from './sandbox-credits.ts';
import { adminWebhookRoutes } from './webhooks.ts';

export interface AdminRoutesOptions {
  readonly adminToken: string;
  readonly clientService: ClientService;
  readonly inboundCredits: InboundCreditService;
  readonly institutionCode: string;
  /** The simulated NIP network in sandbox; undefined in production. */
  readonly sandboxNetwork: NipSimulator | undefined;
  readonly maxAmountKobo: bigint;
  readonly webhookService: WebhookService;
}

/** Operator API under /admin, authenticated by the admin token. */
export const adminRoutes: FastifyPluginAsyncTypebox<AdminRoutesOptions> = async (app, options) => {
  requireAdminToken(app, options.adminToken);
  await app.register(clientRoutes, options);
  await app.register(sandboxCreditRoute, options);
  await app.register(adminWebhookRoutes, options);
};

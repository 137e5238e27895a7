import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type AuditEventRoutesOptions, auditEventRoutes } from './audit-events.ts';
import { type AdminWebhookRoutesOptions, adminWebhookRoutes } from './webhooks.ts';

export type WebhooksAndAuditRoutesOptions = AdminWebhookRoutesOptions & AuditEventRoutesOptions;

/** A client's webhook settings and deliveries, and the audit trail. */
export const webhooksAndAuditRoutes: FastifyPluginAsyncTypebox<
  WebhooksAndAuditRoutesOptions
> = async (app, options) => {
  await app.register(adminWebhookRoutes, options);
  await app.register(auditEventRoutes, options);
};

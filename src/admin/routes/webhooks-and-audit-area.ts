import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type AuditEventRoutesOptions, auditEventRoutes } from './audit-events.ts';
import { type AuditExportRouteOptions, auditExportRoute } from './audit-export.ts';
import { type AuditVerifyRouteOptions, auditVerifyRoute } from './audit-verify.ts';
import { type AdminWebhookRoutesOptions, adminWebhookRoutes } from './webhooks.ts';

export type WebhooksAndAuditRoutesOptions = AdminWebhookRoutesOptions &
  AuditEventRoutesOptions &
  AuditVerifyRouteOptions &
  AuditExportRouteOptions;

/** A client's webhook settings and deliveries, and the audit trail: its events, its chain. */
export const webhooksAndAuditRoutes: FastifyPluginAsyncTypebox<
  WebhooksAndAuditRoutesOptions
> = async (app, options) => {
  await app.register(adminWebhookRoutes, options);
  await app.register(auditEventRoutes, options);
  await app.register(auditVerifyRoute, options);
  await app.register(auditExportRoute, options);
};

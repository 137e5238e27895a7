import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  type AlertSuppressionLiftRouteOptions,
  alertSuppressionLiftRoute,
} from './alert-suppression-lift.ts';
import {
  type AlertSuppressionsRouteOptions,
  alertSuppressionsRoute,
} from './alert-suppressions.ts';
import { type AuditEventRoutesOptions, auditEventRoutes } from './audit-events.ts';
import { type AuditExportRouteOptions, auditExportRoute } from './audit-export.ts';
import { type AuditVerifyRouteOptions, auditVerifyRoute } from './audit-verify.ts';
import { type AdminWebhookRoutesOptions, adminWebhookRoutes } from './webhooks.ts';

export type WebhooksAndAuditRoutesOptions = AdminWebhookRoutesOptions &
  AuditEventRoutesOptions &
  AuditVerifyRouteOptions &
  AuditExportRouteOptions &
  AlertSuppressionsRouteOptions &
  AlertSuppressionLiftRouteOptions;

/**
 * What the bank sends out and keeps: a client's webhook settings and deliveries, customer
 * alerts' suppressed destinations, and the audit trail: its events, its chain.
 */
export const webhooksAndAuditRoutes: FastifyPluginAsyncTypebox<
  WebhooksAndAuditRoutesOptions
> = async (app, options) => {
  await app.register(adminWebhookRoutes, options);
  await app.register(auditEventRoutes, options);
  await app.register(auditVerifyRoute, options);
  await app.register(auditExportRoute, options);
  await app.register(alertSuppressionsRoute, options);
  await app.register(alertSuppressionLiftRoute, options);
};

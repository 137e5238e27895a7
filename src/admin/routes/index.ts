import type { BlockList } from 'node:net';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AuditLog } from '../../audit/index.ts';
import { requireAdminToken } from '../../http/plugins/admin-auth.ts';
import type { Limiter, Lockout } from '../../http/plugins/rate-limits.ts';
import { recordOperatorActions } from '../operator-audit.ts';
import { type AccountByNumberRouteOptions, accountByNumberRoute } from './account-by-number.ts';
import { type AccountFreezeRoutesOptions, accountFreezeRoutes } from './account-freezes.ts';
import { type AppRoutesOptions, appRoutes } from './apps.ts';
import { auditEventRoutes } from './audit-events.ts';
import { type ClientAccessRoutesOptions, clientAccessRoutes } from './client-access.ts';
import {
  type ClientAccountStatementRouteOptions,
  clientAccountStatementRoute,
} from './client-account-statement.ts';
import { type ClientAccountsRouteOptions, clientAccountsRoute } from './client-accounts.ts';
import {
  type ClientCheckoutSessionsRouteOptions,
  clientCheckoutSessionsRoute,
} from './client-checkout-sessions.ts';
import {
  type ClientCheckoutSettingsRoutesOptions,
  clientCheckoutSettingsRoutes,
} from './client-checkout-settings.ts';
import {
  type ClientIdentityVerificationsRouteOptions,
  clientIdentityVerificationsRoute,
} from './client-identity-verifications.ts';
import {
  type ClientTransferStoryRouteOptions,
  clientTransferStoryRoute,
} from './client-transfer-story.ts';
import { type ClientTransfersRouteOptions, clientTransfersRoute } from './client-transfers.ts';
import {
  type ClientUssdReferencesRouteOptions,
  clientUssdReferencesRoute,
} from './client-ussd-references.ts';
import {
  type ClientVasPurchasesRouteOptions,
  clientVasPurchasesRoute,
} from './client-vas-purchases.ts';
import {
  type ClientVirtualAccountsRouteOptions,
  clientVirtualAccountsRoute,
} from './client-virtual-accounts.ts';
import { type ClientRoutesOptions, clientRoutes } from './clients.ts';
import {
  type DashboardLoginLinkRouteOptions,
  dashboardLoginLinkRoute,
} from './dashboard-login-links.ts';
import { type DashboardSessionRouteOptions, dashboardSessionRoute } from './dashboard-sessions.ts';
import { type LedgerOverviewRouteOptions, ledgerOverviewRoute } from './ledger-overview.ts';
import { type ListClientsRouteOptions, listClientsRoute } from './list-clients.ts';
import { type SandboxClockRouteOptions, sandboxClockRoutes } from './sandbox-clock.ts';
import { type SandboxCreditRouteOptions, sandboxCreditRoute } from './sandbox-credits.ts';
import { type SandboxFaultRoutesOptions, sandboxFaultRoutes } from './sandbox-faults.ts';
import { type SandboxFixturesRouteOptions, sandboxFixturesRoutes } from './sandbox-fixtures.ts';
import {
  type SandboxNipOutcomeRouteOptions,
  sandboxNipOutcomeRoute,
} from './sandbox-nip-outcomes.ts';
import { type SandboxResetRouteOptions, sandboxResetRoute } from './sandbox-reset.ts';
import { type SandboxUssdDialRouteOptions, sandboxUssdDialRoute } from './sandbox-ussd-dials.ts';
import {
  type SandboxVirtualAccountPaymentRouteOptions,
  sandboxVirtualAccountPaymentRoute,
} from './sandbox-virtual-account-payments.ts';
import { type SandboxWebhookRouteOptions, sandboxWebhookRoute } from './sandbox-webhooks.ts';
import { type VasCatalogueRoutesOptions, vasCatalogueRoutes } from './vas-catalogue.ts';
import { type AdminWebhookRoutesOptions, adminWebhookRoutes } from './webhooks.ts';

export type AdminRoutesOptions = {
  readonly adminToken: string;
  /** Per IP address: every operator request, and the wrong tokens that lock an address out. */
  readonly adminLimits?: { readonly everyRequest: Limiter; readonly failures: Lockout };
  /** Only these addresses reach the admin API (ADMIN_ALLOWED_IPS); undefined: any. */
  readonly adminAllowList?: BlockList | undefined;
  /** Every operator action and every refused admin call is recorded here. */
  readonly auditLog: AuditLog;
} & ClientRoutesOptions &
  DashboardLoginLinkRouteOptions &
  DashboardSessionRouteOptions &
  ListClientsRouteOptions &
  ClientAccountsRouteOptions &
  ClientAccountStatementRouteOptions &
  ClientTransfersRouteOptions &
  ClientTransferStoryRouteOptions &
  LedgerOverviewRouteOptions &
  SandboxNipOutcomeRouteOptions &
  AppRoutesOptions &
  ClientAccessRoutesOptions &
  AccountFreezeRoutesOptions &
  AccountByNumberRouteOptions &
  SandboxCreditRouteOptions &
  SandboxClockRouteOptions &
  SandboxWebhookRouteOptions &
  SandboxFaultRoutesOptions &
  SandboxVirtualAccountPaymentRouteOptions &
  SandboxUssdDialRouteOptions &
  SandboxFixturesRouteOptions &
  SandboxResetRouteOptions &
  VasCatalogueRoutesOptions &
  AdminWebhookRoutesOptions &
  ClientVirtualAccountsRouteOptions &
  ClientVasPurchasesRouteOptions &
  ClientUssdReferencesRouteOptions &
  ClientCheckoutSessionsRouteOptions &
  ClientCheckoutSettingsRoutesOptions &
  ClientIdentityVerificationsRouteOptions;

/** Operator API under /admin, authenticated by the admin token. */
export const adminRoutes: FastifyPluginAsyncTypebox<AdminRoutesOptions> = async (app, options) => {
  recordOperatorActions(app, options.auditLog);
  requireAdminToken(app, options.adminToken, options.adminLimits, options.adminAllowList);
  await app.register(clientRoutes, options);
  await app.register(dashboardLoginLinkRoute, options);
  await app.register(dashboardSessionRoute, options);
  await app.register(listClientsRoute, options);
  await app.register(clientAccountsRoute, options);
  await app.register(clientAccountStatementRoute, options);
  await app.register(clientTransfersRoute, options);
  await app.register(clientTransferStoryRoute, options);
  await app.register(ledgerOverviewRoute, options);
  await app.register(sandboxNipOutcomeRoute, options);
  await app.register(appRoutes, options);
  await app.register(clientAccessRoutes, options);
  await app.register(auditEventRoutes, options);
  await app.register(accountFreezeRoutes, options);
  await app.register(accountByNumberRoute, options);
  await app.register(sandboxCreditRoute, options);
  await app.register(sandboxVirtualAccountPaymentRoute, options);
  await app.register(sandboxUssdDialRoute, options);
  await app.register(sandboxClockRoutes, options);
  await app.register(sandboxWebhookRoute, options);
  await app.register(sandboxFaultRoutes, options);
  await app.register(sandboxFixturesRoutes, options);
  await app.register(sandboxResetRoute, options);
  await app.register(adminWebhookRoutes, options);
  await app.register(vasCatalogueRoutes, options);
  await app.register(clientVirtualAccountsRoute, options);
  await app.register(clientVasPurchasesRoute, options);
  await app.register(clientUssdReferencesRoute, options);
  await app.register(clientCheckoutSessionsRoute, options);
  await app.register(clientCheckoutSettingsRoutes, options);
  await app.register(clientIdentityVerificationsRoute, options);
};

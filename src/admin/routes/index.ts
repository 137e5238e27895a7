import type { BlockList } from 'node:net';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AuditLog } from '../../audit/index.ts';
import { requireOperator } from '../../auth/admin-guard.ts';
import type { DashboardSessions } from '../../auth/dashboard-sessions.ts';
import type { OperatorDirectory } from '../../auth/operator-directory.ts';
import type { OperatorRole } from '../../auth/operator-roles.ts';
import type { FourEyesConfig } from '../../config/operators-config.ts';
import type { Limiter, Lockout } from '../../http/plugins/rate-limits.ts';
import type { AlertInbox } from '../../modules/alerts/index.ts';
import type { UssdGatewaySimulator } from '../../modules/ussd/index.ts';
import type { NipSimulator } from '../../rails/nip/nip-simulator.ts';
import type { FaultTable } from '../../sandbox/faults/index.ts';
import type { FixturesService } from '../../sandbox/fixtures/index.ts';
import type { Clock, SandboxClock } from '../../shared/clock.ts';
import type { Kobo } from '../../shared/money.ts';
import type { WebhookInbox } from '../../webhooks/inbox.ts';
import { type Approvals, fourEyesRoutes, requireFourEyes } from '../approvals/index.ts';
import { createBeforeStateReads } from '../before-state.ts';
import { type AdminRouteContract, adminContract } from '../contract/index.ts';
import { recordOperatorActions } from '../operator-audit.ts';
import { maskIdentityForViewers } from '../viewer-masking.ts';
import {
  type AccountsAndMoneyRoutesOptions,
  accountsAndMoneyRoutes,
} from './accounts-and-money-area.ts';
import { type ApprovalsRoutesOptions, approvalsRoutes } from './approvals-area.ts';
import {
  type ClientsAndAccessRoutesOptions,
  clientsAndAccessRoutes,
} from './clients-and-access-area.ts';
import { type OperatorSignInRoutesOptions, operatorSignInRoutes } from './operator-sign-in-area.ts';
import { type OperatorsRoutesOptions, operatorsRoutes } from './operators-area.ts';
import { type SandboxControlRoutesOptions, sandboxControlRoutes } from './sandbox-controls-area.ts';
import {
  type WebhooksAndAuditRoutesOptions,
  webhooksAndAuditRoutes,
} from './webhooks-and-audit-area.ts';

/** Who may reach the admin API, and where what operators do is recorded. */
export interface AdminAccess {
  /** Who a bearer credential is (docs/operators.md), and the operators' own records. */
  readonly operators: OperatorDirectory;
  /** Per IP address: every operator request, and the wrong tokens that lock an address out. */
  readonly limits?: { readonly everyRequest: Limiter; readonly failures: Lockout };
  /** Only these addresses reach the admin API (ADMIN_ALLOWED_IPS); undefined: any. */
  readonly allowList?: BlockList | undefined;
  /** Every operator action and every refused admin call is recorded here. */
  readonly auditLog: AuditLog;
  /** The actions a second operator must approve (FOUR_EYES); none when undefined. */
  readonly fourEyes?: FourEyesConfig | undefined;
}

/** The bank's own settings the routes check requests against and answer with. */
export interface AdminBank {
  readonly institutionCode: string;
  readonly maxAmountKobo: Kobo;
  readonly publicBaseUrl: string;
  readonly clock: Clock;
}

/** The dashboard's one-click sign-in links and its sessions (none while it is off). */
export interface AdminDashboard {
  /** The dashboard's own type; named by shape here, as admin/ never imports the dashboard. */
  readonly loginLinks: { issue(): { ticket: string; expiresAt: Date } };
  readonly sessions: Pick<DashboardSessions, 'endAll'>;
}

/** The sandbox's controls; each is undefined in production, where its routes say so. */
export interface SandboxControls {
  readonly network: NipSimulator | undefined;
  readonly ussdGateway: UssdGatewaySimulator | undefined;
  readonly clock: SandboxClock | undefined;
  readonly webhookInbox: WebhookInbox | undefined;
  /** The alert messages' inbox (GET /admin/sandbox/messages). */
  readonly messageInbox: AlertInbox | undefined;
  readonly faults: FaultTable | undefined;
  readonly fixtures: FixturesService | undefined;
}

/** What every area's route files take, each option under the name its route asks for. */
type AreaOptions = ClientsAndAccessRoutesOptions &
  OperatorsRoutesOptions &
  AccountsAndMoneyRoutesOptions &
  SandboxControlRoutesOptions &
  WebhooksAndAuditRoutesOptions &
  OperatorSignInRoutesOptions &
  ApprovalsRoutesOptions;

/** The services the admin API uses, under their names in the service graph (services.ts). */
export type AdminServices = Omit<
  AreaOptions,
  | keyof AdminBank
  | 'auditLog'
  | 'operators'
  | 'dashboardLoginLinks'
  | 'dashboardSessions'
  | `sandbox${'Network' | 'UssdGateway' | 'Clock' | 'WebhookInbox' | 'MessageInbox' | 'Faults' | 'Fixtures'}`
> & {
  /** Four eyes: the routes' decisions, and the hook that holds the actions. */
  readonly approvals: Approvals;
};

export interface AdminRoutesOptions {
  readonly access: AdminAccess;
  readonly bank: AdminBank;
  readonly services: AdminServices;
  readonly dashboard: AdminDashboard | undefined;
  readonly sandbox: SandboxControls;
}

/**
 * Operator API under /admin, for authenticated operators with the route's role, registered by
 * area: clients and their access, the operators, accounts and money, the sandbox's controls,
 * webhooks and the audit trail, local sign-in, and four eyes (the actions held for a second
 * operator, docs/operators.md).
 */
export const adminRoutes: FastifyPluginAsyncTypebox<AdminRoutesOptions> = async (app, options) => {
  const { access } = options;
  const beforeReads = createBeforeStateReads(readRouteOf);
  recordOperatorActions(app, access.auditLog, beforeReads);
  requireOperator(
    app,
    { authenticate: access.operators.authenticate, roleOf, isBeforeRead: beforeReads.isBeforeRead },
    access.limits,
    access.allowList,
  );
  maskIdentityForViewers(app);
  // After the audit trail's hook and the role check: a held action is recorded as started.
  requireFourEyes(app, {
    routes: fourEyesRoutes(access.fourEyes ?? { routes: [] }),
    approvals: options.services.approvals,
    auditLog: access.auditLog,
    firstDay: async (request) =>
      request.operator?.kind === 'break-glass' && (await access.operators.bootstrapping()),
  });
  const routeOptions = areaOptions(options);
  await app.register(clientsAndAccessRoutes, routeOptions);
  await app.register(operatorsRoutes, routeOptions);
  await app.register(accountsAndMoneyRoutes, routeOptions);
  await app.register(sandboxControlRoutes, routeOptions);
  await app.register(webhooksAndAuditRoutes, routeOptions);
  await app.register(operatorSignInRoutes, routeOptions);
  await app.register(approvalsRoutes, routeOptions);
};

/** The role the admin contract's table gives a route, by method and route URL. */
function roleOf(method: string, url: string): OperatorRole | undefined {
  const key = `${method} ${url}`;
  return Object.hasOwn(adminContract, key)
    ? adminContract[key as keyof typeof adminContract].role
    : undefined;
}

/** The read route whose answer is an action's before-state (its contract entry's `before`). */
function readRouteOf(routeKey: string): string | undefined {
  if (!Object.hasOwn(adminContract, routeKey)) {
    return undefined;
  }
  const entry: AdminRouteContract = adminContract[routeKey as keyof typeof adminContract];
  return entry.before;
}

/** The groups, spread out under the names the route files ask for. */
function areaOptions(options: AdminRoutesOptions): AreaOptions {
  const { dashboard, sandbox } = options;
  return {
    ...options.services,
    ...options.bank,
    auditLog: options.access.auditLog,
    operators: options.access.operators,
    dashboardLoginLinks: dashboard?.loginLinks,
    dashboardSessions: dashboard?.sessions,
    sandboxNetwork: sandbox.network,
    sandboxUssdGateway: sandbox.ussdGateway,
    sandboxClock: sandbox.clock,
    sandboxWebhookInbox: sandbox.webhookInbox,
    sandboxMessageInbox: sandbox.messageInbox,
    sandboxFaults: sandbox.faults,
    sandboxFixtures: sandbox.fixtures,
  };
}

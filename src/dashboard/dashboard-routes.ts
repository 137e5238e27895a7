import { createHmac } from 'node:crypto';
import type { BlockList } from 'node:net';
import cookie from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AuditLog } from '../audit/index.ts';
import { allowed } from '../auth/admin-guard.ts';
import type { DashboardSessions } from '../auth/dashboard-sessions.ts';
import type { OperatorDirectory } from '../auth/operator-directory.ts';
import type { OperatorSignIn } from '../auth/operator-sign-in.ts';
import type { SingleSignOn } from '../auth/single-sign-on.ts';
import type { Lockout } from '../http/plugins/rate-limits.ts';
import { errorPage } from './error-page.ts';
import type { LoginLinks } from './login-links.ts';
import { toolsFor } from './page-tools.ts';
import { accountPageRoutes } from './routes/account.ts';
import { accountRoutes } from './routes/accounts.ts';
import { approvalDecisionRoutes } from './routes/approval-decisions.ts';
import { approvalQueueRoutes } from './routes/approvals.ts';
import { assetRoutes } from './routes/assets.ts';
import { auditRoutes } from './routes/audit.ts';
import { bulkTransferRoutes } from './routes/bulk-transfers.ts';
import { checkoutRoutes } from './routes/checkout.ts';
import { clientRoutes } from './routes/client.ts';
import { clientActionRoutes } from './routes/client-actions.ts';
import { clientListRoutes } from './routes/clients.ts';
import { identityRoutes } from './routes/identity.ts';
import { inboxRoutes } from './routes/inbox.ts';
import { ledgerRoutes } from './routes/ledger.ts';
import { loginRoutes } from './routes/login.ts';
import { operatorSetupRoutes } from './routes/operator-setup.ts';
import { operatorSignInRoutes } from './routes/operator-sign-in.ts';
import { overviewRoutes } from './routes/overview.ts';
import { sandboxRoutes } from './routes/sandbox.ts';
import { ssoRoutes } from './routes/sso.ts';
import { statementRoutes } from './routes/statement.ts';
import { transferStoryRoutes } from './routes/transfer-story.ts';
import { transferRoutes } from './routes/transfers.ts';
import { ussdRoutes } from './routes/ussd.ts';
import { vasRoutes } from './routes/vas.ts';
import { virtualAccountRoutes } from './routes/virtual-accounts.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { DASHBOARD_PATH, type SessionCookies, sessionCookies } from './session.ts';

export interface DashboardOptions {
  readonly adminToken: string;
  readonly sandbox: boolean;
  /** Cookies marked Secure (the public base URL is https). */
  readonly secureCookies: boolean;
  readonly sessionTtlSeconds: number;
  readonly loginLinks: LoginLinks;
  readonly auditLog: AuditLog;
  /** ADMIN_ALLOWED_IPS: other addresses find no dashboard (404), as they find no admin API. */
  readonly allowList?: BlockList | undefined;
  /** Where sessions live: every server process on the database sees the same ones. */
  readonly sessionStore: DashboardSessions;
  /** Wrong admin tokens at sign-in, per IP: the admin API's own lockout, one allowance for both. */
  readonly signInFailures?: Lockout | undefined;
  /** The organisation's identity provider (OIDC_ISSUER); undefined: no single sign-on. */
  readonly singleSignOn: SingleSignOn | undefined;
  /** Who signs in through the identity provider (found, linked or added). */
  readonly operators: Pick<OperatorDirectory, 'signInWithSso'>;
  readonly publicBaseUrl: string;
  /** Local operators' setup links and sign-in with a password and a TOTP code. */
  readonly operatorSignIn: OperatorSignIn;
  /** Whether the admin token (and its one-time links) still signs in: break-glass. */
  readonly breakGlassOpen: () => Promise<boolean>;
}

const OPEN_PATHS = new Set([
  `${DASHBOARD_PATH}/login`,
  `${DASHBOARD_PATH}/login/:ticket`,
  `${DASHBOARD_PATH}/sso/start`,
  `${DASHBOARD_PATH}/sso/callback`,
  `${DASHBOARD_PATH}/login/operator`,
  `${DASHBOARD_PATH}/setup/:ticket`,
  `${DASHBOARD_PATH}/assets/:name`,
]);

/**
 * The operator dashboard at /dashboard: server-rendered pages over the admin API (every read and
 * every action is an in-process admin call, so it meets the admin API's own checks and lands in
 * the audit trail), sessions kept on the server behind a signed cookie, CSRF tokens on every
 * form.
 */
export const dashboardRoutes: FastifyPluginAsync<DashboardOptions> = async (app, options) => {
  await registerCookiesAndCsrf(app, options);
  const sessions = sessionCookies({
    ttlSeconds: options.sessionTtlSeconds,
    secure: options.secureCookies,
    store: options.sessionStore,
  });
  app.decorateRequest('dashboardOperator', '');
  app.decorateRequest('dashboardCredential', '');
  app.decorateRequest('dashboardActor', '');
  app.setErrorHandler(errorPage);
  app.addHook('onRequest', admitSignedInOperators(options.allowList, sessions));
  // Every change is a POST carrying the CSRF token of this browser's secret.
  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      await new Promise<void>((resolve, reject) => {
        app.csrfProtection(request, reply, (error?: Error) =>
          error === undefined ? resolve() : reject(error),
        );
      });
    }
  });

  const tools = toolsFor({
    app,
    sandbox: options.sandbox,
    secureCookies: options.secureCookies,
  });
  await app.register(assetRoutes);
  await app.register(loginRoutes, { ...options, sessions });
  await app.register(ssoRoutes, { ...options, sessions });
  await app.register(operatorSignInRoutes, { ...options, sessions });
  await app.register(operatorSetupRoutes, options);
  for (const routes of pageRoutes(options.sandbox)) {
    await app.register(routes, { tools });
  }
};

/**
 * Signed cookies and CSRF tokens. The cookie key is derived from the admin token: a new admin
 * token ends every session.
 */
async function registerCookiesAndCsrf(
  app: FastifyInstance,
  options: Pick<DashboardOptions, 'adminToken' | 'secureCookies'>,
): Promise<void> {
  const cookieSecret = createHmac('sha256', options.adminToken)
    .update('openibs dashboard cookies v1')
    .digest('base64url');
  await app.register(cookie, { secret: cookieSecret });
  await app.register(csrf, {
    sessionPlugin: '@fastify/cookie',
    cookieKey: 'openibs_dashboard_csrf',
    cookieOpts: {
      path: DASHBOARD_PATH,
      httpOnly: true,
      sameSite: 'strict',
      secure: options.secureCookies,
      signed: true,
    },
    getToken: (request) => {
      const body = request.body as Record<string, unknown> | undefined;
      const fromBody = typeof body?._csrf === 'string' ? body._csrf : undefined;
      const header = request.headers['x-csrf-token'];
      return fromBody ?? (typeof header === 'string' ? header : undefined);
    },
  });
}

/**
 * The gate every dashboard request passes: addresses off the allow-list find nothing (404),
 * everything but sign-in and assets needs a session. A page load without one is sent to sign
 * in; anything else answers 401, which stops a page's live refresh (assets/dashboard.js) rather
 * than letting it follow a redirect and paste the sign-in page into the region.
 */
function admitSignedInOperators(allowList: BlockList | undefined, sessions: SessionCookies) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (allowList !== undefined && !allowed(allowList, request)) {
      return reply.callNotFound();
    }
    securityHeaders(reply);
    if (OPEN_PATHS.has(request.routeOptions.url ?? '')) {
      return;
    }
    const session = await sessions.read(request);
    if (session === undefined) {
      const wantsPage = request.method === 'GET' && request.headers['x-dashboard-live'] !== '1';
      return wantsPage
        ? reply.redirect(`${DASHBOARD_PATH}/login`, 303)
        : reply.status(401).type('text/plain; charset=utf-8').send('Sign in first.');
    }
    request.dashboardOperator = session.operator;
    request.dashboardCredential = session.credential;
    request.dashboardActor = session.actor;
  };
}

/** The pages behind sign-in; the sandbox page and the message inbox only where the sandbox runs. */
function pageRoutes(sandbox: boolean) {
  return [
    overviewRoutes,
    clientListRoutes,
    clientRoutes,
    clientActionRoutes,
    accountRoutes,
    accountPageRoutes,
    statementRoutes,
    transferRoutes,
    transferStoryRoutes,
    bulkTransferRoutes,
    virtualAccountRoutes,
    vasRoutes,
    ussdRoutes,
    checkoutRoutes,
    identityRoutes,
    webhookRoutes,
    ledgerRoutes,
    approvalQueueRoutes,
    approvalDecisionRoutes,
    auditRoutes,
    ...(sandbox ? [sandboxRoutes, inboxRoutes] : []),
  ];
}

function securityHeaders(reply: FastifyReply): void {
  reply
    .header(
      'content-security-policy',
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    )
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'same-origin');
}

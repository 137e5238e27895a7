import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AuditLog } from '../../audit/index.ts';
import type { Lockout } from '../../http/plugins/rate-limits.ts';
import { constantTimeEqual } from '../../shared/hashing.ts';
import type { LoginLinks } from '../login-links.ts';
import { DASHBOARD_PATH, isOperatorLabel, type SessionCookies } from '../session.ts';
import { type BreakGlassOpen, showSignIn } from '../sign-in-answers.ts';

export interface LoginRoutesOptions {
  readonly adminToken: string;
  readonly loginLinks: LoginLinks;
  readonly auditLog: AuditLog;
  readonly sessions: SessionCookies;
  readonly signInFailures?: Lockout | undefined;
  /** Whether the admin token and the one-time links still sign in (break-glass). */
  readonly breakGlassOpen: BreakGlassOpen;
  /** Offers single sign-on on the sign-in page when an identity provider is configured. */
  readonly singleSignOn?: unknown;
}

/** What `?setup=done` says: a local operator just set up their password and second factor. */
const SET_UP = 'Your sign-in is set up. Sign in with your email, password and a new code.';

/** The operator label of a one-click sign-in from the terminal. */
const LOCAL_OPERATOR = 'local';

/**
 * The sign-in page (an operator's own sign-in is operator-sign-in.ts) and sign-out. While
 * break-glass is open (docs/operators.md): sign-in with the admin token (wrong tokens count
 * against the admin API's failure limit per IP; an address that has spent it is refused before
 * anything is compared) and one-click sign-in with a one-time link. Each lands in the audit trail.
 */
export const loginRoutes: FastifyPluginAsync<LoginRoutesOptions> = async (app, options) => {
  const audit = auditSignIns(options.auditLog);

  app.get<{ Querystring: { setup?: string } }>(
    `${DASHBOARD_PATH}/login`,
    { schema: { hide: true } },
    async (request, reply) =>
      showSignIn(reply, options, 200, request.query.setup === 'done' ? { notice: SET_UP } : {}),
  );

  app.post<{ Body: SignInBody }>(
    `${DASHBOARD_PATH}/login`,
    { schema: { hide: true } },
    signInWithAdminToken(options, audit),
  );

  app.get<{ Params: { ticket: string } }>(
    `${DASHBOARD_PATH}/login/:ticket`,
    { schema: { hide: true } },
    signInWithLink(options, audit),
  );

  app.post(`${DASHBOARD_PATH}/logout`, { schema: { hide: true } }, async (request, reply) => {
    await audit(request, request.dashboardActor, 'dashboard.sign-out', 200);
    await options.sessions.close(request, reply);
    return reply.redirect(`${DASHBOARD_PATH}/login`, 303);
  });
};

interface SignInBody {
  adminToken?: unknown;
  operator?: unknown;
}

type AuditSignIn = (
  request: FastifyRequest,
  actor: string,
  action: string,
  outcome: number,
) => Promise<void>;

function auditSignIns(auditLog: AuditLog): AuditSignIn {
  return (request, actor, action, outcome) =>
    auditLog.record({ actor, action, target: null, outcome: String(outcome), request });
}

/** Break-glass closed: the admin token and its links open nothing, so they are not looked at. */
const CLOSED = 'Sign-in with the admin token is closed: sign in as yourself.';

/** The form: the operator's name (the label the audit trail records) and the admin token. */
function signInWithAdminToken(options: LoginRoutesOptions, audit: AuditSignIn) {
  return async (request: FastifyRequest<{ Body: SignInBody }>, reply: FastifyReply) => {
    await options.signInFailures?.refuseIfLocked(request);
    if (!(await options.breakGlassOpen())) {
      await audit(request, 'dashboard', 'dashboard.sign-in', 403);
      return showSignIn(reply, options, 403, { error: CLOSED });
    }
    const presented = request.body?.adminToken;
    const operator = typeof request.body?.operator === 'string' ? request.body.operator.trim() : '';
    if (!isOperatorLabel(operator)) {
      return showSignIn(reply, options, 400, {
        error: 'Your name may hold letters, digits and . _ @ - (at most 64).',
      });
    }
    if (typeof presented !== 'string' || !constantTimeEqual(presented, options.adminToken)) {
      await audit(request, 'dashboard', 'dashboard.sign-in', 401);
      await options.signInFailures?.countFailure(request);
      return showSignIn(reply, options, 401, {
        error: 'That is not the admin token.',
      });
    }
    await audit(request, `break-glass:${operator}`, 'dashboard.sign-in', 200);
    await options.sessions.open(reply, operator);
    return reply.redirect(DASHBOARD_PATH, 303);
  };
}

/**
 * The one-time link `npx openibs dashboard` prints; a spent or unknown ticket counts as a wrong
 * token, so links cannot be guessed past the failure limit.
 */
function signInWithLink(options: LoginRoutesOptions, audit: AuditSignIn) {
  return async (request: FastifyRequest<{ Params: { ticket: string } }>, reply: FastifyReply) => {
    await options.signInFailures?.refuseIfLocked(request);
    if (!(await options.breakGlassOpen())) {
      await audit(request, 'dashboard', 'dashboard.sign-in-link', 403);
      return showSignIn(reply, options, 403, { error: CLOSED });
    }
    if (!options.loginLinks.redeem(request.params.ticket)) {
      await audit(request, 'dashboard', 'dashboard.sign-in-link', 401);
      await options.signInFailures?.countFailure(request);
      return showSignIn(reply, options, 401, {
        error:
          'This sign-in link was used already or has expired. Run `npx openibs dashboard` for a new one, or sign in with the admin token.',
      });
    }
    await audit(request, `break-glass:${LOCAL_OPERATOR}`, 'dashboard.sign-in-link', 200);
    await options.sessions.open(reply, LOCAL_OPERATOR);
    return reply.redirect(DASHBOARD_PATH, 303);
  };
}

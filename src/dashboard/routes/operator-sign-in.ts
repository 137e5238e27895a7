import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AuditLog } from '../../audit/index.ts';
import type { OperatorSignIn, SignInOutcome } from '../../auth/operator-sign-in.ts';
import type { Lockout } from '../../http/plugins/rate-limits.ts';
import { DASHBOARD_PATH, type SessionCookies } from '../session.ts';
import { type BreakGlassOpen, type SignInChoices, showSignIn } from '../sign-in-answers.ts';

export interface OperatorSignInRoutesOptions {
  readonly operatorSignIn: Pick<OperatorSignIn, 'signIn'>;
  readonly auditLog: AuditLog;
  readonly sessions: SessionCookies;
  readonly signInFailures?: Lockout | undefined;
  readonly breakGlassOpen: BreakGlassOpen;
  readonly singleSignOn?: unknown;
}

interface OperatorSignInBody {
  email?: unknown;
  password?: unknown;
  code?: unknown;
}

/** One answer for every wrong email, password or code: it does not say which was wrong. */
const NO_MATCH = 'That email, password and code do not match. Check them and try again.';

/**
 * POST /dashboard/login/operator: a local operator signs in as themselves with their email,
 * password and the code of their authenticator app (docs/operators.md, "Local operators:
 * password and second factor"). Each refusal counts against the address's allowance (the admin
 * token's own) and, for an operator who exists, against the operator: past
 * OPERATOR_LOCKOUT_FAILURES they are locked out for OPERATOR_LOCKOUT_SECONDS. Every attempt is
 * audited as `operator.sign-in`, with why it was refused, never what was typed.
 */
export const operatorSignInRoutes: FastifyPluginAsync<OperatorSignInRoutesOptions> = async (
  app,
  options,
) => {
  app.post<{ Body: OperatorSignInBody }>(
    `${DASHBOARD_PATH}/login/operator`,
    { schema: { hide: true } },
    async (request, reply) => {
      await options.signInFailures?.refuseIfLocked(request);
      const outcome = await options.operatorSignIn.signIn({
        email: text(request.body?.email, 254),
        password: text(request.body?.password, 1024),
        code: text(request.body?.code, 16),
      });
      await audit(options.auditLog, request, outcome);
      if (!outcome.ok) {
        await options.signInFailures?.countFailure(request);
        return refuse(reply, options, outcome);
      }
      await options.sessions.open(reply, outcome.email, outcome.operatorId);
      return reply.redirect(DASHBOARD_PATH, 303);
    },
  );
};

function text(value: unknown, maxLength: number): string {
  return typeof value === 'string' ? value.slice(0, maxLength) : '';
}

function refuse(
  reply: FastifyReply,
  choices: SignInChoices,
  outcome: Extract<SignInOutcome, { ok: false }>,
) {
  if (outcome.lockedUntil !== null) {
    const until = outcome.lockedUntil.toISOString().slice(11, 16);
    return showSignIn(reply, choices, 429, {
      error: `Too many failed sign-ins: this sign-in is locked until ${until} UTC, or until another admin unlocks it.`,
    });
  }
  return showSignIn(reply, choices, 401, { error: NO_MATCH });
}

function audit(auditLog: AuditLog, request: FastifyRequest, outcome: SignInOutcome) {
  return outcome.ok
    ? auditLog.record({
        actor: `operator:${outcome.email}`,
        operatorId: outcome.operatorId,
        action: 'operator.sign-in',
        target: outcome.operatorId,
        outcome: '200',
        request,
      })
    : auditLog.record({
        actor: 'dashboard',
        action: 'operator.sign-in',
        target: outcome.operatorId,
        outcome: outcome.lockedUntil === null ? '401' : '429',
        details: { reason: outcome.reason },
        request,
      });
}

import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AuditLog } from '../../audit/index.ts';
import type { OperatorSignIn } from '../../auth/operator-sign-in.ts';
import type { Lockout } from '../../http/plugins/rate-limits.ts';
import { setupPage } from '../operator-setup-page.ts';
import { DASHBOARD_PATH } from '../session.ts';

export interface OperatorSetupRoutesOptions {
  readonly operatorSignIn: Pick<OperatorSignIn, 'openSetup' | 'completeSetup'>;
  readonly auditLog: AuditLog;
  readonly signInFailures?: Lockout | undefined;
}

interface SetupBody {
  password?: unknown;
  passwordAgain?: unknown;
  code?: unknown;
}

type SetupRequest = FastifyRequest<{ Params: { ticket: string }; Body: SetupBody }>;

const SPENT = 'This setup link was used already or has expired. Ask an admin for a new one.';
/** What a ticket may be: the base64url of 32 random bytes; anything else is not looked up. */
const TICKET = /^[A-Za-z0-9_-]{43}$/;

/**
 * /dashboard/setup/:ticket, the page a setup link opens (docs/operators.md): the TOTP secret to
 * add to an authenticator app, then a password chosen twice and a current code. The link is
 * spent when the setup completes, and the operator goes on to sign in. An unknown, spent or
 * expired link counts against the address's allowance, as a wrong admin token does, so links
 * cannot be guessed past it.
 */
export const operatorSetupRoutes: FastifyPluginAsync<OperatorSetupRoutesOptions> = async (
  app,
  options,
) => {
  app.get<{ Params: { ticket: string } }>(
    `${DASHBOARD_PATH}/setup/:ticket`,
    { schema: { hide: true } },
    async (request, reply) => {
      await options.signInFailures?.refuseIfLocked(request);
      const { ticket } = request.params;
      const view = TICKET.test(ticket) ? await options.operatorSignIn.openSetup(ticket) : undefined;
      if (view === undefined) {
        return spent(options, request, reply);
      }
      return show(reply, 200, { ticket, view });
    },
  );

  app.post<{ Params: { ticket: string }; Body: SetupBody }>(
    `${DASHBOARD_PATH}/setup/:ticket`,
    { schema: { hide: true } },
    async (request, reply) => complete(options, request, reply),
  );
};

async function complete(
  options: OperatorSetupRoutesOptions,
  request: SetupRequest,
  reply: FastifyReply,
) {
  await options.signInFailures?.refuseIfLocked(request);
  const { ticket } = request.params;
  if (!TICKET.test(ticket)) {
    return spent(options, request, reply);
  }
  const outcome = await options.operatorSignIn.completeSetup(ticket, {
    password: text(request.body?.password),
    passwordAgain: text(request.body?.passwordAgain),
    code: text(request.body?.code).slice(0, 16),
  });
  if (outcome.ok) {
    await options.auditLog.record({
      actor: `operator:${outcome.email}`,
      operatorId: outcome.operatorId,
      action: 'operator.sign-in-setup',
      target: outcome.operatorId,
      outcome: '200',
      request,
    });
    return reply.redirect(`${DASHBOARD_PATH}/login?setup=done`, 303);
  }
  if (outcome.spent) {
    return spent(options, request, reply);
  }
  // The link is still live: the page again, with what to change.
  const view = await options.operatorSignIn.openSetup(ticket);
  return show(reply, 400, { ticket, view, error: outcome.problem });
}

async function spent(
  options: OperatorSetupRoutesOptions,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  await options.auditLog.record({
    actor: 'dashboard',
    action: 'operator.sign-in-setup',
    target: null,
    outcome: '401',
    request,
  });
  await options.signInFailures?.countFailure(request);
  return show(reply, 401, { ticket: '', error: SPENT });
}

function show(
  reply: FastifyReply,
  status: number,
  page: { ticket: string; view?: Parameters<typeof setupPage>[0]['view']; error?: string },
) {
  // The page shows a second factor's secret: no cache keeps it.
  return reply
    .status(status)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(setupPage({ csrf: reply.generateCsrf(), ...page }).value);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.slice(0, 1024) : '';
}

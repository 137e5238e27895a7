import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuditLog } from '../../audit/index.ts';
import type { OperatorRole } from '../../auth/operator-roles.ts';
import type { FourEyesConfig } from '../../config/operators-config.ts';
import { AppError } from '../../errors/app-error.ts';
import { adminContract, PendingApprovalAnswer } from '../contract/index.ts';
import type { Approvals } from './approvals.ts';

/**
 * The header an approved request is executed with: `<approvalId>.<one-time secret>`. The
 * secret is made by the approval, kept only as a hash on the request's row, and spent the
 * first time it is matched, so nobody can send it from outside, and nothing can send it twice.
 */
export const APPROVAL_EXECUTION_HEADER = 'x-openibs-approval-execution';

/**
 * The admin actions under four eyes, each with the role it needs. Checked when the admin API
 * is built: a key FOUR_EYES names must be an action of the admin contract that answers at once
 * (a 202 of its own would read as held), and never a decision on a held request itself.
 */
export function fourEyesRoutes(config: FourEyesConfig): ReadonlyMap<string, OperatorRole> {
  const routes = new Map<string, OperatorRole>();
  for (const key of config.routes) {
    const route = Object.hasOwn(adminContract, key)
      ? adminContract[key as keyof typeof adminContract]
      : undefined;
    if (route === undefined) {
      throw new Error(`FOUR_EYES names ${key}, which is no action of the admin API`);
    }
    if (
      key.startsWith('GET ') ||
      key.includes('/admin/approvals') ||
      ('status' in route && route.status === 202)
    ) {
      throw new Error(`FOUR_EYES cannot hold ${key}: only actions that answer at once`);
    }
    routes.set(key, route.role);
  }
  return routes;
}

/**
 * Four eyes in the admin scope (docs/operators.md): a call to a held action, authenticated,
 * allowed by its role, valid and recorded as started, is not run: it is stored as its route
 * validated it and answered 202 with the approval's id. It runs when another operator approves
 * it (POST /admin/approvals/:id/approve), as that operator, with the one-time execution header.
 * The hook goes after the audit trail's own (the 202 is recorded like any answer).
 */
export function requireFourEyes(
  app: FastifyInstance,
  deps: {
    readonly routes: ReadonlyMap<string, OperatorRole>;
    readonly approvals: Approvals;
    readonly auditLog: AuditLog;
    /**
     * Whether this request is the bank's first day: break-glass before any admin can get in.
     * There is no second person yet to approve, and break-glass cannot approve, so holding the
     * creation of the first operators would hold them for ever.
     */
    readonly firstDay?: (request: FastifyRequest) => Promise<boolean>;
  },
): void {
  if (deps.routes.size === 0) {
    return;
  }
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.some((method) => deps.routes.has(`${method} ${route.url}`))) {
      const schema = route.schema ?? {};
      schema.response = { ...(schema.response as object | undefined), 202: PendingApprovalAnswer };
      route.schema = schema;
    }
  });
  app.addHook('preHandler', async (request, reply) => {
    const key = `${request.method} ${request.routeOptions.url}`;
    const role = deps.routes.get(key);
    if (role === undefined) {
      return;
    }
    const execution = request.headers[APPROVAL_EXECUTION_HEADER];
    if (execution !== undefined) {
      await letThrough(deps.approvals, request, key, execution);
      return;
    }
    if ((await deps.firstDay?.(request)) === true) {
      return;
    }
    return hold(deps, request, reply, { key, role });
  });
}

async function letThrough(
  approvals: Approvals,
  request: FastifyRequest,
  routeKey: string,
  header: string | string[],
): Promise<void> {
  const [id = '', secret = ''] = typeof header === 'string' ? header.split('.') : [];
  const opened =
    id !== '' &&
    secret !== '' &&
    (await approvals.letThrough({
      id,
      routeKey,
      secret,
      operatorId: request.operator?.operatorId ?? null,
    }));
  if (!opened) {
    throw new AppError('APPROVAL_EXECUTION_REFUSED');
  }
}

async function hold(
  deps: { readonly approvals: Approvals; readonly auditLog: AuditLog },
  request: FastifyRequest,
  reply: FastifyReply,
  route: { key: string; role: OperatorRole },
): Promise<FastifyReply> {
  const operator = request.operator;
  if (operator === null) {
    throw new AppError('UNAUTHORIZED');
  }
  const held = await deps.approvals.hold(
    {
      routeKey: route.key,
      routeRole: route.role,
      params: asRecord(request.params),
      query: asRecord(request.query),
      body: request.body ?? null,
    },
    operator,
  );
  await deps.auditLog.record({
    actor: operator.actor,
    operatorId: operator.operatorId,
    sessionId: operator.sessionId,
    action: 'approval.requested',
    target: held.id,
    outcome: 'pending',
    details: { approvalId: held.id, action: route.key },
    request,
  });
  return reply.code(202).send({
    statusCode: 202,
    message: `Sent for approval (${held.id}): another operator with the ${route.role} role must approve it before ${held.expiresAt.toISOString()}.`,
    data: {
      approvalId: held.id,
      status: 'pending',
      expiresAt: held.expiresAt.toISOString(),
      action: route.key,
    },
  });
}

function asRecord(value: unknown): Readonly<Record<string, unknown>> {
  return value !== null && typeof value === 'object' ? { ...(value as object) } : {};
}

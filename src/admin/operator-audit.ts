import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuditEntry, AuditLog } from '../audit/index.ts';
import type { OperatorIdentity } from '../auth/operator-directory.ts';
import { AppError } from '../errors/app-error.ts';
import type { BeforeStateReads } from './before-state.ts';
import { withoutSecrets } from './secret-fields.ts';

const ID_FIELDS = ['_id', 'id', 'accountNumber', 'reference', 'sessionId'] as const;

/**
 * Every operator action (any admin call that is not a read) and every refused admin call lands
 * in the audit trail before the answer is sent: who (the authenticated operator and the
 * credential or session they used, never a name the caller typed; a break-glass call with the
 * shared admin token says so), what (method and route), the target (the route's ids, or the id
 * of what was created), the outcome (the status) and from where (the source IP). Request bodies
 * are never recorded: they may hold keys and secrets.
 *
 * An action is also recorded as `started` once it is authorised and valid, before it runs: a
 * crash cannot lose its trace, and when even that row cannot be written the action is refused
 * (503) and does not happen. Both rows keep the record as it stood before the action (its
 * contract's read route, before-state.ts) and the final row the record as the action left it.
 */
export function recordOperatorActions(
  app: FastifyInstance,
  auditLog: AuditLog,
  beforeReads?: BeforeStateReads,
): void {
  app.addHook('preHandler', async (request) => {
    if (!isRead(request.method)) {
      const before = beforeReads === undefined ? undefined : await beforeReads.read(request);
      beforeStates.set(request, recordedState(before));
      await auditLog.recordOrRefuse({
        ...operatorCall(request, 'started'),
        before: beforeStates.get(request),
      });
    }
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const status = reply.statusCode;
    if ((isRead(request.method) && status < 400) || beforeReads?.isBeforeRead(request) === true) {
      return payload;
    }
    const created = status === 201 ? createdId(payload) : undefined;
    const after = status < 300 ? recordedState(payload) : undefined;
    await auditLog.record({
      ...operatorCall(request, String(status), created),
      before: beforeStates.get(request),
      after,
    });
    return payload;
  });
}

/** Each action's before-state, from its preHandler to its answer. */
const beforeStates = new WeakMap<FastifyRequest, Record<string, unknown> | undefined>();

/**
 * A call under /admin that the router refused before any admin route ran (a bad
 * percent-encoding, an over-long id): recorded like any refused admin call, with its path.
 */
export function recordUnroutedAdminCall(
  auditLog: AuditLog,
  request: FastifyRequest,
  status: number,
): Promise<void> {
  const path = request.url.split('?')[0] ?? '';
  return auditLog.record({
    ...whoCalled(request),
    action: `admin.${request.method.toLowerCase()} unrouted`,
    target: null,
    outcome: String(status),
    details: { path: path.slice(0, 200) },
    request,
  });
}

export function isAdminPath(url: string): boolean {
  return url === '/admin' || url.startsWith('/admin/') || url.startsWith('/admin?');
}

function isRead(method: string): boolean {
  return method === 'GET' || method === 'HEAD';
}

function operatorCall(request: FastifyRequest, outcome: string, created?: string): AuditEntry {
  const params = (request.params ?? {}) as Record<string, unknown>;
  return {
    ...whoCalled(request),
    action: `admin.${request.method.toLowerCase()} ${request.routeOptions.url ?? 'unknown-route'}`,
    target: targetOf(params, created),
    outcome,
    details: { params: scalarParams(params) },
    request,
  };
}

/** The authenticated operator, or `anonymous` for a call refused before it was authenticated. */
function whoCalled(
  request: FastifyRequest,
): Pick<AuditEntry, 'actor' | 'operatorId' | 'sessionId'> {
  // Undefined on a request the router refused before any admin scope decorated it.
  const operator = request.operator ?? null;
  return operator === null
    ? { actor: 'anonymous', operatorId: null, sessionId: null }
    : { actor: operator.actor, operatorId: operator.operatorId, sessionId: operator.sessionId };
}

function targetOf(params: Record<string, unknown>, created: string | undefined): string | null {
  const ids = Object.values(scalarParams(params));
  if (created !== undefined) {
    ids.push(created);
  }
  return ids.length === 0 ? null : ids.join('/');
}

function scalarParams(params: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(params)
      .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
      .map(([name, value]) => [name, value.slice(0, 64)]),
  );
}

/** The most of an answer kept as an action's before- or after-state; larger ones are noted. */
const STATE_MAX_CHARS = 16_384;

/**
 * A record as an answer shows it (the action's, or its read route's before it ran): the `data`
 * of our own success envelope, with every field that could hold a secret (an issued key, a
 * webhook secret, a sign-in or setup link, a webhook URL) replaced by `[redacted]`.
 */
function recordedState(payload: unknown): Record<string, unknown> | undefined {
  if (typeof payload !== 'string' || payload.length > STATE_MAX_CHARS * 4) {
    return typeof payload === 'string' ? { truncated: true } : undefined;
  }
  try {
    const data = (JSON.parse(payload) as { data?: unknown }).data;
    if (data === null || typeof data !== 'object') {
      return undefined;
    }
    const kept = withoutSecrets(data);
    return JSON.stringify(kept).length > STATE_MAX_CHARS
      ? { truncated: true }
      : Array.isArray(kept)
        ? { items: kept }
        : (kept as Record<string, unknown>);
  } catch {
    return undefined;
  }
}

/** The id of what a 201 made, read from our own envelope (`data._id` and the like). */
function createdId(payload: unknown): string | undefined {
  if (typeof payload !== 'string') {
    return undefined;
  }
  try {
    const data = (JSON.parse(payload) as { data?: Record<string, unknown> }).data ?? {};
    const field = ID_FIELDS.find((name) => typeof data[name] === 'string');
    return field === undefined ? undefined : String(data[field]).slice(0, 64);
  } catch {
    return undefined;
  }
}

/** The authenticated operator as records name them (a lien's releaser, ...): the audit actor. */
export function operatorName(request: FastifyRequest): string {
  return request.operator?.actor ?? 'anonymous';
}

/** The authenticated caller of an admin route (the admin scope's guard has set it). */
export function callerOf(request: FastifyRequest): OperatorIdentity {
  if (request.operator === null || request.operator === undefined) {
    throw new AppError('UNAUTHORIZED');
  }
  return request.operator;
}

/** The caller's own operator id: a break-glass caller is nobody in particular and has none. */
export function personalOperatorId(request: FastifyRequest): string {
  const { operatorId } = callerOf(request);
  if (operatorId === null) {
    throw new AppError(
      'FORBIDDEN',
      'The break-glass admin token belongs to no operator: sign in as yourself for this.',
    );
  }
  return operatorId;
}

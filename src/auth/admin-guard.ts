import { type BlockList, isIP } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.ts';
import type { Limiter, Lockout } from '../http/plugins/rate-limits.ts';
import type { OperatorIdentity } from './operator-directory.ts';
import { type OperatorRole, rolesAllow } from './operator-roles.ts';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

declare module 'fastify' {
  interface FastifyRequest {
    /** The operator an admin request was authenticated as (null before, and elsewhere). */
    operator: OperatorIdentity | null;
  }
}

export interface OperatorAuthentication {
  /** The identity behind a bearer credential; `label`: a break-glass caller's own name. */
  authenticate(bearer: string, label?: string): Promise<OperatorIdentity | undefined>;
  /** The role a route needs (the admin contract's table); undefined: none declared. */
  roleOf(method: string, url: string): OperatorRole | undefined;
  /**
   * Whether a request is the audit trail's own read of an action's before-state, made in
   * process for an operator already let through: counted once (as the action) and read
   * whatever the operator's roles (src/admin/before-state.ts).
   */
  isBeforeRead?(request: FastifyRequest): boolean;
}

/**
 * Operator routes: `Authorization: Bearer <credential>`, a personal API key, the dashboard's
 * session, or the shared admin token while break-glass is open (docs/operators.md). Every
 * request counts against a per-IP limit, and a credential that opens nothing against a much
 * smaller one that locks the address out: once it is spent, the address's requests are refused
 * before any credential is looked at, so guessing goes no faster than the failure limit. Then
 * the route's role: one the operator does not hold is a 403, and so is a route that declares
 * none (a new route cannot slip through without one). With an allow-list, any other address
 * finds no admin API at all (404, as for a route that does not exist).
 */
export function requireOperator(
  app: FastifyInstance,
  auth: OperatorAuthentication,
  limits: { readonly everyRequest: Limiter; readonly failures: Lockout } = NO_LIMITS,
  allowList?: BlockList,
): void {
  app.decorateRequest('operator', null);
  app.addHook('onRequest', async (request) => {
    if (allowList !== undefined && !allowed(allowList, request)) {
      throw new AppError(
        'ROUTE_NOT_FOUND',
        `No route for ${request.method} ${request.routeOptions.url}.`,
      );
    }
    const beforeRead = auth.isBeforeRead?.(request) === true;
    await limits.failures.refuseIfLocked(request);
    if (!beforeRead) {
      await limits.everyRequest(request);
    }
    const presented = BEARER.exec(request.headers.authorization ?? '')?.[1];
    const identity =
      presented === undefined ? undefined : await auth.authenticate(presented, labelOf(request));
    if (identity === undefined) {
      await limits.failures.countFailure(request);
      throw new AppError('UNAUTHORIZED', 'A valid operator credential is required.');
    }
    request.operator = identity;
    const url = request.routeOptions.url;
    if (url === undefined || beforeRead) {
      return;
    }
    const needed = auth.roleOf(request.method, url);
    if (needed === undefined || !rolesAllow(identity.roles, needed)) {
      throw new AppError(
        'ROLE_REQUIRED',
        needed === undefined
          ? 'This admin route declares no role: no operator may use it.'
          : `This action needs the ${needed} role.`,
      );
    }
  });
}

const OPERATOR_LABEL = /^[A-Za-z0-9._@-]{1,64}$/;

/** A break-glass caller's `X-Operator` name (recorded as claimed, never trusted as identity). */
function labelOf(request: FastifyRequest): string | undefined {
  const label = request.headers['x-operator'];
  return typeof label === 'string' && OPERATOR_LABEL.test(label) ? label : undefined;
}

/** Whether the request's source address is on an allow-list (the admin API, the dashboard). */
export function allowed(allowList: BlockList, request: FastifyRequest): boolean {
  // An IPv4 peer on a dual-stack socket shows as ::ffff:a.b.c.d.
  const address = request.ip.startsWith('::ffff:') ? request.ip.slice(7) : request.ip;
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  return isIP(address) !== 0 && allowList.check(address, family);
}

const NO_LIMITS = {
  everyRequest: async () => {},
  failures: { refuseIfLocked: async () => {}, countFailure: async () => {} },
};

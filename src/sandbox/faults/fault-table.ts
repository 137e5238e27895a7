import { AppError } from '../../errors/app-error.ts';
import type { Clock } from '../../shared/clock.ts';
import { newObjectId } from '../../shared/ids.ts';

/** The failures a test can ask for (docs/sandbox-testing-controls.md, "Faults"). */
export const FAULT_KINDS = [
  '503',
  '500',
  '429',
  'timeout',
  'commit-then-drop',
  'commit-then-504',
] as const;

export type FaultKind = (typeof FAULT_KINDS)[number];

export interface Fault {
  readonly id: string;
  /** The ibs_client_id whose calls fail. */
  readonly clientId: string;
  /** Method and route pattern as /openapi.json names it: `POST /transfers`, `GET /accounts/{id}`. */
  readonly route: string;
  readonly fault: FaultKind;
  /** How many matching calls fail. */
  readonly times: number;
  /** How many of them are still to come. */
  readonly remaining: number;
  /** What a `429` tells the caller to wait. */
  readonly retryAfterSeconds: number;
  readonly createdAt: Date;
}

export interface NewFault {
  readonly clientId: string;
  readonly route: string;
  readonly fault: FaultKind;
  readonly times: number;
  readonly retryAfterSeconds?: number | undefined;
}

/** `GET /accounts/:id` and `get /accounts/{accountId}` alike: method, then the path's shape. */
function routeKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.replace(/:[A-Za-z0-9_]+|\{[^/}]*\}/g, '{}')}`;
}

const UNKNOWN_ROUTE =
  'is not a route that takes an access token: give its method and path as /openapi.json lists them, e.g. "POST /transfers"';

type StoredFault = Fault & { readonly key: string };

/**
 * The faults waiting for a client's calls, in this process's memory: matched on method and route
 * pattern, first added first used, each counted down and gone once spent. Only routes the table
 * was told about (those that take an access token) can fail.
 */
export function createFaultTable(deps: { readonly clock: Clock }) {
  const faults = new Map<string, StoredFault>();
  // Route key -> the route as /openapi.json writes it.
  const routes = new Map<string, string>();
  const matching = (clientId?: string) =>
    [...faults.values()].filter((fault) => clientId === undefined || fault.clientId === clientId);

  return {
    add(request: NewFault): Fault {
      const fault = newFault(request, routes, deps.clock);
      faults.set(fault.id, fault);
      return publicFault(fault);
    },
    /** Tells the table a route exists (the authenticated routes, as they are registered). */
    knowRoute(method: string, url: string): void {
      const openApiPath = url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      routes.set(routeKey(method, url), `${method.toUpperCase()} ${openApiPath}`);
    },
    list: (clientId?: string): Fault[] => matching(clientId).map(publicFault),
    /** Whether there was such a fault. */
    remove: (id: string): boolean => faults.delete(id),
    /** Clears a client's faults, or all of them (the sandbox's reset); answers how many. */
    clear(clientId?: string): number {
      const doomed = matching(clientId);
      for (const fault of doomed) {
        faults.delete(fault.id);
      }
      return doomed.length;
    },
    /** The fault this call meets, counted down (and gone when spent); undefined for none. */
    take(clientId: string, method: string, url: string): Fault | undefined {
      const key = routeKey(method, url);
      const fault = matching(clientId).find((candidate) => candidate.key === key);
      if (fault === undefined) {
        return undefined;
      }
      const spent = { ...fault, remaining: fault.remaining - 1 };
      if (spent.remaining === 0) {
        faults.delete(fault.id);
      } else {
        faults.set(fault.id, spent);
      }
      return publicFault(spent);
    },
  };
}

/** A fault for a known route, or a 400 naming the route. */
function newFault(
  request: NewFault,
  routes: ReadonlyMap<string, string>,
  clock: Clock,
): StoredFault {
  const [method = '', path = '', ...rest] = request.route.trim().split(/\s+/);
  const key = routeKey(method, path);
  const route = routes.get(key);
  if (route === undefined || rest.length > 0) {
    throw new AppError('VALIDATION_ERROR', `route ${UNKNOWN_ROUTE}`, {
      details: [{ field: 'route', message: UNKNOWN_ROUTE }],
    });
  }
  return {
    id: newObjectId(clock),
    clientId: request.clientId,
    route,
    fault: request.fault,
    times: request.times,
    remaining: request.times,
    retryAfterSeconds: request.retryAfterSeconds ?? 1,
    createdAt: clock.now(),
    key,
  };
}

export type FaultTable = ReturnType<typeof createFaultTable>;

function publicFault({ key: _key, ...fault }: StoredFault): Fault {
  return fault;
}

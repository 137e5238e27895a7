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

/**
 * The faults waiting for a client's calls, in this process's memory: matched on method and route
 * pattern, first added first used, each counted down and gone once spent. Only routes the table
 * was told about (those that take an access token) can fail.
 */
export function createFaultTable(deps: { readonly clock: Clock }) {
  const faults = new Map<string, Fault & { key: string }>();
  // Route key -> the route as /openapi.json writes it.
  const routes = new Map<string, string>();

  function add(request: NewFault): Fault {
    const [method = '', path = '', ...rest] = request.route.trim().split(/\s+/);
    const route = routes.get(routeKey(method, path));
    if (route === undefined || rest.length > 0) {
      const message =
        'is not a route that takes an access token: give its method and path as /openapi.json lists them, e.g. "POST /transfers"';
      throw new AppError('VALIDATION_ERROR', `route ${message}`, {
        details: [{ field: 'route', message }],
      });
    }
    const fault = {
      id: newObjectId(deps.clock),
      clientId: request.clientId,
      route,
      fault: request.fault,
      times: request.times,
      remaining: request.times,
      retryAfterSeconds: request.retryAfterSeconds ?? 1,
      createdAt: deps.clock.now(),
      key: routeKey(method, path),
    };
    faults.set(fault.id, fault);
    return publicFault(fault);
  }

  return {
    add,
    /** Tells the table a route exists (the authenticated routes, as they are registered). */
    knowRoute(method: string, url: string): void {
      routes.set(
        routeKey(method, url),
        `${method.toUpperCase()} ${url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`,
      );
    },
    list(clientId?: string): Fault[] {
      return [...faults.values()]
        .filter((fault) => clientId === undefined || fault.clientId === clientId)
        .map(publicFault);
    },
    /** Whether there was such a fault. */
    remove(id: string): boolean {
      return faults.delete(id);
    },
    /** Clears a client's faults, or all of them (the sandbox's reset); answers how many. */
    clear(clientId?: string): number {
      const doomed = [...faults.values()].filter(
        (fault) => clientId === undefined || fault.clientId === clientId,
      );
      for (const fault of doomed) {
        faults.delete(fault.id);
      }
      return doomed.length;
    },
    /** The fault this call meets, counted down (and gone when spent); undefined for none. */
    take(clientId: string, method: string, url: string): Fault | undefined {
      const key = routeKey(method, url);
      for (const fault of faults.values()) {
        if (fault.clientId === clientId && fault.key === key) {
          const spent = { ...fault, remaining: fault.remaining - 1 };
          if (spent.remaining === 0) {
            faults.delete(fault.id);
          } else {
            faults.set(fault.id, spent);
          }
          return publicFault(spent);
        }
      }
      return undefined;
    },
  };
}

export type FaultTable = ReturnType<typeof createFaultTable>;

function publicFault({ key: _key, ...fault }: Fault & { key: string }): Fault {
  return fault;
}

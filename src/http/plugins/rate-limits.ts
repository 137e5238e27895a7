import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Redis } from 'ioredis';
import { AppError } from '../../errors/app-error.ts';
import { createLockStore, type LockStore } from './lock-store.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The limits a route counts against, declared on the route itself, on top of its scope's
     * (the API's per client, the admin API's per address). Counted in this order in the route's
     * preHandler, before its own; over one, 429 RATE_LIMITED with Retry-After.
     */
    readonly limits?: readonly LimitSpec[];
  }
}

/** Whose requests count together: the caller's address. */
export const byIp = (request: FastifyRequest): string => request.ip;

/** Whose requests count together: the authenticated client's (routes behind the access token). */
export const byClient = (request: FastifyRequest): string => request.principal.clientId;

/** One limit: at most `max` requests per `perSeconds` for each key; 0 turns it off. */
export interface LimitSpec {
  /** Names the limit's counters, so two limits never share one. */
  readonly name: string;
  readonly max: number;
  readonly perSeconds?: number;
  /** Whose requests count together: an IP address, a client, ... */
  readonly key: (request: FastifyRequest) => string;
}

/** Counts a request against a limit; throws 429 RATE_LIMITED (with Retry-After) when over it. */
export type Limiter = (request: FastifyRequest) => Promise<void>;

/**
 * A limit on failures (wrong tokens, say) that locks out: the failure that spends a key's
 * allowance locks the key until the window ends, and while locked every request of that key is
 * refused before it is looked at, a right answer included.
 */
export interface Lockout {
  /** Refuses a locked key: 429 RATE_LIMITED with Retry-After. Counts nothing. */
  refuseIfLocked(request: FastifyRequest): Promise<void>;
  /** Counts one failure; the one that spends the allowance locks the key. */
  countFailure(request: FastifyRequest): Promise<void>;
}

export interface LimitFactory {
  (spec: LimitSpec): Limiter;
  lockout(spec: LimitSpec): Lockout;
  /**
   * Sandbox reset: every count and lock of this process starts again from nothing. The
   * counters' keys carry a generation that this moves on, so the old counts are never read
   * again (they age out of the store, or expire in Redis, by themselves).
   */
  reset(): void;
  /** What else a reset clears: state kept beside the counters (an enumeration guard's blocks). */
  onReset(clear: () => void): void;
}

const NO_LOCKOUT: Lockout = { refuseIfLocked: async () => {}, countFailure: async () => {} };

/** A key went over a limit: told once per key per window in each process (the audit trail). */
export type LimitReached = (reached: {
  readonly limit: string;
  readonly key: string;
  readonly request: FastifyRequest;
}) => Promise<void>;

/**
 * Rate limits with @fastify/rate-limit: counted in this process by default, or in Redis when a
 * client is given, so every server process shares them (lockouts too). A route declares its own
 * limits in its config (`limits`); a scope's limit (every API request of a client) is applied in
 * the scope's hook; several may count one request. Over a limit the answer is our error
 * envelope, 429 with Retry-After.
 */
export async function installRateLimits(
  app: FastifyInstance,
  options: {
    readonly redis?: Redis | undefined;
    readonly redisPrefix?: string;
    readonly onLimitReached?: LimitReached;
  },
): Promise<LimitFactory> {
  await app.register(rateLimit, {
    global: false,
    ...(options.redis === undefined
      ? {}
      : {
          redis: options.redis,
          nameSpace: options.redisPrefix ?? 'openibs-rate-limit-',
          // A Redis outage must not take the API down with it: requests pass uncounted.
          skipOnError: true,
        }),
  });
  const told = reporter(options.onLimitReached);
  const locks = createLockStore({
    redis: options.redis,
    redisPrefix: options.redisPrefix ?? 'openibs-rate-limit-',
  });
  let generation = 0;
  // Generation 0 keeps the keys every earlier version used.
  const keyOf = (spec: LimitSpec, request: FastifyRequest) =>
    `${generation === 0 ? '' : `g${generation}:`}${spec.name}:${spec.key(request)}`;
  const counter = (spec: LimitSpec) =>
    app.createRateLimit({
      max: spec.max,
      timeWindow: (spec.perSeconds ?? 60) * 1000,
      keyGenerator: (request) => keyOf(spec, request),
    });
  const tellOnce = told.tellOnce;

  const limit = (spec: LimitSpec): Limiter => {
    if (spec.max <= 0) {
      return async () => {};
    }
    const count = counter(spec);
    return async (request) => {
      const counted = await count(request);
      if (!counted.isAllowed && counted.isExceeded) {
        await tellOnce(spec, request, counted.ttl);
        throw tooMany('requests', counted.ttl);
      }
    };
  };

  const lockout = (spec: LimitSpec): Lockout =>
    spec.max <= 0
      ? NO_LOCKOUT
      : lockoutOf(spec, counter(spec), locks, tellOnce, (request) => keyOf(spec, request));
  const alsoCleared: (() => void)[] = [];
  const reset = () => {
    generation += 1;
    told.forget();
    for (const clear of alsoCleared) {
      clear();
    }
  };
  const onReset = (clear: () => void) => {
    alsoCleared.push(clear);
  };
  countDeclaredLimits(app, limit);
  return Object.assign(limit, { lockout, reset, onReset });
}

/** Routes registered after this count against the limits they declare (`config.limits`). */
function countDeclaredLimits(app: FastifyInstance, limit: (spec: LimitSpec) => Limiter): void {
  app.addHook('onRoute', (route) => {
    const declared = route.config?.limits ?? [];
    if (declared.length > 0) {
      const own = route.preHandler === undefined ? [] : [route.preHandler].flat();
      route.preHandler = [...declared.map((spec) => asPreHandler(limit(spec))), ...own];
    }
  });
}

type Counter = ReturnType<FastifyInstance['createRateLimit']>;

function lockoutOf(
  spec: LimitSpec,
  count: Counter,
  locks: LockStore,
  tellOnce: ReturnType<typeof reporter>['tellOnce'],
  lockId: (request: FastifyRequest) => string,
): Lockout {
  return {
    async refuseIfLocked(request) {
      const remainingMs = await locks.remainingMs(lockId(request));
      if (remainingMs > 0) {
        throw tooMany('failed attempts from this address', remainingMs);
      }
    },
    async countFailure(request) {
      const counted = await count(request);
      // Uncounted (Redis away) or allowance left: no lock.
      if (counted.isAllowed || counted.remaining > 0 || counted.ttl <= 0) {
        return;
      }
      await locks.lock(lockId(request), counted.ttl);
      await tellOnce(spec, request, counted.ttl);
      if (counted.isExceeded) {
        throw tooMany('failed attempts from this address', counted.ttl);
      }
    },
  };
}

function tooMany(what: string, ttlMs: number): AppError {
  const seconds = String(Math.max(1, Math.ceil(ttlMs / 1000)));
  return new AppError('RATE_LIMITED', `Too many ${what}. Retry in ${seconds} seconds.`, {
    headers: { 'retry-after': seconds },
  });
}

/** One report per key and window, not one per refused request: a flood writes one row. */
function reporter(onLimitReached: LimitReached | undefined) {
  const alreadyTold = new Map<string, number>();
  const tellOnce = async (spec: LimitSpec, request: FastifyRequest, ttlMs: number) => {
    if (onLimitReached === undefined) {
      return;
    }
    const key = spec.key(request);
    const id = `${spec.name}:${key}`;
    const now = Date.now();
    if ((alreadyTold.get(id) ?? 0) > now) {
      return;
    }
    if (alreadyTold.size >= 10_000) {
      alreadyTold.clear();
    }
    alreadyTold.set(id, now + Math.max(1000, ttlMs));
    await onLimitReached({ limit: spec.name, key, request });
  };
  return { tellOnce, forget: () => alreadyTold.clear() };
}

/** A limiter as a route's preHandler. */
export function asPreHandler(limiter: Limiter): preHandlerAsyncHookHandler {
  return async (request) => limiter(request);
}

import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Redis } from 'ioredis';
import { AppError } from '../../errors/app-error.ts';

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

export type LimitFactory = (spec: LimitSpec) => Limiter;

/**
 * Rate limits with @fastify/rate-limit: counted in this process by default, or in Redis when a
 * client is given, so every server process shares them. Each limit is applied where it is
 * needed (a route's preHandler, or inside a hook) and several may count one request; over a
 * limit the answer is our error envelope, 429 with Retry-After.
 */
/** A key went over a limit: told once per key per window in each process (the audit trail). */
export type LimitReached = (reached: {
  readonly limit: string;
  readonly key: string;
  readonly request: FastifyRequest;
}) => Promise<void>;

export async function installRateLimits(
  app: FastifyInstance,
  options: {
    readonly redis?: Redis | undefined;
    readonly redisPrefix?: string;
    readonly onLimitReached?: LimitReached;
  },
): Promise<LimitFactory> {
  const alreadyTold = new Map<string, number>();
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
  // One report per key and window, not one per refused request: a flood writes one row.
  async function tellOnce(spec: LimitSpec, request: FastifyRequest, ttlMs: number) {
    if (options.onLimitReached === undefined) {
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
    await options.onLimitReached({ limit: spec.name, key, request });
  }

  return (spec) => {
    if (spec.max <= 0) {
      return async () => {};
    }
    const count = app.createRateLimit({
      max: spec.max,
      timeWindow: (spec.perSeconds ?? 60) * 1000,
      keyGenerator: (request) => `${spec.name}:${spec.key(request)}`,
    });
    return async (request) => {
      const counted = await count(request);
      if (!counted.isAllowed && counted.isExceeded) {
        const seconds = String(Math.max(1, counted.ttlInSeconds));
        await tellOnce(spec, request, counted.ttl);
        throw new AppError('RATE_LIMITED', `Too many requests. Retry in ${seconds} seconds.`, {
          headers: { 'retry-after': seconds },
        });
      }
    };
  };
}

/** A limiter as a route's preHandler. */
export function asPreHandler(limiter: Limiter): preHandlerAsyncHookHandler {
  return async (request) => limiter(request);
}

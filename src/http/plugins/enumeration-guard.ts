import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors/app-error.ts';
import type { LimitFactory, LimitSpec } from './rate-limits.ts';

/** One caller's allowance, as the service that meets the misses uses it. */
export interface CallerMisses {
  /** Before the work: refuses (429) a caller that is over its misses. */
  refuseIfOver(): Promise<void>;
  /** Where a miss happens: counts it, and blocks the caller once it is over. */
  count(): Promise<void>;
}

export type EnumerationGuard = ReturnType<typeof createEnumerationGuard>;

/**
 * Throttles a caller that keeps asking about things that do not exist (account numbers in name
 * enquiry): each miss counts against `misses`; once over it, the caller's next asks are refused
 * with 429 until the count's window ends, found or not, so walking the number space stops
 * while honest callers, who mostly ask about real accounts, never meet it. The service that
 * looks things up reports the misses where they happen, through `of(request)`. A sandbox reset
 * of the limits clears the blocks too.
 */
export function createEnumerationGuard(options: {
  readonly limit: LimitFactory;
  readonly misses: LimitSpec;
  readonly now?: () => number;
}) {
  const now = options.now ?? Date.now;
  const misses = options.limit(options.misses);
  const keyOf = options.misses.key;
  // Where each process remembers who is over; the count itself may live in Redis.
  const blockedUntil = new Map<string, number>();
  options.limit.onReset(() => blockedUntil.clear());

  async function refuseIfOver(request: FastifyRequest): Promise<void> {
    const key = keyOf(request);
    const until = blockedUntil.get(key);
    if (until === undefined) {
      return;
    }
    if (until <= now()) {
      blockedUntil.delete(key);
      return;
    }
    const seconds = String(Math.max(1, Math.ceil((until - now()) / 1000)));
    throw new AppError(
      'RATE_LIMITED',
      `Too many enquiries for accounts that do not exist. Retry in ${seconds} seconds.`,
      { headers: { 'retry-after': seconds } },
    );
  }

  async function count(request: FastifyRequest): Promise<void> {
    try {
      await misses(request);
    } catch (error) {
      if (error instanceof AppError && error.code === 'RATE_LIMITED') {
        const seconds = Number(error.headers?.['retry-after'] ?? '60');
        blockedUntil.set(keyOf(request), now() + seconds * 1000);
        return;
      }
      throw error;
    }
  }

  return {
    /** The allowance of the request's caller. */
    of(request: FastifyRequest): CallerMisses {
      return { refuseIfOver: () => refuseIfOver(request), count: () => count(request) };
    },
  };
}

import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors/app-error.ts';
import type { Limiter } from './rate-limits.ts';

/**
 * Throttles a caller that keeps asking about things that do not exist (account numbers in name
 * enquiry): each miss counts against `misses`; once over it, the caller's next asks are refused
 * with 429 until the count's window ends, found or not, so walking the number space stops
 * while honest callers, who mostly ask about real accounts, never meet it.
 */
export function createEnumerationGuard(options: {
  readonly misses: Limiter;
  readonly key: (request: FastifyRequest) => string;
  /** Whether an answer is a miss (say, 400 NAME_ENQUIRY_FAILED). */
  readonly isMiss: (reply: FastifyReply, payload: unknown) => boolean;
  readonly now?: () => number;
}) {
  const now = options.now ?? Date.now;
  // Where each process remembers who is over; the count itself may live in Redis.
  const blockedUntil = new Map<string, number>();

  return {
    /** Before the work: refuses a caller that is over its misses. */
    async check(request: FastifyRequest): Promise<void> {
      const key = options.key(request);
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
    },
    /** After the answer: counts a miss, and blocks the caller once it is over. */
    async record(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<void> {
      if (!options.isMiss(reply, payload)) {
        return;
      }
      try {
        await options.misses(request);
      } catch (error) {
        if (error instanceof AppError && error.code === 'RATE_LIMITED') {
          const seconds = Number(error.headers?.['retry-after'] ?? '60');
          blockedUntil.set(options.key(request), now() + seconds * 1000);
          return;
        }
        throw error;
      }
    },
    /** Sandbox reset: nobody is over their misses any more. */
    reset(): void {
      blockedUntil.clear();
    },
  };
}

import type { Redis } from 'ioredis';

/** Keys locked out until a time: in this process, and in Redis when processes share limits. */
export interface LockStore {
  lock(id: string, forMs: number): Promise<void>;
  /** Milliseconds left on the key's lock; 0 when it is not locked. */
  remainingMs(id: string): Promise<number>;
}

/** Locks a process remembers at most; past it the oldest go first (they end first too). */
const MAX_LOCAL_LOCKS = 10_000;

/**
 * Each process keeps its own locks (so a lock holds in the process that set it even while Redis
 * is away) and, with Redis, writes each to a key that expires with it, which every process
 * reads: a lock set by one process refuses the key on all of them. A Redis failure is passed
 * over, as the counters' own are: the API keeps answering.
 */
export function createLockStore(options: {
  readonly redis?: Redis | undefined;
  readonly redisPrefix: string;
}): LockStore {
  const local = new Map<string, number>();
  const redisKey = (id: string) => `${options.redisPrefix}lock:${id}`;

  function remember(id: string, until: number) {
    if (local.size >= MAX_LOCAL_LOCKS) {
      const now = Date.now();
      for (const [key, ends] of local) {
        if (ends <= now) {
          local.delete(key);
        }
      }
    }
    const oldest = local.keys().next();
    if (local.size >= MAX_LOCAL_LOCKS && oldest.done !== true) {
      local.delete(oldest.value);
    }
    local.delete(id);
    local.set(id, until);
  }

  return {
    async lock(id, forMs) {
      remember(id, Date.now() + forMs);
      try {
        await options.redis?.set(redisKey(id), '1', 'PX', forMs);
      } catch {
        // Passed over: this process still holds the lock.
      }
    },
    async remainingMs(id) {
      const until = local.get(id);
      if (until !== undefined) {
        const left = until - Date.now();
        if (left > 0) {
          return left;
        }
        local.delete(id);
      }
      if (options.redis === undefined) {
        return 0;
      }
      try {
        return Math.max(0, await options.redis.pttl(redisKey(id)));
      } catch {
        return 0;
      }
    },
  };
}

import { type Db, RETRYABLE_SQLSTATES, sqlState } from './db.ts';

/** How the money path batches on this database (see groupCommitLimits). */
export interface GroupCommitLimits {
  readonly maxBatch: number;
  readonly maxInFlight: number;
  /** How many items may wait for a batch; absent, any number may. */
  readonly queue?: QueueBound;
}

/**
 * A bound on the items waiting for a batch. Past it, the next item is refused at once with
 * `refuse()`, before anything of it is done: under a load the database cannot keep up with, the
 * queue (and each caller's wait) stops growing, and callers are told to come back instead.
 */
export interface QueueBound {
  readonly maxWaiting: number;
  readonly refuse: () => Error;
}

/**
 * The batch limits of the money path's group commits. A batch is one call whose items are each
 * a subtransaction, and PostgreSQL tracks up to 64 subtransactions per transaction cheaply (past
 * that, every snapshot in the database slows down): 48 leaves room. Two batches of a kind in
 * flight per process keep the pool busy while one commits; embedded PGlite is one session, so
 * one at a time. With a `queue`, at most its maxWaiting items wait behind them (the server's:
 * GROUP_COMMIT_MAX_WAITING).
 */
export function groupCommitLimits(kind: Db['kind'], queue?: QueueBound): GroupCommitLimits {
  const limits = { maxBatch: 48, maxInFlight: kind === 'pglite' ? 1 : 2 };
  return queue === undefined ? limits : { ...limits, queue };
}

/**
 * The same limits without the bound on waiting items: for work that finishes what a bounded
 * call began (a NIP transfer's settlement once its hold committed and the rail answered).
 * Refusing it would leave that work half done; it cannot outgrow the bounded calls before it.
 */
export function withoutQueueBound(limits: GroupCommitLimits): GroupCommitLimits {
  return { maxBatch: limits.maxBatch, maxInFlight: limits.maxInFlight };
}

export interface GroupCommitOptions<Item, Result> {
  /** Commits a batch as one transaction and answers one result per item, in order. */
  readonly run: (items: readonly Item[]) => Promise<readonly Result[]>;
  /** The most items one batch carries. */
  readonly maxBatch: number;
  /** The most batches in flight at once; further items wait and join the next batch. */
  readonly maxInFlight: number;
  /** How many items may wait for a batch (see QueueBound); absent, any number may. */
  readonly queue?: QueueBound | undefined;
  /** How often a batch that deadlocked or failed to serialize is run again. */
  readonly maxAttempts?: number;
}

interface Waiting<Item, Result> {
  readonly item: Item;
  readonly resolve: (result: Result) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Group commit: items that arrive while batches are in flight are collected and committed
 * together, one transaction (and one fsync) for many. An idle system adds no latency: with a
 * batch slot free, an item goes at the end of the current event-loop turn, alone. Each caller is
 * answered only after its batch committed (or failed); a batch that deadlocks is retried whole,
 * since it committed nothing. With a queue bound, an item that finds the queue full is refused
 * before it joins it.
 * Reads that many requests make at once batch the same way (one query for all of them).
 */
export function createGroupCommit<Item, Result>(options: GroupCommitOptions<Item, Result>) {
  const queue: Waiting<Item, Result>[] = [];
  const maxAttempts = options.maxAttempts ?? 5;
  let inFlight = 0;

  let startScheduled = false;

  function submit(item: Item): Promise<Result> {
    const bound = options.queue;
    if (bound !== undefined && queue.length >= bound.maxWaiting) {
      return Promise.reject(bound.refuse());
    }
    return new Promise<Result>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      // A batch starts at the end of this turn of the event loop, not at once: the requests
      // whose bytes arrived together (parsed in this same turn) join it. Embedded PGlite needs
      // this, as it blocks the event loop while it runs a call, so nothing can arrive during
      // one; on PostgreSQL it costs nothing measurable.
      if (!startScheduled) {
        startScheduled = true;
        setImmediate(() => {
          startScheduled = false;
          startBatches();
        });
      }
    });
  }

  function startBatches(): void {
    while (inFlight < options.maxInFlight && queue.length > 0) {
      inFlight += 1;
      void runBatch(queue.splice(0, options.maxBatch));
    }
  }

  async function runBatch(batch: Waiting<Item, Result>[]): Promise<void> {
    try {
      const results = await runWithRetries(batch.map((waiting) => waiting.item));
      if (results.length !== batch.length) {
        throw new Error(`a batch of ${batch.length} answered ${results.length} results`);
      }
      for (const [index, waiting] of batch.entries()) {
        waiting.resolve(results[index] as Result);
      }
    } catch (error) {
      for (const waiting of batch) {
        waiting.reject(error);
      }
    } finally {
      inFlight -= 1;
      startBatches();
    }
  }

  async function runWithRetries(items: readonly Item[]): Promise<readonly Result[]> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await options.run(items);
      } catch (error) {
        if (attempt >= maxAttempts || !RETRYABLE_SQLSTATES.has(sqlState(error) ?? '')) {
          throw error;
        }
      }
    }
  }

  return { submit };
}

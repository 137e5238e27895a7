import type { Db } from '../../../db/db.ts';
import { createPendingWorker, type PendingWorkerSettings } from '../../../shared/poll-loop.ts';
import type { BulkPayoutService } from './bulk-payout-service.ts';
import { claimDueBulkBatches } from './bulk-repository.ts';

type BulkWorkerDeps = PendingWorkerSettings & {
  readonly db: Db;
  readonly bulkPayouts: Pick<BulkPayoutService, 'processBatch' | 'onAccepted'>;
};

/**
 * Places the items of Processing bulk batches, up to batchSize batches at a time, each a chunk
 * at a time (claimed through db/claim-due.ts, so several workers in several processes share
 * them). A batch that ends frees its slot at once: the next due batch is claimed then, not when
 * the slowest of a round of batches ends (rounds left slots idle while one batch finished, and
 * a client's next batch waited for the others; docs/benchmarks.md, row (h)). A batch accepted
 * by this process is claimed at once; another process's, and one whose worker died (its claim
 * ran out), within the poll interval. `runOnce` is one round: what is due, placed whole.
 */
export function createBulkPayoutWorker(deps: BulkWorkerDeps) {
  const round = createPendingWorker({
    ...deps,
    claim: (due) => claimDueBulkBatches(deps.db, due),
    handle: (batch) => deps.bulkPayouts.processBatch(batch),
  });
  const slots = batchSlots(deps);
  let timer: ReturnType<typeof setInterval> | undefined;
  let unsubscribe: (() => void) | undefined;
  return {
    runOnce: round.runOnce,
    start(): void {
      if (timer !== undefined) {
        return;
      }
      slots.running = true;
      unsubscribe = deps.bulkPayouts.onAccepted(() => void slots.fill());
      timer = setInterval(() => void slots.fill(), deps.pollIntervalMs);
      void slots.fill();
    },
    /** Claims what is due now and answers once it, and every batch in hand, is placed. */
    async wake(): Promise<void> {
      await slots.fill();
      await slots.settled();
    },
    /** Claims nothing more and answers once the batches in hand are placed. */
    async stop(): Promise<void> {
      slots.running = false;
      clearInterval(timer);
      timer = undefined;
      unsubscribe?.();
      unsubscribe = undefined;
      await slots.settled();
    },
  };
}

/** The worker's batchSize slots: each holds one batch being placed. */
function batchSlots(deps: BulkWorkerDeps) {
  const inHand = new Set<Promise<void>>();
  let claiming: Promise<void> | undefined;
  let askedAgain = false;
  let failedRounds = 0;
  const failed = (error: unknown) => {
    failedRounds += 1;
    deps.onError?.(error, failedRounds);
  };
  const slots = {
    running: false,
    /** Claims due batches for the free slots (once more if asked meanwhile). */
    fill(): Promise<void> {
      if (claiming !== undefined) {
        askedAgain = true;
        return claiming;
      }
      claiming = claimFree()
        .then(() => {
          if (failedRounds > 0) {
            deps.onRecovered?.(failedRounds);
            failedRounds = 0;
          }
        }, failed)
        .finally(() => {
          claiming = undefined;
          // Asked after the last claim had answered: claim again, or the batch waits a poll.
          if (askedAgain && slots.running) {
            void slots.fill();
          }
        });
      return claiming;
    },
    async settled(): Promise<void> {
      await claiming;
      await Promise.allSettled([...inHand]);
    },
  };
  async function claimFree(): Promise<void> {
    for (;;) {
      askedAgain = false;
      const free = deps.batchSize - inHand.size;
      if (!slots.running || free <= 0) {
        return;
      }
      const claim = { now: deps.clock.now(), limit: free, claimSeconds: deps.claimSeconds };
      const batches = await claimDueBulkBatches(deps.db, claim);
      for (const batch of batches) {
        place(batch);
      }
      if (batches.length < free && !askedAgain) {
        return;
      }
    }
  }
  function place(batch: { id: string; clientId: string }): void {
    // A batch that fails keeps its claim until it runs out, then is claimed again.
    const placing: Promise<void> = deps.bulkPayouts
      .processBatch(batch)
      .then(() => undefined, failed)
      .finally(() => {
        inHand.delete(placing);
        void slots.fill();
      });
    inHand.add(placing);
  }
  return slots;
}

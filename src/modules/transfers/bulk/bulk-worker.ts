import type { Db } from '../../../db/db.ts';
import { createPendingWorker, type PendingWorkerSettings } from '../../../shared/poll-loop.ts';
import type { BulkPayoutService } from './bulk-payout-service.ts';
import { claimDueBulkBatches } from './bulk-repository.ts';

/**
 * Places the items of Processing bulk batches: each round claims up to batchSize batches
 * (db/claim-due.ts, so several workers in several processes share them) and works on them at
 * once, each a chunk at a time. A batch whose worker died is claimed again when its claim runs
 * out, and goes on from its items still Pending. Another process's batch is found by the poll.
 */
export function createBulkPayoutWorker(
  deps: PendingWorkerSettings & {
    readonly db: Db;
    readonly bulkPayouts: Pick<BulkPayoutService, 'processBatch' | 'onAccepted'>;
  },
) {
  const worker = createPendingWorker({
    ...deps,
    claim: (due) => claimDueBulkBatches(deps.db, due),
    handle: (batch) => deps.bulkPayouts.processBatch(batch),
  });
  // A batch accepted by this process is looked at once, not after the poll interval.
  let unsubscribe: (() => void) | undefined;
  return {
    ...worker,
    start(): void {
      unsubscribe ??= deps.bulkPayouts.onAccepted(() => void worker.wake());
      worker.start();
    },
    async stop(): Promise<void> {
      unsubscribe?.();
      unsubscribe = undefined;
      await worker.stop();
    },
  };
}

import type { Db } from '../../../db/db.ts';
import { createPendingWorker, type PendingWorkerSettings } from '../../../shared/poll-loop.ts';
import { claimDueReturnChecks, claimDueStatusQueries } from '../transfer-repository.ts';
import type { OutboundTransferService } from './outbound-transfer-service.ts';

/**
 * Resolves Processing NIP transfers by status query on a backoff, including those a crash left
 * between hold and dispatch; each claim hides a transfer for claimSeconds while the rail is asked.
 * With what a round has room for after them, it asks once more about Completed NIP transfers
 * whose return window has passed, for a return whose notice was lost.
 */
export function createStatusQueryWorker(
  deps: PendingWorkerSettings & {
    readonly db: Db;
    readonly outbound: Pick<OutboundTransferService, 'queryAndSettle' | 'checkForReturn'>;
  },
) {
  return createPendingWorker({
    ...deps,
    claim: async (due) => {
      const processing = await claimDueStatusQueries(deps.db, due);
      const room = due.limit - processing.length;
      return room <= 0
        ? processing
        : [...processing, ...(await claimDueReturnChecks(deps.db, { ...due, limit: room }))];
    },
    handle: (transfer) =>
      transfer.status === 'Processing'
        ? deps.outbound.queryAndSettle(transfer)
        : deps.outbound.checkForReturn(transfer),
  });
}

export type StatusQueryWorker = ReturnType<typeof createStatusQueryWorker>;

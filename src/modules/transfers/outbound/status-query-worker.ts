import type { Db } from '../../../db/db.ts';
import { createPendingWorker, type PendingWorkerSettings } from '../../../shared/poll-loop.ts';
import { claimDueStatusQueries } from '../transfer-repository.ts';
import type { OutboundTransferService } from './outbound-transfer-service.ts';

/**
 * Resolves Processing NIP transfers by status query on a backoff, including those a crash left
 * between hold and dispatch; each claim hides a transfer for claimSeconds while the rail is asked.
 */
export function createStatusQueryWorker(
  deps: PendingWorkerSettings & {
    readonly db: Db;
    readonly outbound: Pick<OutboundTransferService, 'queryAndSettle'>;
  },
) {
  return createPendingWorker({
    ...deps,
    claim: (due) => claimDueStatusQueries(deps.db, due),
    handle: (transfer) => deps.outbound.queryAndSettle(transfer),
  });
}

export type StatusQueryWorker = ReturnType<typeof createStatusQueryWorker>;

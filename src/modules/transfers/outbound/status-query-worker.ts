import type { Db } from '../../../db/db.ts';
import type { Clock } from '../../../shared/clock.ts';
import { createClaimingWorker, type PollLoopOptions } from '../../../shared/poll-loop.ts';
import { claimDueStatusQueries } from '../transfer-repository.ts';
import type { OutboundTransferService } from './outbound-transfer-service.ts';

export interface StatusQueryWorkerDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly outbound: Pick<OutboundTransferService, 'queryAndSettle'>;
  readonly batchSize: number;
  readonly pollIntervalMs: number;
  /** How long a claimed transfer is hidden from other workers while the rail is asked. */
  readonly claimSeconds: number;
  /** Failed rounds are reported (throttled) and recoveries told, as the poll loop does. */
  readonly onError?: PollLoopOptions['onError'];
  readonly onRecovered?: PollLoopOptions['onRecovered'];
}

/**
 * Resolves Processing NIP transfers by status query on a backoff, including those a crash left
 * between hold and dispatch. Several workers share the work through FOR UPDATE SKIP LOCKED.
 */
export function createStatusQueryWorker(deps: StatusQueryWorkerDeps) {
  return createClaimingWorker({
    ...deps,
    claim: () => {
      const now = deps.clock.now();
      return claimDueStatusQueries(deps.db, {
        now,
        lockedUntil: new Date(now.getTime() + deps.claimSeconds * 1000),
        limit: deps.batchSize,
      });
    },
    handle: (transfer) => deps.outbound.queryAndSettle(transfer),
  });
}

export type StatusQueryWorker = ReturnType<typeof createStatusQueryWorker>;

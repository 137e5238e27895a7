import type { Db } from '../../db/db.ts';
import type { Clock } from '../../shared/clock.ts';
import { createClaimingWorker, type PollLoopOptions } from '../../shared/poll-loop.ts';
import { claimDuePurchases } from './vas-purchase-repository.ts';
import type { VasPurchaseService } from './vas-purchase-service.ts';

export interface VasStatusQueryWorkerDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly purchases: Pick<VasPurchaseService, 'queryAndSettle'>;
  readonly batchSize: number;
  readonly pollIntervalMs: number;
  /** How long a claimed purchase is hidden from other workers while the biller is asked. */
  readonly claimSeconds: number;
  readonly onError?: PollLoopOptions['onError'];
  readonly onRecovered?: PollLoopOptions['onRecovered'];
}

/**
 * Resolves pending VAS purchases by asking the biller on a backoff, including those a crash left
 * between the hold and the biller's answer. Several workers share the work (SKIP LOCKED).
 */
export function createVasStatusQueryWorker(deps: VasStatusQueryWorkerDeps) {
  return createClaimingWorker({
    ...deps,
    claim: () =>
      claimDuePurchases(deps.db, {
        now: deps.clock.now(),
        limit: deps.batchSize,
        claimSeconds: deps.claimSeconds,
      }),
    handle: (purchase) => deps.purchases.queryAndSettle(purchase),
  });
}

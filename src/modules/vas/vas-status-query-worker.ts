import type { Db } from '../../db/db.ts';
import { createPendingWorker, type PendingWorkerSettings } from '../../shared/poll-loop.ts';
import { claimDuePurchases } from './vas-purchase-repository.ts';
import type { VasPurchaseService } from './vas-purchase-service.ts';

/**
 * Resolves pending VAS purchases by asking the biller on a backoff, including those a crash left
 * between the hold and the biller's answer; each claim hides a purchase for claimSeconds.
 */
export function createVasStatusQueryWorker(
  deps: PendingWorkerSettings & {
    readonly db: Db;
    readonly purchases: Pick<VasPurchaseService, 'queryAndSettle'>;
  },
) {
  return createPendingWorker({
    ...deps,
    claim: (due) => claimDuePurchases(deps.db, due),
    handle: (purchase) => deps.purchases.queryAndSettle(purchase),
  });
}

import type { Db } from '../../db/db.ts';
import { createPendingWorker, type PendingWorkerSettings } from '../../shared/poll-loop.ts';
import { claimDueQueries } from './ussd-repository.ts';
import type { UssdService } from './ussd-service.ts';

/**
 * Finds USSD payments whose notice never arrived: asks the gateway about unpaid references on a
 * backoff until they are well past expiry; each claim hides a reference for claimSeconds.
 */
export function createUssdStatusQueryWorker(
  deps: PendingWorkerSettings & {
    readonly db: Db;
    readonly ussd: Pick<UssdService, 'queryAndSettle'>;
  },
) {
  return createPendingWorker({
    ...deps,
    claim: (due) => claimDueQueries(deps.db, due),
    handle: (reference) => deps.ussd.queryAndSettle(reference),
  });
}

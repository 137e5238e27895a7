import type { Db } from '../../db/db.ts';
import type { Clock } from '../../shared/clock.ts';
import { createClaimingWorker, type PollLoopOptions } from '../../shared/poll-loop.ts';
import { claimDueQueries } from './ussd-repository.ts';
import type { UssdService } from './ussd-service.ts';

export interface UssdStatusQueryWorkerDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ussd: Pick<UssdService, 'queryAndSettle'>;
  readonly batchSize: number;
  readonly pollIntervalMs: number;
  /** How long a claimed reference is hidden from other workers while the gateway is asked. */
  readonly claimSeconds: number;
  readonly onError?: PollLoopOptions['onError'];
  readonly onRecovered?: PollLoopOptions['onRecovered'];
}

/**
 * Finds USSD payments whose notice never arrived: asks the gateway about unpaid references on a
 * backoff until they are well past expiry. Several workers share the work (SKIP LOCKED).
 */
export function createUssdStatusQueryWorker(deps: UssdStatusQueryWorkerDeps) {
  return createClaimingWorker({
    ...deps,
    claim: () =>
      claimDueQueries(deps.db, {
        now: deps.clock.now(),
        limit: deps.batchSize,
        claimSeconds: deps.claimSeconds,
      }),
    handle: (reference) => deps.ussd.queryAndSettle(reference),
  });
}

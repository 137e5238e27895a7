import type { Db } from '../../../db/db.ts';
import type { Clock } from '../../../shared/clock.ts';
import { createPollLoop } from '../../../workers/poll-loop.ts';
import { claimDueStatusQueries } from '../transfer-repository.ts';
import type { TransferSettlement } from './transfer-settlement.ts';

export interface StatusQueryWorkerDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly settlement: TransferSettlement;
  readonly batchSize: number;
  readonly pollIntervalMs: number;
  /** How long a claimed transfer is hidden from other workers while the rail is asked. */
  readonly claimSeconds: number;
  readonly onError?: (error: unknown) => void;
}

/**
 * Resolves Processing NIP transfers by status query on a backoff, including those a crash left
 * between hold and dispatch. Several workers share the work through FOR UPDATE SKIP LOCKED.
 */
export function createStatusQueryWorker(deps: StatusQueryWorkerDeps) {
  async function runOnce(): Promise<number> {
    const now = deps.clock.now();
    const due = await claimDueStatusQueries(deps.db, {
      now,
      lockedUntil: new Date(now.getTime() + deps.claimSeconds * 1000),
      limit: deps.batchSize,
    });
    await Promise.all(due.map((transfer) => deps.settlement.queryAndSettle(transfer)));
    return due.length;
  }

  const pollLoop = createPollLoop(runOnce, deps);
  return { runOnce, start: pollLoop.start, stop: pollLoop.stop };
}

export type StatusQueryWorker = ReturnType<typeof createStatusQueryWorker>;

import { createPollLoop, type PollLoopOptions } from '../../shared/poll-loop.ts';

/**
 * The alerts worker: each round turns notices into messages (alert-composer.ts), then sends the
 * messages that are due (alert-delivery.ts). Several workers, in several processes, share the
 * work: both steps take their rows with FOR UPDATE SKIP LOCKED.
 */
export function createAlertWorker(
  steps: {
    readonly composeBatch: () => Promise<number>;
    readonly sendBatch: () => Promise<number>;
  },
  options: PollLoopOptions,
) {
  async function runOnce(): Promise<number> {
    const composed = await steps.composeBatch();
    const sent = await steps.sendBatch();
    return Math.max(composed, sent);
  }
  const loop = createPollLoop(runOnce, options);
  return { runOnce, start: loop.start, stop: loop.stop, wake: loop.wake };
}

/**
 * The monthly statements worker: each round queues a batch of a month's statements (once the
 * month has ended: monthly-statements.ts), then sends a few statement emails, each streaming
 * its PDF. Apart from the alerts worker, so a long statement never holds an alert back. While
 * either step says more may wait, the next round starts at once.
 */
export function createMonthlyStatementsWorker(
  steps: {
    readonly composeBatch: () => Promise<{ readonly more: boolean }>;
    readonly sendBatch: () => Promise<number>;
    readonly sendBatchSize: number;
  },
  options: Omit<PollLoopOptions, 'batchSize'>,
) {
  async function runOnce(): Promise<number> {
    const composed = await steps.composeBatch();
    const sent = await steps.sendBatch();
    return composed.more || sent >= steps.sendBatchSize ? 1 : 0;
  }
  const loop = createPollLoop(runOnce, { ...options, batchSize: 1 });
  return { runOnce, start: loop.start, stop: loop.stop, wake: loop.wake };
}

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

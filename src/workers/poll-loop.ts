export interface PollLoopOptions {
  /** A full batch means more may be waiting: poll again at once instead of sleeping. */
  readonly batchSize: number;
  readonly pollIntervalMs: number;
  readonly onError?: (error: unknown) => void;
}

/**
 * Runs `runOnce` (which claims and handles up to batchSize items, answering how many) until
 * stopped, at its own pace. An error (a database restart, say) is reported and the loop goes on:
 * claimed items unlock by themselves, so nothing is lost.
 */
export function createPollLoop(runOnce: () => Promise<number>, options: PollLoopOptions) {
  let running = false;
  let loopDone: Promise<void> | undefined;
  let wake: (() => void) | undefined;

  async function loop(): Promise<void> {
    while (running) {
      let claimed = 0;
      try {
        claimed = await runOnce();
      } catch (error) {
        options.onError?.(error);
      }
      if (claimed < options.batchSize && running) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, options.pollIntervalMs);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    }
  }

  return {
    start(): void {
      if (!running) {
        running = true;
        loopDone = loop();
      }
    },
    /** Lets the round in progress finish, then stops. */
    async stop(): Promise<void> {
      running = false;
      wake?.();
      await loopDone;
    },
  };
}

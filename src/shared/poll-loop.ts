export interface PollLoopOptions {
  /** A full batch means more may be waiting: poll again at once instead of sleeping. */
  readonly batchSize: number;
  readonly pollIntervalMs: number;
  /**
   * Told about a failed round: the first of a run of failures, then at most once per
   * errorReportIntervalMs while rounds keep failing (a database outage must not flood the log),
   * with how many rounds have failed in a row. Must not throw.
   */
  readonly onError?: (error: unknown, failedRounds: number) => void;
  /** Told when a round succeeds after failed ones, with how many failed. */
  readonly onRecovered?: (failedRounds: number) => void;
  /** Failing rounds back off, doubling the pause from pollIntervalMs up to this (default 5 s). */
  readonly maxBackoffMs?: number;
  /** Default 60 s. */
  readonly errorReportIntervalMs?: number;
}

const MAX_BACKOFF_MS = 5_000;
const ERROR_REPORT_INTERVAL_MS = 60_000;

/**
 * Runs `runOnce` (which claims and handles up to batchSize items, answering how many) until
 * stopped, at its own pace. An error (a database restart, say) is reported and the loop goes on,
 * backing off while rounds keep failing and at full pace again once one succeeds: claimed items
 * unlock by themselves, so nothing is lost.
 */
export function createPollLoop(runOnce: () => Promise<number>, options: PollLoopOptions) {
  let running = false;
  let loopDone: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  // Callers of wake() waiting for a round that starts after their call.
  let wokenBy: (() => void)[] = [];
  let wakeAsked = false;
  const maxBackoffMs = options.maxBackoffMs ?? MAX_BACKOFF_MS;
  const reportIntervalMs = options.errorReportIntervalMs ?? ERROR_REPORT_INTERVAL_MS;

  function pauseAfter(failedRounds: number): number {
    if (failedRounds === 0) {
      return options.pollIntervalMs;
    }
    const doubled = options.pollIntervalMs * 2 ** Math.min(failedRounds - 1, 20);
    return Math.max(options.pollIntervalMs, Math.min(maxBackoffMs, doubled));
  }

  async function loop(): Promise<void> {
    let failedRounds = 0;
    let lastReportAt = Number.NEGATIVE_INFINITY;
    while (running) {
      const waiting = wokenBy;
      wokenBy = [];
      wakeAsked = false;
      let claimed = 0;
      try {
        claimed = await runOnce();
        if (failedRounds > 0) {
          notify(() => options.onRecovered?.(failedRounds));
          failedRounds = 0;
          lastReportAt = Number.NEGATIVE_INFINITY;
        }
      } catch (error) {
        failedRounds += 1;
        const now = Date.now();
        if (failedRounds === 1 || now - lastReportAt >= reportIntervalMs) {
          lastReportAt = now;
          const failed = failedRounds;
          notify(() => options.onError?.(error, failed));
        }
      }
      for (const resolve of waiting) {
        resolve();
      }
      if ((failedRounds > 0 || claimed < options.batchSize) && running && !wakeAsked) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, pauseAfter(failedRounds));
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    }
  }

  /** A reporting callback that throws must not end the loop. */
  function notify(callback: () => void): void {
    try {
      callback();
    } catch {
      // Nothing sensible to do with it; the loop goes on.
    }
  }

  return {
    start(): void {
      if (!running) {
        running = true;
        loopDone = loop();
      }
    },
    /**
     * Runs a round now instead of after the pause (the sandbox clock moved, so work may have come
     * due); answers once a round that started after this call has finished.
     */
    wake(): Promise<void> {
      if (!running) {
        return Promise.resolve();
      }
      wakeAsked = true;
      const done = new Promise<void>((resolve) => wokenBy.push(resolve));
      wake?.();
      return done;
    },
    /** Lets the round in progress finish, then stops. */
    async stop(): Promise<void> {
      running = false;
      wake?.();
      await loopDone;
      for (const resolve of wokenBy.splice(0)) {
        resolve();
      }
    },
  };
}

/**
 * A poll loop over claimed work: each round claims up to batchSize items (claims hide them from
 * other workers, so several share the work) and handles them all at once.
 */
export function createClaimingWorker<T>(
  options: PollLoopOptions & {
    readonly claim: () => Promise<readonly T[]>;
    readonly handle: (item: T) => Promise<unknown>;
  },
) {
  async function runOnce(): Promise<number> {
    const due = await options.claim();
    await Promise.all(due.map((item) => options.handle(item)));
    return due.length;
  }
  const pollLoop = createPollLoop(runOnce, options);
  return { runOnce, start: pollLoop.start, stop: pollLoop.stop, wake: pollLoop.wake };
}

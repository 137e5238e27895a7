import type { Clock } from './clock.ts';

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

/** What one round asks of the database: up to `limit` items due at `now`. */
export interface DueClaim {
  readonly now: Date;
  readonly limit: number;
  /** How long each claimed item is hidden from other workers while it is handled. */
  readonly claimSeconds: number;
}

/** A pending worker's pace and claim, as the configuration gives them. */
export type PendingWorkerSettings = PollLoopOptions & {
  readonly clock: Clock;
  readonly claimSeconds: number;
};

/**
 * A poll loop over work that waits for a provider's answer (a status query, a delivery): each
 * round claims up to batchSize due items (db/claim-due.ts: claims hide them from other workers,
 * so several share the work) and handles them all at once. An item whose handling fails is
 * not lost: its claim runs out and a later round takes it again. The others of the round still
 * finish; then the round counts as failed, so the failure is reported and the loop backs off.
 */
export function createPendingWorker<T>(
  options: PendingWorkerSettings & {
    readonly claim: (due: DueClaim) => Promise<readonly T[]>;
    readonly handle: (item: T) => Promise<unknown>;
  },
) {
  async function runOnce(): Promise<number> {
    const due = await options.claim({
      now: options.clock.now(),
      limit: options.batchSize,
      claimSeconds: options.claimSeconds,
    });
    const handled = await Promise.allSettled(due.map((item) => options.handle(item)));
    const failed = handled.find(
      (outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected',
    );
    if (failed !== undefined) {
      throw failed.reason;
    }
    return due.length;
  }
  const pollLoop = createPollLoop(runOnce, options);
  return { runOnce, start: pollLoop.start, stop: pollLoop.stop, wake: pollLoop.wake };
}

/**
 * Retry delays after each failed attempt, in seconds: the Standard Webhooks schedule
 * (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h). After the last, the event fails and
 * waits for a replay.
 */
export const DEFAULT_RETRY_SCHEDULE_SECONDS: readonly number[] = [
  5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400,
];

/** When attempt number `attempts` (1-based) has failed: the next try, or undefined for "give up". */
export function nextAttemptAt(
  attempts: number,
  failedAt: Date,
  scheduleSeconds: readonly number[],
): Date | undefined {
  const delaySeconds = scheduleSeconds[attempts - 1];
  return delaySeconds === undefined
    ? undefined
    : new Date(failedAt.getTime() + delaySeconds * 1000);
}

/** 2xx is success; 410 Gone disables the endpoint; anything else is retried. */
export type AttemptVerdict = 'delivered' | 'gone' | 'retry';

export function verdictFor(statusCode: number | undefined): AttemptVerdict {
  if (statusCode !== undefined && statusCode >= 200 && statusCode < 300) {
    return 'delivered';
  }
  return statusCode === 410 ? 'gone' : 'retry';
}

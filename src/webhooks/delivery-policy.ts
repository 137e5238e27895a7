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

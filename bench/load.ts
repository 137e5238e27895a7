import autocannon from 'autocannon';

export interface LoadOptions {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly connections: number;
  readonly durationSeconds: number;
}

export interface LoadResult {
  /** Mean of autocannon's per-second request counts. */
  readonly rps: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly requests: number;
}

/**
 * One autocannon run. Any non-2xx answer or connection error fails the bench: a rejected token
 * answers 401 quickly, and such a figure would look like a fast server.
 */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  if (new URL(options.url).hostname !== '127.0.0.1') {
    throw new Error(`the bench only loads 127.0.0.1, not ${options.url}`);
  }
  const result = await autocannon({
    url: options.url,
    method: 'GET',
    headers: { ...options.headers },
    connections: options.connections,
    pipelining: 1,
    duration: options.durationSeconds,
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(
      `load on ${options.url}: ${result.non2xx} non-2xx answers, ${result.errors} errors ` +
        `(${result.timeouts} timeouts) in ${result.requests.total} requests`,
    );
  }
  return {
    rps: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
  };
}

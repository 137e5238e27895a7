import { HttpClient } from './http-client.ts';
import { percentile } from './stats.ts';

/**
 * A closed-loop POST load generator with exact accounting, for requests that each need their own
 * body and headers (a unique paymentReference and Idempotency-Key per transfer). autocannon
 * drops the requests in flight when its time is up, and the server still commits those; here
 * every lane stops sending at the deadline and waits for its last answer, so every request sent
 * has an answer (or a network error) counted, and the database can be checked against them.
 */
export interface PostLoadOptions {
  readonly baseUrl: string;
  /** POST by default; a GET sends no body. */
  readonly method?: 'GET' | 'POST';
  readonly path: string;
  readonly connections: number;
  readonly durationSeconds: number;
  /**
   * Headers and body of a lane's n-th request; undefined when the lane has nothing left to send
   * (its share of accounts made for the run is used up): it stops before the deadline.
   */
  request(
    lane: number,
    sequence: number,
  ): { headers: Record<string, string>; body: unknown } | undefined;
  /** Whether a 2xx answer's body reports the outcome sought (e.g. a Completed transfer). */
  isComplete(body: string): boolean;
}

export interface PostLoadResult {
  readonly requests: number;
  /** 2xx answers. */
  readonly ok: number;
  /** 2xx answers whose body reports the outcome sought. */
  readonly completed: number;
  /** Everything else, by "HTTP status CODE" or "network: message". */
  readonly failures: Readonly<Record<string, number>>;
  /** First request sent to last answer read. */
  readonly elapsedSeconds: number;
  /** Answered requests per second. */
  readonly rps: number;
  readonly completedPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

export async function runPostLoad(options: PostLoadOptions): Promise<PostLoadResult> {
  const client = new HttpClient(options.baseUrl, options.connections);
  const latencies: number[] = [];
  const failures: Record<string, number> = {};
  let ok = 0;
  let completed = 0;
  const started = performance.now();
  const deadline = started + options.durationSeconds * 1000;
  let lastAnswer = started;
  const lane = async (index: number) => {
    for (let sequence = 0; performance.now() < deadline; sequence += 1) {
      const next = options.request(index, sequence);
      if (next === undefined) {
        break;
      }
      const { headers, body } = next;
      try {
        const response = await client.request(
          options.method ?? 'POST',
          options.path,
          headers,
          body,
        );
        lastAnswer = performance.now();
        latencies.push(response.elapsedMs);
        if (response.status >= 200 && response.status < 300) {
          ok += 1;
          completed += options.isComplete(response.body) ? 1 : 0;
        } else {
          const key = `HTTP ${response.status} ${errorCode(response.body)}`;
          failures[key] = (failures[key] ?? 0) + 1;
        }
      } catch (error) {
        lastAnswer = performance.now();
        const key = `network: ${error instanceof Error ? error.message : String(error)}`;
        failures[key] = (failures[key] ?? 0) + 1;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: options.connections }, (_, index) => lane(index)));
  } finally {
    client.close();
  }
  const elapsedSeconds = (lastAnswer - started) / 1000;
  const failed = Object.values(failures).reduce((sum, count) => sum + count, 0);
  return {
    requests: ok + failed,
    ok,
    completed,
    failures,
    elapsedSeconds,
    rps: (ok + failed) / elapsedSeconds,
    completedPerSecond: completed / elapsedSeconds,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
  };
}

function errorCode(body: string): string {
  try {
    const parsed = JSON.parse(body) as { code?: unknown };
    return typeof parsed.code === 'string' ? parsed.code : '(no code)';
  } catch {
    return '(not JSON)';
  }
}

/** Runs `work` over the items, at most `limit` at a time, in order of the items' start. */
export async function inParallel<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

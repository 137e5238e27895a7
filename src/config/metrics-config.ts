import { type EnvReader, readEnvBoolean, readEnvInt, readEnvString } from './env-reader.ts';

/**
 * GET /metrics (Prometheus): it shows the traffic and the backlogs, so it is protected. With
 * METRICS_TOKEN set, a scrape must send `Authorization: Bearer <METRICS_TOKEN>`. Without it the
 * endpoint is open in sandbox and not served at all in production (docs/deployment.md).
 * METRICS_ENABLED=false turns it off everywhere, with the series every request feeds (what the
 * benchmark measures a deployment without).
 */
export interface MetricsConfig {
  /** Whether /metrics is served: with a token, or without one in sandbox. */
  readonly enabled: boolean;
  /** The bearer token a scrape must present; undefined: none asked (sandbox only). */
  readonly token: string | undefined;
  /** How long a scrape waits for the database-derived gauges before it leaves them out. */
  readonly collectTimeoutMs: number;
}

const MIN_TOKEN_LENGTH = 32;

export function readMetricsConfig(read: EnvReader, production: boolean): MetricsConfig {
  const token = readEnvString(read, 'METRICS_TOKEN', {});
  if (token !== undefined && token.length < MIN_TOKEN_LENGTH) {
    read.problems.push(`METRICS_TOKEN must be at least ${MIN_TOKEN_LENGTH} characters`);
  }
  return Object.freeze({
    enabled: readEnvBoolean(read, 'METRICS_ENABLED', true) && (token !== undefined || !production),
    token,
    collectTimeoutMs: readEnvInt(read, 'METRICS_COLLECT_TIMEOUT_MS', {
      fallback: 1_000,
      min: 10,
      max: 10_000,
    }),
  });
}

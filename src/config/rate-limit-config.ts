import { type EnvReader, readEnvInt, readEnvString } from './env-reader.ts';

/** Requests per minute, per IP address or per client; 0 turns a limit off. */
export interface RateLimitConfig {
  /** Counters in Redis, shared by every server process; unset: in each process. */
  readonly redisUrl: string | undefined;
  readonly redisPrefix: string;
  /** POST /oauth2/token, per IP address. */
  readonly tokenPerMinutePerIp: number;
  /** The admin API, per IP address: every request, and those with a wrong admin token. */
  readonly adminPerMinutePerIp: number;
  readonly adminFailuresPerMinutePerIp: number;
  /** The authenticated API, per client: every route, and name enquiry on its own. */
  readonly apiPerMinutePerClient: number;
  readonly nameEnquiryPerMinutePerClient: number;
  /** Name enquiries for accounts that do not exist, per hour, per client (then 429). */
  readonly nameEnquiryMissesPerHourPerClient: number;
  /** Statement documents (PDF, CSV) per minute, per client: each reads a whole range. */
  readonly statementExportsPerMinutePerClient: number;
}

export function readRateLimitConfig(read: EnvReader): RateLimitConfig {
  const perMinute = (name: string, fallback: number) =>
    readEnvInt(read, name, { fallback, min: 0, max: 10_000_000 });
  return Object.freeze({
    redisUrl: readEnvString(read, 'RATE_LIMIT_REDIS_URL', {}),
    redisPrefix:
      readEnvString(read, 'RATE_LIMIT_REDIS_PREFIX', { fallback: 'openibs-rate-limit:' }) ??
      'openibs-rate-limit:',
    tokenPerMinutePerIp: perMinute('RATE_LIMIT_TOKEN_PER_MINUTE_PER_IP', 60),
    adminPerMinutePerIp: perMinute('RATE_LIMIT_ADMIN_PER_MINUTE_PER_IP', 600),
    adminFailuresPerMinutePerIp: perMinute('RATE_LIMIT_ADMIN_FAILURES_PER_MINUTE_PER_IP', 10),
    apiPerMinutePerClient: perMinute('RATE_LIMIT_API_PER_MINUTE_PER_CLIENT', 60_000),
    nameEnquiryPerMinutePerClient: perMinute(
      'RATE_LIMIT_NAME_ENQUIRY_PER_MINUTE_PER_CLIENT',
      1_200,
    ),
    nameEnquiryMissesPerHourPerClient: perMinute(
      'RATE_LIMIT_NAME_ENQUIRY_MISSES_PER_HOUR_PER_CLIENT',
      300,
    ),
    statementExportsPerMinutePerClient: perMinute(
      'RATE_LIMIT_STATEMENT_EXPORTS_PER_MINUTE_PER_CLIENT',
      30,
    ),
  });
}

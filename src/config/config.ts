import { nairaTextToKobo } from '../shared/money.ts';
import { type AlertsConfig, readAlertsConfig } from './alerts-config.ts';
import { type CheckoutConfig, readCheckoutConfig } from './checkout-config.ts';
import {
  type EnvReader,
  readEnvBoolean,
  readEnvInt,
  readEnvNaira,
  readEnvString,
} from './env-reader.ts';
import { type ExposureConfig, readExposureConfig } from './exposure-config.ts';
import { type IdentityConfig, readIdentityConfig } from './identity-config.ts';
import { type KycLimits, readKycLimits } from './kyc-limits.ts';
import { type MetricsConfig, readMetricsConfig } from './metrics-config.ts';
import { type OperatorsConfig, readOperatorsConfig } from './operators-config.ts';
import { type ProviderGuardConfig, readProviderGuardConfig } from './provider-guard-config.ts';
import { type RateLimitConfig, readRateLimitConfig } from './rate-limit-config.ts';
import { type RetentionConfig, readRetentionConfig } from './retention-config.ts';
import { readSsoConfig, type SingleSignOnConfig } from './sso-config.ts';
import { readUssdConfig, type UssdConfig } from './ussd-config.ts';
import { readVirtualAccountConfig, type VirtualAccountConfig } from './virtual-account-config.ts';

export type IbsEnvironment = 'sandbox' | 'production';

export interface Config {
  readonly ibsEnv: IbsEnvironment;
  readonly port: number;
  readonly host: string;
  readonly databaseUrl: string | undefined;
  readonly databasePoolSize: number;
  /** Seconds an unused PostgreSQL connection stays open; 0: for the process's life. */
  readonly databasePoolIdleSeconds: number;
  /**
   * The most money movements of one kind waiting for a batch in this process; the next is
   * refused with 503 SERVER_BUSY before anything of it is done (db/group-commit.ts).
   */
  readonly groupCommitMaxWaiting: number;
  readonly dataDir: string;
  /** Undefined only in sandbox, where the first start generates one under DATA_DIR. */
  readonly adminToken: string | undefined;
  /** Undefined only in sandbox, where the first start generates one under DATA_DIR. */
  readonly tokenSigningSecret: string | undefined;
  readonly publicBaseUrl: string;
  /** Every `aud` a client assertion may name. */
  readonly assertionAudiences: readonly string[];
  readonly assertionRejectReusedJti: boolean;
  /** The longest a client assertion may live (`exp - iat`). */
  readonly assertionMaxLifetimeSeconds: number;
  readonly minRsaKeyBits: number;
  readonly institutionCode: string;
  readonly accessTokenTtlSeconds: number;
  /** How stale a server's list of revoked tokens may grow: revocation takes this long at most. */
  readonly revocationRefreshSeconds: number;
  readonly refreshTokenTtlSeconds: number;
  readonly maxAmountKobo: bigint;
  readonly stampDutyKobo: bigint;
  readonly stampDutyThresholdKobo: bigint;
  readonly sandboxDemoBalanceKobo: bigint;
  readonly logLevel: string;
  /**
   * Write each log line before going on (LOG_SYNC=true), or hand lines to a background write
   * (default): the event loop never waits on the disk, and lines written while one write is in
   * flight go out together in the next. A line is never held back waiting for more.
   */
  readonly logSync: boolean;
  readonly http: HttpServerConfig;
  readonly webhooks: WebhookConfig;
  readonly transfers: TransferConfig;
  readonly identity: IdentityConfig;
  readonly virtualAccounts: VirtualAccountConfig;
  readonly vas: VasConfig;
  readonly ussd: UssdConfig;
  readonly checkout: CheckoutConfig;
  readonly rateLimits: RateLimitConfig;
  readonly retention: RetentionConfig;
  readonly exposure: ExposureConfig;
  readonly providers: ProviderGuardConfig;
  readonly metrics: MetricsConfig;
  readonly alerts: AlertsConfig;
  /** Operators' sign-in: break-glass, session idle timeout, API key lifetimes. */
  readonly operators: OperatorsConfig;
  /** Operators' single sign-on with the organisation's OpenID Connect provider; undefined: off. */
  readonly sso: SingleSignOnConfig | undefined;
}

export interface VasConfig {
  /** Delays between status queries of a pending purchase; the last repeats. */
  readonly statusQueryScheduleSeconds: readonly number[];
  /** Sandbox biller simulator latency. */
  readonly billerSimulatorLatencyMs: number;
}

export interface FeeTier {
  /** The tier covers amounts up to this (inclusive); undefined for "everything above". */
  readonly upToKobo: bigint | undefined;
  readonly feeKobo: bigint;
}

export interface TransferConfig {
  readonly nipFeeTiers: readonly FeeTier[];
  readonly vatBasisPoints: bigint;
  readonly perTransferLimitKobo: bigint;
  readonly dailyLimitKobo: bigint;
  /** Lower limits for accounts below full KYC, by KYC level. */
  readonly limitsByKycLevel: ReadonlyMap<string, KycLimits>;
  readonly nameEnquiryTtlSeconds: number;
  /** Delays between status queries of a transfer whose outcome is unknown; the last repeats. */
  readonly statusQueryScheduleSeconds: readonly number[];
  /** A status query's "no record" (25) is final only for a transfer at least this old. */
  readonly statusQueryNotFoundGraceSeconds: number;
  /**
   * A Completed NIP transfer is asked about once more this long after it completed, in case the
   * beneficiary bank returned it and the notice was lost; 0: never.
   */
  readonly returnCheckSeconds: number;
  readonly nipSimulatorLatencyMs: number;
  /** Sandbox: how long after it succeeds a kobo .81 transfer comes back. */
  readonly nipSimulatorReturnSeconds: number;
  readonly statusQueryWorker: StatusQueryWorkerConfig;
}

/** The worker that settles Processing NIP transfers by status query. */
export interface StatusQueryWorkerConfig {
  /** Run it inside the server process (the default); `npm run worker` runs it either way. */
  readonly enabled: boolean;
  readonly batchSize: number;
  readonly pollIntervalMs: number;
  /** How long a claimed transfer is hidden from other workers while the rail is asked. */
  readonly claimSeconds: number;
}

/**
 * Webhook retry delays after each failed attempt, in seconds: the Standard Webhooks schedule
 * (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h). After the last, the event fails and
 * waits for a replay.
 */
export const DEFAULT_RETRY_SCHEDULE_SECONDS: readonly number[] = [
  5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400,
];

/** How long the HTTP server waits for clients; a slow or silent client cannot hold a socket. */
export interface HttpServerConfig {
  /** The whole request (headers and body) must arrive within this, else 408 and close. */
  readonly requestTimeoutMs: number;
  /** The request headers must arrive within this (at most requestTimeoutMs). */
  readonly headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  readonly keepAliveTimeoutMs: number;
  /** A socket with no traffic for this long is destroyed (0: never). */
  readonly connectionTimeoutMs: number;
  /** How often Node checks the request and headers deadlines (its default is 30 s). */
  readonly connectionsCheckIntervalMs: number;
}

export interface WebhookConfig {
  /** Run the delivery worker inside the server process (the default). */
  readonly workerEnabled: boolean;
  readonly timeoutMs: number;
  readonly retryScheduleSeconds: readonly number[];
  readonly pollIntervalMs: number;
  readonly batchSize: number;
  /** Rounds a worker runs at once: the next claims and sends while one waits (default 2). */
  readonly roundsInFlight: number;
  readonly requireHttps: boolean;
  readonly allowLoopback: boolean;
  readonly allowPrivateNetworks: boolean;
  readonly secretRotationGraceSeconds: number;
}

/** The secrets a process runs with: from the environment, or generated once in sandbox. */
export interface Secrets {
  readonly adminToken: string;
  readonly tokenSigningSecret: string;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const MIN_SECRET_LENGTH = 32;

/** Parses the environment once; nothing else in OpenIBS reads process.env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const read: EnvReader = { env, problems: [] };
  const ibsEnv = readEnvironment(read);
  const production = ibsEnv === 'production';
  const port = readEnvInt(read, 'PORT', { fallback: 8080, min: 0, max: 65535 });
  const publicBaseUrl = readPublicBaseUrl(read, production, port);
  const config: Config = {
    ibsEnv,
    port,
    host: readEnvString(read, 'HOST', { fallback: '127.0.0.1' }) ?? '127.0.0.1',
    databaseUrl: readEnvString(read, 'DATABASE_URL', { required: production }),
    databasePoolSize: readEnvInt(read, 'DATABASE_POOL_SIZE', { fallback: 10, min: 1, max: 200 }),
    databasePoolIdleSeconds: readEnvInt(read, 'DATABASE_POOL_IDLE_SECONDS', {
      fallback: 0,
      min: 0,
      max: 86_400,
    }),
    groupCommitMaxWaiting: readEnvInt(read, 'GROUP_COMMIT_MAX_WAITING', {
      fallback: 5_000,
      min: 1,
      max: 1_000_000,
    }),
    dataDir: readEnvString(read, 'DATA_DIR', { fallback: './data' }) ?? './data',
    adminToken: readSecret(read, 'ADMIN_TOKEN', production),
    tokenSigningSecret: readSecret(read, 'TOKEN_SIGNING_SECRET', production),
    publicBaseUrl,
    ...readAssertionSettings(read, publicBaseUrl),
    institutionCode: readInstitutionCode(read, production),
    ...readTokenLifetimes(read),
    maxAmountKobo: readEnvNaira(read, 'MAX_AMOUNT_NAIRA', { fallback: '1000000000', min: 100n }),
    stampDutyKobo: BigInt(readEnvInt(read, 'STAMP_DUTY_KOBO', { fallback: 5000, min: 0 })),
    stampDutyThresholdKobo: BigInt(
      readEnvInt(read, 'STAMP_DUTY_THRESHOLD_KOBO', { fallback: 1_000_000, min: 0 }),
    ),
    sandboxDemoBalanceKobo: readEnvNaira(read, 'SANDBOX_DEMO_BALANCE_NAIRA', {
      fallback: '1000000',
    }),
    logLevel: readEnvString(read, 'LOG_LEVEL', { fallback: 'info' }) ?? 'info',
    logSync: readEnvBoolean(read, 'LOG_SYNC', false),
    http: readHttpServerConfig(read),
    webhooks: readWebhookConfig(read, production),
    transfers: readTransferConfig(read),
    identity: readIdentityConfig(read),
    virtualAccounts: readVirtualAccountConfig(read),
    ussd: readUssdConfig(read, (name, fallback) => readSchedule(read, name, fallback)),
    checkout: readCheckoutConfig(read),
    rateLimits: readRateLimitConfig(read),
    retention: readRetentionConfig(read),
    exposure: readExposureConfig(read, production),
    providers: readProviderGuardConfig(read),
    metrics: readMetricsConfig(read, production),
    vas: readVasConfig(read),
    alerts: readAlertsConfig(read, production),
    operators: readOperatorsConfig(read, production),
    sso: readSsoConfig(read, publicBaseUrl),
  };
  if (production && config.databaseUrl === undefined) {
    read.problems.push('production runs on PostgreSQL only: set DATABASE_URL');
  }
  if (read.problems.length > 0) {
    throw new ConfigError(`invalid configuration:\n  - ${read.problems.join('\n  - ')}`);
  }
  return Object.freeze(config);
}

/** How client assertions are judged (the token endpoint). */
function readAssertionSettings(read: EnvReader, publicBaseUrl: string) {
  return {
    assertionAudiences: readAudiences(read, publicBaseUrl),
    assertionRejectReusedJti: readEnvBoolean(read, 'ASSERTION_REJECT_REUSED_JTI', false),
    assertionMaxLifetimeSeconds: readEnvInt(read, 'ASSERTION_MAX_LIFETIME_SECONDS', {
      fallback: 3600,
      min: 60,
      max: 86_400,
    }),
    minRsaKeyBits: readEnvInt(read, 'MIN_RSA_KEY_BITS', { fallback: 2048, min: 1024, max: 16384 }),
  };
}

/** How long tokens live, and how soon a revocation reaches every process. */
function readTokenLifetimes(read: EnvReader) {
  return {
    accessTokenTtlSeconds: readEnvInt(read, 'ACCESS_TOKEN_TTL_SECONDS', {
      fallback: 3600,
      min: 60,
      max: 86400,
    }),
    revocationRefreshSeconds: readEnvInt(read, 'REVOCATION_REFRESH_SECONDS', {
      fallback: 2,
      min: 1,
      max: 60,
    }),
    refreshTokenTtlSeconds: readEnvInt(read, 'REFRESH_TOKEN_TTL_SECONDS', {
      fallback: 30 * 86400,
      min: 300,
      max: 365 * 86400,
    }),
  };
}

function readVasConfig(read: EnvReader): VasConfig {
  return Object.freeze({
    statusQueryScheduleSeconds: readSchedule(
      read,
      'VAS_STATUS_QUERY_SCHEDULE_SECONDS',
      [10, 30, 60, 300, 900, 3600],
    ),
    billerSimulatorLatencyMs: readEnvInt(read, 'VAS_BILLER_SIMULATOR_LATENCY_MS', {
      fallback: 0,
      min: 0,
      max: 10_000,
    }),
  });
}

function readHttpServerConfig(read: EnvReader): HttpServerConfig {
  const requestTimeoutMs = readEnvInt(read, 'HTTP_REQUEST_TIMEOUT_MS', {
    fallback: 30_000,
    min: 100,
    max: 600_000,
  });
  const headersTimeoutMs = readEnvInt(read, 'HTTP_HEADERS_TIMEOUT_MS', {
    fallback: Math.min(10_000, requestTimeoutMs),
    min: 100,
    max: 600_000,
  });
  if (headersTimeoutMs > requestTimeoutMs) {
    read.problems.push(
      `HTTP_HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not exceed HTTP_REQUEST_TIMEOUT_MS (${requestTimeoutMs})`,
    );
  }
  return Object.freeze({
    requestTimeoutMs,
    headersTimeoutMs: Math.min(headersTimeoutMs, requestTimeoutMs),
    keepAliveTimeoutMs: readEnvInt(read, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', {
      fallback: 72_000,
      min: 1_000,
      max: 600_000,
    }),
    connectionTimeoutMs: readEnvInt(read, 'HTTP_CONNECTION_TIMEOUT_MS', {
      fallback: 120_000,
      min: 0,
      max: 3_600_000,
    }),
    connectionsCheckIntervalMs: readEnvInt(read, 'HTTP_CONNECTIONS_CHECK_INTERVAL_MS', {
      fallback: 1_000,
      min: 50,
      max: 30_000,
    }),
  });
}

function readWebhookConfig(read: EnvReader, production: boolean): WebhookConfig {
  return Object.freeze({
    workerEnabled: readEnvBoolean(read, 'WEBHOOK_WORKER_ENABLED', true),
    timeoutMs: readEnvInt(read, 'WEBHOOK_TIMEOUT_MS', { fallback: 15_000, min: 100, max: 120_000 }),
    retryScheduleSeconds: readSchedule(read),
    pollIntervalMs: readEnvInt(read, 'WEBHOOK_POLL_INTERVAL_MS', {
      fallback: 250,
      min: 10,
      max: 60_000,
    }),
    batchSize: readEnvInt(read, 'WEBHOOK_BATCH_SIZE', { fallback: 32, min: 1, max: 500 }),
    roundsInFlight: readEnvInt(read, 'WEBHOOK_ROUNDS_IN_FLIGHT', { fallback: 2, min: 1, max: 8 }),
    requireHttps: readEnvBoolean(read, 'WEBHOOK_REQUIRE_HTTPS', production),
    allowLoopback: readEnvBoolean(read, 'WEBHOOK_ALLOW_LOOPBACK', !production),
    allowPrivateNetworks: readEnvBoolean(read, 'WEBHOOK_ALLOW_PRIVATE_NETWORKS', false),
    secretRotationGraceSeconds: readEnvInt(read, 'WEBHOOK_SECRET_ROTATION_GRACE_SECONDS', {
      fallback: 86_400,
      min: 0,
      max: 30 * 86_400,
    }),
  });
}

function readSchedule(
  read: EnvReader,
  name = 'WEBHOOK_RETRY_SCHEDULE_SECONDS',
  fallback: readonly number[] = DEFAULT_RETRY_SCHEDULE_SECONDS,
): readonly number[] {
  const raw = readEnvString(read, name, {});
  if (raw === undefined) {
    return fallback;
  }
  const delays = raw.split(',').map((item) => Number(item.trim()));
  if (delays.some((delay) => !Number.isFinite(delay) || delay < 0)) {
    read.problems.push(`${name} must be comma-separated seconds, got "${raw}"`);
    return fallback;
  }
  return delays;
}

function readTransferConfig(read: EnvReader): TransferConfig {
  const naira = (name: string, fallback: string) =>
    readEnvNaira(read, name, { fallback, min: 100n });
  return Object.freeze({
    nipFeeTiers: readFeeTiers(read),
    vatBasisPoints: BigInt(
      readEnvInt(read, 'VAT_BASIS_POINTS', { fallback: 750, min: 0, max: 10_000 }),
    ),
    perTransferLimitKobo: naira('TRANSFER_LIMIT_PER_TRANSACTION_NAIRA', '5000000'),
    dailyLimitKobo: naira('TRANSFER_LIMIT_DAILY_NAIRA', '25000000'),
    limitsByKycLevel: readKycLimits(read),
    nameEnquiryTtlSeconds: readEnvInt(read, 'NAME_ENQUIRY_TTL_SECONDS', {
      fallback: 1800,
      min: 10,
      max: 86_400,
    }),
    statusQueryScheduleSeconds: readSchedule(
      read,
      'STATUS_QUERY_SCHEDULE_SECONDS',
      [30, 60, 120, 300, 600, 1800, 3600],
    ),
    statusQueryNotFoundGraceSeconds: readEnvInt(read, 'STATUS_QUERY_NOT_FOUND_GRACE_SECONDS', {
      fallback: 300,
      min: 0,
      max: 86_400,
    }),
    returnCheckSeconds: readEnvInt(read, 'NIP_RETURN_CHECK_SECONDS', {
      fallback: 3600,
      min: 0,
      max: 30 * 86_400,
    }),
    nipSimulatorLatencyMs: readEnvInt(read, 'NIP_SIMULATOR_LATENCY_MS', {
      fallback: 0,
      min: 0,
      max: 10_000,
    }),
    nipSimulatorReturnSeconds: readEnvInt(read, 'NIP_SIMULATOR_RETURN_SECONDS', {
      fallback: 30,
      min: 0,
      max: 3600,
    }),
    statusQueryWorker: Object.freeze({
      enabled: readEnvBoolean(read, 'STATUS_QUERY_WORKER_ENABLED', true),
      batchSize: readEnvInt(read, 'STATUS_QUERY_BATCH_SIZE', { fallback: 16, min: 1, max: 1000 }),
      pollIntervalMs: readEnvInt(read, 'STATUS_QUERY_POLL_INTERVAL_MS', {
        fallback: 1000,
        min: 10,
        max: 60_000,
      }),
      claimSeconds: readEnvInt(read, 'STATUS_QUERY_CLAIM_SECONDS', {
        fallback: 60,
        min: 5,
        max: 3600,
      }),
    }),
  });
}

/** "5000:10,50000:25,*:50": up to ₦5,000 the fee is ₦10, up to ₦50,000 ₦25, above that ₦50. */
function readFeeTiers(read: EnvReader): readonly FeeTier[] {
  const raw = readEnvString(read, 'NIP_FEE_SCHEDULE', { fallback: '5000:10,50000:25,*:50' }) ?? '';
  const tiers = raw.split(',').map((tier) => {
    const [upTo = '', fee = ''] = tier.split(':').map((part) => part.trim());
    const upToKobo = upTo === '*' ? undefined : nairaTextToKobo(upTo);
    const feeKobo = nairaTextToKobo(fee);
    if ((upTo !== '*' && upToKobo === undefined) || feeKobo === undefined) {
      return undefined;
    }
    return { upToKobo, feeKobo };
  });
  if (tiers.some((tier) => tier === undefined) || tiers.at(-1)?.upToKobo !== undefined) {
    read.problems.push(`NIP_FEE_SCHEDULE must be "naira:fee,...,*:fee", got "${raw}"`);
    return [{ upToKobo: undefined, feeKobo: 0n }];
  }
  return tiers as FeeTier[];
}

function readEnvironment(read: EnvReader): IbsEnvironment {
  const value = readEnvString(read, 'IBS_ENV', { fallback: 'sandbox' });
  if (value === 'sandbox' || value === 'production') {
    return value;
  }
  read.problems.push(`IBS_ENV must be sandbox or production, got "${value}"`);
  return 'sandbox';
}

function readSecret(read: EnvReader, name: string, production: boolean): string | undefined {
  const value = readEnvString(read, name, { required: production });
  if (value !== undefined && value.length < MIN_SECRET_LENGTH) {
    read.problems.push(`${name} must be at least ${MIN_SECRET_LENGTH} characters`);
  }
  return value;
}

function readPublicBaseUrl(read: EnvReader, production: boolean, port: number): string {
  const value = readEnvString(read, 'PUBLIC_BASE_URL', { required: production });
  const url = value ?? `http://127.0.0.1:${port}`;
  if (!URL.canParse(url)) {
    read.problems.push(`PUBLIC_BASE_URL is not a URL: "${url}"`);
    return url;
  }
  return url.replace(/\/+$/, '');
}

function readAudiences(read: EnvReader, publicBaseUrl: string): string[] {
  const extra = readEnvString(read, 'ASSERTION_AUDIENCES', {}) ?? '';
  const listed = extra
    .split(',')
    .map((item) => item.trim().replace(/\/+$/, ''))
    .filter((item) => item.length > 0);
  return [...new Set([publicBaseUrl, `${publicBaseUrl}/oauth2/token`, ...listed])];
}

function readInstitutionCode(read: EnvReader, production: boolean): string {
  const value = readEnvString(read, 'INSTITUTION_CODE', { required: production }) ?? '999240';
  if (!/^\d{6}$/.test(value)) {
    read.problems.push(`INSTITUTION_CODE must be 6 digits, got "${value}"`);
  }
  return value;
}

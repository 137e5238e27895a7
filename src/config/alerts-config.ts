import { type EnvReader, readEnvBoolean, readEnvInt, readEnvString } from './env-reader.ts';

/** Customer debit and credit alerts (docs/alerts.md). */
export interface AlertsConfig {
  /** Run the alerts worker inside the server process (the default); `npm run worker` runs it. */
  readonly workerEnabled: boolean;
  /** The bank's name in every alert. */
  readonly bankName: string;
  /** An image the email shows above the alert; none by default. */
  readonly logoUrl: string | undefined;
  /** A folder whose alert.txt, alert.html and alert.sms.txt replace the defaults (any of them). */
  readonly templatesDir: string | undefined;
  /**
   * Where email goes: smtp://user:pass@host:port or smtps://…; unset: the sandbox keeps each
   * email in its inbox without sending it, production keeps them pending (and says why).
   */
  readonly smtpUrl: string | undefined;
  /** The From of every alert email. */
  readonly emailFrom: string;
  /** Notices turned into messages, and messages sent, per round. */
  readonly batchSize: number;
  readonly pollIntervalMs: number;
  /** Delays after each failed attempt (seconds); after the last, the message fails. */
  readonly retryScheduleSeconds: readonly number[];
  /** At most this many messages per account per minute; the rest wait their turn. */
  readonly perAccountPerMinute: number;
  /** How long a provider may take with one message. */
  readonly sendTimeoutMs: number;
  readonly statements: MonthlyStatementsConfig;
}

/** Monthly statements (docs/statements.md, "Monthly statements"). */
export interface MonthlyStatementsConfig {
  /** Run the monthly statements worker inside the server (the default); `npm run worker` runs it. */
  readonly workerEnabled: boolean;
  /** How often the worker looks for a month that ended (a sandbox clock advance wakes it). */
  readonly pollIntervalMs: number;
  /** Accounts whose statements are queued per round (one transaction). */
  readonly batchSize: number;
  /** Statement emails (each streaming its PDF) sent at once per round. */
  readonly sendBatchSize: number;
  /** How long one statement email may take to send, its PDF included. */
  readonly sendTimeoutMs: number;
  /** After downtime, at most this many ended months are sent, the latest ones, oldest first. */
  readonly catchUpMonths: number;
}

const DEFAULT_RETRY_SECONDS: readonly number[] = [10, 60, 300, 1800, 7200, 21600];

export function readAlertsConfig(read: EnvReader, production: boolean): AlertsConfig {
  const bankName = readEnvString(read, 'BANK_NAME', { fallback: 'OpenIBS' }) ?? 'OpenIBS';
  return Object.freeze({
    workerEnabled: readEnvBoolean(read, 'ALERTS_WORKER_ENABLED', true),
    bankName,
    logoUrl: readEnvString(read, 'BANK_LOGO_URL', {}),
    templatesDir: readEnvString(read, 'ALERT_TEMPLATES_DIR', {}),
    smtpUrl: readSmtpUrl(read),
    // No default sender address in production: it is the bank's, and mail servers judge it.
    emailFrom:
      readEnvString(read, 'ALERT_EMAIL_FROM', {
        required: production && read.env.SMTP_URL !== undefined && read.env.SMTP_URL !== '',
      }) ?? `${bankName} <alerts@openibs.invalid>`,
    batchSize: readEnvInt(read, 'ALERTS_BATCH_SIZE', { fallback: 32, min: 1, max: 500 }),
    pollIntervalMs: readEnvInt(read, 'ALERTS_POLL_INTERVAL_MS', {
      fallback: 500,
      min: 10,
      max: 60_000,
    }),
    retryScheduleSeconds: readRetrySchedule(read),
    perAccountPerMinute: readEnvInt(read, 'ALERTS_PER_ACCOUNT_PER_MINUTE', {
      fallback: 30,
      min: 1,
      max: 10_000,
    }),
    sendTimeoutMs: readEnvInt(read, 'ALERTS_SEND_TIMEOUT_MS', {
      fallback: 15_000,
      min: 100,
      max: 120_000,
    }),
    statements: readMonthlyStatementsConfig(read),
  });
}

function readMonthlyStatementsConfig(read: EnvReader): MonthlyStatementsConfig {
  return Object.freeze({
    workerEnabled: readEnvBoolean(read, 'MONTHLY_STATEMENTS_WORKER_ENABLED', true),
    pollIntervalMs: readEnvInt(read, 'MONTHLY_STATEMENTS_POLL_INTERVAL_MS', {
      fallback: 60_000,
      min: 10,
      max: 3_600_000,
    }),
    batchSize: readEnvInt(read, 'MONTHLY_STATEMENTS_BATCH_SIZE', {
      fallback: 100,
      min: 1,
      max: 1000,
    }),
    sendBatchSize: readEnvInt(read, 'MONTHLY_STATEMENTS_SEND_BATCH_SIZE', {
      fallback: 4,
      min: 1,
      max: 50,
    }),
    sendTimeoutMs: readEnvInt(read, 'MONTHLY_STATEMENTS_SEND_TIMEOUT_MS', {
      fallback: 300_000,
      min: 1000,
      max: 3_600_000,
    }),
    catchUpMonths: readEnvInt(read, 'MONTHLY_STATEMENTS_CATCH_UP_MONTHS', {
      fallback: 3,
      min: 1,
      max: 24,
    }),
  });
}

function readSmtpUrl(read: EnvReader): string | undefined {
  const value = readEnvString(read, 'SMTP_URL', {});
  if (value !== undefined && !/^smtps?:\/\//.test(value)) {
    read.problems.push('SMTP_URL must start with smtp:// or smtps://');
    return undefined;
  }
  return value;
}

function readRetrySchedule(read: EnvReader): readonly number[] {
  const raw = readEnvString(read, 'ALERTS_RETRY_SCHEDULE_SECONDS', {});
  if (raw === undefined) {
    return DEFAULT_RETRY_SECONDS;
  }
  const delays = raw.split(',').map((item) => Number(item.trim()));
  if (delays.some((delay) => !Number.isFinite(delay) || delay < 0)) {
    read.problems.push(
      `ALERTS_RETRY_SCHEDULE_SECONDS must be comma-separated seconds, got "${raw}"`,
    );
    return DEFAULT_RETRY_SECONDS;
  }
  return delays;
}

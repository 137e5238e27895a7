import { type EnvReader, readEnvInt } from './env-reader.ts';

export interface CheckoutConfig {
  /** How long a checkout session can be paid after it is opened. */
  readonly sessionTtlSeconds: number;
  /** How long the virtual account of a bank-transfer payment takes the payment. */
  readonly bankTransferValidForSeconds: number;
  /** Opened sessions per minute: from one IP address, and for one client. */
  readonly sessionsPerMinutePerIp: number;
  readonly sessionsPerMinutePerClient: number;
  /** Page calls (status polls, methods) per minute from one IP address. */
  readonly pageCallsPerMinutePerIp: number;
}

export function readCheckoutConfig(read: EnvReader): CheckoutConfig {
  const sessionTtlSeconds = readEnvInt(read, 'CHECKOUT_SESSION_TTL_SECONDS', {
    fallback: 3600,
    min: 60,
    max: 86_400,
  });
  return Object.freeze({
    sessionTtlSeconds,
    bankTransferValidForSeconds: readEnvInt(read, 'CHECKOUT_BANK_TRANSFER_VALID_FOR_SECONDS', {
      fallback: 1800,
      min: 60,
      max: 86_400,
    }),
    sessionsPerMinutePerIp: readEnvInt(read, 'CHECKOUT_SESSIONS_PER_MINUTE_PER_IP', {
      fallback: 30,
      min: 1,
      max: 100_000,
    }),
    sessionsPerMinutePerClient: readEnvInt(read, 'CHECKOUT_SESSIONS_PER_MINUTE_PER_CLIENT', {
      fallback: 300,
      min: 1,
      max: 1_000_000,
    }),
    pageCallsPerMinutePerIp: readEnvInt(read, 'CHECKOUT_PAGE_CALLS_PER_MINUTE_PER_IP', {
      fallback: 600,
      min: 1,
      max: 1_000_000,
    }),
  });
}

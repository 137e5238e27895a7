import { type EnvReader, readEnvBoolean, readEnvInt } from './env-reader.ts';

/** Deadlines and circuit breakers of the vendors' calls (docs/deployment.md). */
export interface ProviderGuardConfig {
  readonly railTimeoutMs: number;
  readonly billerTimeoutMs: number;
  readonly identityBureauTimeoutMs: number;
  readonly ussdGatewayTimeoutMs: number;
  readonly breakerEnabled: boolean;
  readonly breakerErrorThresholdPercent: number;
  readonly breakerMinimumCalls: number;
  readonly breakerResetTimeoutMs: number;
}

export function readProviderGuardConfig(read: EnvReader): ProviderGuardConfig {
  const timeout = (name: string) =>
    readEnvInt(read, name, { fallback: 10_000, min: 50, max: 120_000 });
  return Object.freeze({
    railTimeoutMs: timeout('RAIL_TIMEOUT_MS'),
    billerTimeoutMs: timeout('BILLER_TIMEOUT_MS'),
    identityBureauTimeoutMs: timeout('IDENTITY_BUREAU_TIMEOUT_MS'),
    ussdGatewayTimeoutMs: timeout('USSD_GATEWAY_TIMEOUT_MS'),
    breakerEnabled: readEnvBoolean(read, 'PROVIDER_BREAKER_ENABLED', true),
    breakerErrorThresholdPercent: readEnvInt(read, 'PROVIDER_BREAKER_ERROR_PERCENT', {
      fallback: 50,
      min: 1,
      max: 100,
    }),
    breakerMinimumCalls: readEnvInt(read, 'PROVIDER_BREAKER_MIN_CALLS', {
      fallback: 20,
      min: 1,
      max: 100_000,
    }),
    breakerResetTimeoutMs: readEnvInt(read, 'PROVIDER_BREAKER_RESET_MS', {
      fallback: 30_000,
      min: 100,
      max: 600_000,
    }),
  });
}

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from './config.ts';

const PRODUCTION = {
  IBS_ENV: 'production',
  DATABASE_URL: 'postgres://db.internal/openibs',
  ADMIN_TOKEN: 'a'.repeat(40),
  TOKEN_SIGNING_SECRET: 'b'.repeat(40),
  OPERATOR_SECRETS_KEY: 'c'.repeat(64),
  PUBLIC_BASE_URL: 'https://api.bank.example/',
  INSTITUTION_CODE: '090286',
};

describe('metrics configuration', () => {
  it('sandbox serves /metrics without a token', () => {
    const { metrics } = loadConfig({});
    assert.deepEqual(metrics, { enabled: true, token: undefined, collectTimeoutMs: 1_000 });
  });

  it('production serves /metrics only with METRICS_TOKEN, and then asks for it', () => {
    assert.equal(loadConfig(PRODUCTION).metrics.enabled, false);
    const { metrics } = loadConfig({ ...PRODUCTION, METRICS_TOKEN: 'm'.repeat(32) });
    assert.equal(metrics.enabled, true);
    assert.equal(metrics.token, 'm'.repeat(32));
  });

  it('METRICS_ENABLED=false turns /metrics off, with or without a token', () => {
    assert.equal(loadConfig({ METRICS_ENABLED: 'false' }).metrics.enabled, false);
    const withToken = { ...PRODUCTION, METRICS_TOKEN: 'm'.repeat(32), METRICS_ENABLED: 'false' };
    assert.equal(loadConfig(withToken).metrics.enabled, false);
    assert.equal(loadConfig({ METRICS_ENABLED: 'true' }).metrics.enabled, true);
  });

  it('refuses a short token and an unbounded collect timeout', () => {
    assert.throws(
      () => loadConfig({ METRICS_TOKEN: 'short', METRICS_COLLECT_TIMEOUT_MS: '60000' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        /METRICS_TOKEN must be at least 32 characters/.test(error.message) &&
        /METRICS_COLLECT_TIMEOUT_MS/.test(error.message),
    );
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_LATENCY_MS } from '../rails/nip/nip-simulator.ts';
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

describe('loadConfig', () => {
  it('runs sandbox with no environment at all, on PGlite under ./data', () => {
    const config = loadConfig({});
    assert.equal(config.ibsEnv, 'sandbox');
    assert.equal(config.databaseUrl, undefined);
    assert.equal(config.dataDir, './data');
    assert.equal(config.port, 8080);
    assert.equal(config.institutionCode, '999240');
    assert.equal(config.adminToken, undefined);
    assert.ok(Object.isFrozen(config));
  });

  it('reads DATABASE_POOL_IDLE_SECONDS (default 0: never), refusing what is not a count', () => {
    assert.equal(loadConfig({}).databasePoolIdleSeconds, 0);
    assert.equal(loadConfig({ DATABASE_POOL_IDLE_SECONDS: '300' }).databasePoolIdleSeconds, 300);
    assert.throws(() => loadConfig({ DATABASE_POOL_IDLE_SECONDS: '-1' }), /DATABASE_POOL_IDLE/);
  });

  it('logs at info, in the background unless LOG_SYNC', () => {
    assert.equal(loadConfig({}).logLevel, 'info');
    assert.equal(loadConfig({}).logSync, false);
    assert.equal(loadConfig({ LOG_SYNC: 'true' }).logSync, true);
  });

  it('reads a complete production environment', () => {
    const config = loadConfig(PRODUCTION);
    assert.equal(config.publicBaseUrl, 'https://api.bank.example');
    assert.deepEqual(config.assertionAudiences, [
      'https://api.bank.example',
      'https://api.bank.example/oauth2/token',
    ]);
  });

  it('refuses production without secrets, database or base URL, naming each', () => {
    for (const name of [
      'ADMIN_TOKEN',
      'TOKEN_SIGNING_SECRET',
      'OPERATOR_SECRETS_KEY',
      'DATABASE_URL',
      'PUBLIC_BASE_URL',
    ]) {
      const env: Record<string, string> = { ...PRODUCTION };
      delete env[name];
      assert.throws(
        () => loadConfig(env),
        (error: Error) => {
          assert.ok(error instanceof ConfigError);
          assert.match(error.message, new RegExp(name));
          return true;
        },
      );
    }
  });

  it('refuses short secrets and malformed values, all reported at once', () => {
    assert.throws(
      () =>
        loadConfig({
          ...PRODUCTION,
          ADMIN_TOKEN: 'short',
          PORT: 'eighty',
          IBS_ENV: 'production',
          INSTITUTION_CODE: '12',
          ASSERTION_REJECT_REUSED_JTI: 'perhaps',
        }),
      (error: Error) => {
        for (const name of [
          'ADMIN_TOKEN',
          'PORT',
          'INSTITUTION_CODE',
          'ASSERTION_REJECT_REUSED_JTI',
        ]) {
          assert.match(error.message, new RegExp(name));
        }
        return true;
      },
    );
    assert.throws(() => loadConfig({ IBS_ENV: 'staging' }), /IBS_ENV/);
  });

  it('guards webhook destinations: https and public addresses only in production', () => {
    const production = loadConfig(PRODUCTION).webhooks;
    assert.equal(production.requireHttps, true);
    assert.equal(production.allowLoopback, false);
    const sandbox = loadConfig({}).webhooks;
    assert.equal(sandbox.requireHttps, false);
    assert.equal(sandbox.allowLoopback, true);
    assert.equal(sandbox.allowPrivateNetworks, false);
    assert.deepEqual(
      sandbox.retryScheduleSeconds,
      [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400],
    );
    assert.deepEqual(
      loadConfig({ WEBHOOK_RETRY_SCHEDULE_SECONDS: '1, 2' }).webhooks.retryScheduleSeconds,
      [1, 2],
    );
    assert.throws(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE_SECONDS: '1,soon' }), /WEBHOOK_RETRY/);
  });

  it('adds extra assertion audiences', () => {
    const config = loadConfig({ ASSERTION_AUDIENCES: 'https://api.sandbox.safehavenmfb.com/, x' });
    assert.ok(config.assertionAudiences.includes('https://api.sandbox.safehavenmfb.com'));
  });

  it('caps client assertion lifetimes at one hour unless configured', () => {
    assert.equal(loadConfig({}).assertionMaxLifetimeSeconds, 3600);
    assert.equal(
      loadConfig({ ASSERTION_MAX_LIFETIME_SECONDS: '86400' }).assertionMaxLifetimeSeconds,
      86400,
    );
    for (const value of ['0', '59', '86401', 'an hour']) {
      assert.throws(
        () => loadConfig({ ASSERTION_MAX_LIFETIME_SECONDS: value }),
        /ASSERTION_MAX_LIFETIME_SECONDS/,
      );
    }
  });

  it('bounds HTTP requests by default, and refuses a headers timeout above the request timeout', () => {
    assert.deepEqual(loadConfig({}).http, {
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      keepAliveTimeoutMs: 72_000,
      connectionTimeoutMs: 120_000,
      connectionsCheckIntervalMs: 1_000,
    });
    // A short request timeout pulls the default headers timeout down with it.
    assert.equal(loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '5000' }).http.headersTimeoutMs, 5000);
    assert.throws(
      () => loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '5000', HTTP_HEADERS_TIMEOUT_MS: '6000' }),
      /HTTP_HEADERS_TIMEOUT_MS .* must not exceed HTTP_REQUEST_TIMEOUT_MS/,
    );
    for (const name of [
      'HTTP_REQUEST_TIMEOUT_MS',
      'HTTP_KEEP_ALIVE_TIMEOUT_MS',
      'HTTP_CONNECTION_TIMEOUT_MS',
      'HTTP_CONNECTIONS_CHECK_INTERVAL_MS',
    ]) {
      assert.throws(() => loadConfig({ [name]: '-1' }), new RegExp(name));
    }
  });

  it('accepts only a NIP simulator latency the simulator itself accepts', () => {
    assert.equal(
      loadConfig({ NIP_SIMULATOR_LATENCY_MS: String(MAX_LATENCY_MS) }).transfers
        .nipSimulatorLatencyMs,
      MAX_LATENCY_MS,
    );
    assert.throws(
      () => loadConfig({ NIP_SIMULATOR_LATENCY_MS: String(MAX_LATENCY_MS + 1) }),
      /NIP_SIMULATOR_LATENCY_MS/,
    );
  });

  it('reads the transfer status-query settings', () => {
    const transfers = loadConfig({}).transfers;
    assert.deepEqual(transfers.statusQueryScheduleSeconds, [30, 60, 120, 300, 600, 1800, 3600]);
    assert.equal(transfers.statusQueryNotFoundGraceSeconds, 300);
    assert.equal(
      loadConfig({ STATUS_QUERY_NOT_FOUND_GRACE_SECONDS: '0' }).transfers
        .statusQueryNotFoundGraceSeconds,
      0,
    );
  });

  it('reads the return window and the sandbox return delay, each bounded', () => {
    const transfers = loadConfig({}).transfers;
    assert.equal(transfers.returnCheckSeconds, 3600);
    assert.equal(transfers.nipSimulatorReturnSeconds, 30);
    const set = loadConfig({ NIP_RETURN_CHECK_SECONDS: '0', NIP_SIMULATOR_RETURN_SECONDS: '5' });
    assert.equal(set.transfers.returnCheckSeconds, 0);
    assert.equal(set.transfers.nipSimulatorReturnSeconds, 5);
    assert.throws(() => loadConfig({ NIP_SIMULATOR_RETURN_SECONDS: '3601' }), /RETURN_SECONDS/);
    assert.throws(() => loadConfig({ NIP_RETURN_CHECK_SECONDS: '-1' }), /RETURN_CHECK_SECONDS/);
  });

  it('reads transfer limits by KYC level', () => {
    const defaults = loadConfig({}).transfers.limitsByKycLevel;
    assert.deepEqual(defaults.get('2'), { perTransferKobo: 20_000_000n, dailyKobo: 50_000_000n });
    assert.equal(defaults.get('3'), undefined, 'full KYC has only the general limits');
    const custom = loadConfig({ TRANSFER_LIMITS_BY_KYC_NAIRA: '1:10/20' }).transfers
      .limitsByKycLevel;
    assert.deepEqual([...custom.keys()], ['1']);
    assert.throws(
      () => loadConfig({ TRANSFER_LIMITS_BY_KYC_NAIRA: '4:1/2' }),
      /TRANSFER_LIMITS_BY_KYC/,
    );
  });
});

import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { type Config, loadConfig, type Secrets } from '../src/config/config.ts';
import type { Db } from '../src/db/db.ts';
import type { Rail } from '../src/rails/rail.ts';
import { createServices, type Services } from '../src/services.ts';
import { ManualClock } from '../src/shared/clock.ts';
import { createTestDb } from './test-db.ts';

export const TEST_SECRETS: Secrets = {
  adminToken: 'test-admin-token-0123456789abcdefghijklmnop',
  tokenSigningSecret: 'test-signing-secret-0123456789abcdefghijklmnop',
};

export const TEST_BASE_URL = 'http://openibs.test';

/**
 * Tests send far more from one client and one address than any limit allows; the limits have
 * tests of their own that set them (src/http/plugins/rate-limits.test.ts).
 */
export const NO_RATE_LIMITS = {
  RATE_LIMIT_TOKEN_PER_MINUTE_PER_IP: '0',
  RATE_LIMIT_ADMIN_PER_MINUTE_PER_IP: '0',
  RATE_LIMIT_ADMIN_FAILURES_PER_MINUTE_PER_IP: '0',
  RATE_LIMIT_API_PER_MINUTE_PER_CLIENT: '0',
  RATE_LIMIT_NAME_ENQUIRY_PER_MINUTE_PER_CLIENT: '0',
  RATE_LIMIT_NAME_ENQUIRY_MISSES_PER_HOUR_PER_CLIENT: '0',
} as const;

export interface TestApp {
  readonly app: FastifyInstance;
  readonly db: Db;
  readonly clock: ManualClock;
  readonly config: Config;
  readonly services: Services;
  close(): Promise<void>;
}

/**
 * Here the sessions' clock is the test clock (a server's is the wall clock): tests that move the
 * bank's clock by hours keep their dashboard sign-in unless they test the idle timeout itself.
 */
const SESSIONS_OUTLAST_THE_CLOCK = { OPERATOR_SESSION_IDLE_SECONDS: '86400' };

function testConfig(env: Record<string, string>): Config {
  return loadConfig({
    PUBLIC_BASE_URL: TEST_BASE_URL,
    ...NO_RATE_LIMITS,
    ...SESSIONS_OUTLAST_THE_CLOCK,
    ...env,
  });
}

/** The app as production builds it, on a fresh database, with a clock the test controls. */
export async function buildTestApp(
  env: Record<string, string> = {},
  options: {
    clockStart?: Date;
    poolSize?: number;
    /** The rail to use instead of the configured one (sandbox: the NIP simulator). */
    rail?: (config: Config, clock: ManualClock, db: Db) => Rail;
  } = {},
): Promise<TestApp> {
  const testDb = await createTestDb(
    options.poolSize === undefined ? {} : { poolSize: options.poolSize },
  );
  const config = testConfig(env);
  const clock = new ManualClock(options.clockStart ?? new Date('2026-03-02T09:00:00.000Z'));
  // One service graph for the app and the services a test drives directly.
  const services = createServices({
    config,
    db: testDb.db,
    clock,
    secrets: TEST_SECRETS,
    ...(options.rail === undefined ? {} : { rail: options.rail(config, clock, testDb.db) }),
  });
  const app = await buildApp({ config, services, db: testDb.db, clock, secrets: TEST_SECRETS });
  await app.ready();
  return {
    app,
    db: testDb.db,
    clock,
    config,
    services,
    async close() {
      await app.close();
      await testDb.close();
    },
  };
}

/**
 * A second app on the test app's database, with its own service graph (its own group commits,
 * caches and revocation list): what another server process would be, in this process. `env`
 * configures it differently (another process's settings), over the harness's own.
 */
export async function buildSecondApp(
  testApp: TestApp,
  env?: Record<string, string>,
): Promise<FastifyInstance> {
  const config = env === undefined ? testApp.config : testConfig(env);
  const services = createServices({
    config,
    db: testApp.db,
    clock: testApp.clock,
    secrets: TEST_SECRETS,
  });
  const app = await buildApp({
    config,
    services,
    db: testApp.db,
    clock: testApp.clock,
    secrets: TEST_SECRETS,
  });
  await app.ready();
  return app;
}

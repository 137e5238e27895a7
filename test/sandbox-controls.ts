import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/app.ts';
import { createBackgroundWorkers } from '../src/background-workers.ts';
import { type Config, loadConfig } from '../src/config/config.ts';
import type { Db } from '../src/db/db.ts';
import { createServices, type Services } from '../src/services.ts';
import { SandboxClock, systemClock } from '../src/shared/clock.ts';
import { adminHeaders, createClient, signAssertion, type TestClient } from './factories.ts';
import { buildTestApp, NO_RATE_LIMITS, TEST_BASE_URL, TEST_SECRETS } from './harness.ts';
import { createTestDb } from './test-db.ts';

/** A production configuration: no sandbox controls, no simulators. */
export const PRODUCTION_ENV = {
  IBS_ENV: 'production',
  DATABASE_URL: 'postgres://unused.invalid/db',
  ADMIN_TOKEN: 'test-admin-token-0123456789abcdefghijklmnop',
  TOKEN_SIGNING_SECRET: 'test-signing-secret-0123456789abcdefghijklmnop',
  OPERATOR_SECRETS_KEY: 'c'.repeat(64),
  PUBLIC_BASE_URL: 'https://bank.example',
  INSTITUTION_CODE: '090286',
} as const;

/** Each request as the operator sends it (with the admin token) to an app built for production. */
export async function inProduction(
  requests: readonly Omit<InjectOptions, 'headers'>[],
): Promise<LightMyRequestResponse[]> {
  const production = await buildTestApp(PRODUCTION_ENV);
  try {
    const answers: LightMyRequestResponse[] = [];
    for (const request of requests) {
      answers.push(await production.app.inject({ ...request, headers: adminHeaders }));
    }
    return answers;
  } finally {
    await production.close();
  }
}

/** A sandbox app composed as src/server.ts composes it, with its workers running. */
export interface SandboxApp {
  readonly app: FastifyInstance;
  readonly db: Db;
  readonly clock: SandboxClock;
  readonly config: Config;
  readonly services: Services;
  readonly workers: ReturnType<typeof createBackgroundWorkers>;
  close(): Promise<void>;
}

/**
 * The bank as `npm start` runs it in the sandbox: the running test clock (real time plus an
 * offset) for the bank, real time for what it must not move, and the background workers started
 * on polls a minute apart, so that within a test only a clock advance makes them look again.
 */
export async function buildSandboxApp(env: Record<string, string> = {}): Promise<SandboxApp> {
  const testDb = await createTestDb();
  const config = loadConfig({
    PUBLIC_BASE_URL: TEST_BASE_URL,
    ...NO_RATE_LIMITS,
    STATUS_QUERY_POLL_INTERVAL_MS: '60000',
    WEBHOOK_POLL_INTERVAL_MS: '60000',
    ...env,
  });
  const clock = new SandboxClock();
  const deps = { config, db: testDb.db, clock, wallClock: systemClock };
  const services = createServices({ ...deps, secrets: TEST_SECRETS });
  const app = await buildApp({ ...deps, services, secrets: TEST_SECRETS });
  await app.ready();
  const workers = createBackgroundWorkers({
    ...deps,
    services,
    report: { onError: () => {}, onRecovered: () => {} },
  });
  workers.start();
  return {
    ...deps,
    app,
    services,
    workers,
    async close() {
      await app.close();
      await workers.stop();
      await testDb.close();
    },
  };
}

/**
 * A client signed in to a sandbox app, its assertion signed at real time as a client's own
 * clock would sign it, whatever the bank's clock says.
 */
export async function signInToSandbox(sandbox: SandboxApp, name: string, keyIndex = 0) {
  const client = await createClient(sandbox.app, name, keyIndex);
  const tokens = await tokenFor(sandbox, client);
  return {
    client,
    tokens,
    headers: { authorization: `Bearer ${tokens.access_token}`, clientid: client.ibsClientId },
  };
}

/** POST /oauth2/token (client credentials) with an assertion signed now, in real time. */
export async function tokenFor(sandbox: SandboxApp, client: TestClient) {
  const response = await sandbox.app.inject({
    method: 'POST',
    url: '/oauth2/token',
    payload: {
      grant_type: 'client_credentials',
      client_id: client.oauthClientId,
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: await signAssertion(client, { now: new Date() }),
    },
  });
  if (response.statusCode !== 201) {
    throw new Error(`token exchange failed: ${response.body}`);
  }
  return response.json() as { access_token: string; refresh_token: string };
}

/** POST /admin/sandbox/clock { advance }; throws unless it answers 200. */
export async function advanceClock(app: FastifyInstance, advance: string) {
  const response = await app.inject({
    method: 'POST',
    url: '/admin/sandbox/clock',
    headers: adminHeaders,
    payload: { advance },
  });
  if (response.statusCode !== 200) {
    throw new Error(`clock advance failed: ${response.body}`);
  }
  return response.json().data as { now: string; offsetSeconds: number; frozen: boolean };
}

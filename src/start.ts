import { createServer } from 'node:net';
import type { FastifyBaseLogger, FastifyInstance, FastifyServerOptions } from 'fastify';
import { Redis } from 'ioredis';
import pino from 'pino';
import { buildApp } from './app.ts';
import { createBackgroundWorkers, reportTo } from './background-workers.ts';
import { type Config, loadConfig, type Secrets } from './config/config.ts';
import { createDb } from './db/create-db.ts';
import type { Db } from './db/db.ts';
import { type DeferredDb, deferredDb } from './db/deferred-db.ts';
import { migrate } from './db/migrate.ts';
import { createPgliteDb } from './db/pglite-db.ts';
import { migratedImage } from './db/pglite-image.ts';
import { requestForLog } from './http/request-log.ts';
import {
  createDemoClient,
  type DemoKeyPair,
  demoKeyPair,
  ensureDemoClient,
} from './sandbox/demo-client.ts';
import { demoWorld } from './sandbox/fixtures/index.ts';
import { resolveSecrets } from './sandbox/secrets.ts';
import { createServices, type Services } from './services.ts';
import { type Clock, SandboxClock, systemClock } from './shared/clock.ts';
import { newSecretToken } from './shared/ids.ts';

export interface StartOptions {
  /** The environment the configuration is read from (default: this process's). */
  readonly env?: NodeJS.ProcessEnv;
  /**
   * Sandbox only: an embedded database in memory, started from a migrated image, with secrets
   * made for this run; nothing is read from or written to DATA_DIR.
   */
  readonly memory?: boolean;
  /** Overrides PORT; 0 picks a free port. */
  readonly port?: number;
  /** Overrides HOST. */
  readonly host?: string;
  /** Fastify's logger (default: the configured level, requests without secrets). */
  readonly logger?: FastifyServerOptions['logger'];
  /**
   * Sandbox: make the demo client (default true). A caller that loads fixtures passes false:
   * the fixtures are the whole world.
   */
  readonly demoClient?: boolean;
}

/** The sandbox's demo client, made at the first start of a data folder or of a memory run. */
export interface StartedDemoClient {
  readonly ibsClientId: string;
  readonly oauthClientId: string;
  readonly mainAccountNumber: string;
  /** In a memory run, its private key (PKCS#8 PEM); on disk, the key file's path instead. */
  readonly privateKeyPem: string | undefined;
  readonly privateKeyFile: string | undefined;
  readonly created: boolean;
}

export interface StartedServer {
  readonly url: string;
  readonly port: number;
  readonly config: Config;
  readonly secrets: Secrets;
  readonly app: FastifyInstance;
  readonly services: Services;
  readonly db: Db;
  /** Sandbox: the demo client; production: undefined. */
  readonly demo: StartedDemoClient | undefined;
  close(): Promise<void>;
}

/**
 * Starts OpenIBS as `npm start` runs it: configuration, database, migrations, services, the
 * HTTP app, the background workers, and in the sandbox the demo client. Used by the server's
 * entry, the CLI's `start` and `openibs/testing`.
 */
export async function startServer(options: StartOptions = {}): Promise<StartedServer> {
  const config = loadConfig(await environmentOf(options));
  const memory = options.memory === true;
  refuseMemoryOutsideSandbox(config, memory);
  const wantsDemo = config.ibsEnv === 'sandbox' && options.demoClient !== false;
  // A memory run always makes its demo client: its key pair is made while the rest starts.
  const demoKeys = memory && wantsDemo ? demoKeyPair() : undefined;
  const secrets = memory ? memorySecrets(config) : await resolveSecrets(config);
  let log: Pick<FastifyBaseLogger, 'warn' | 'error'> | undefined;
  const db = await openDatabase(config, memory, () => log);
  // The sandbox runs on a test clock an operator or a test can move (POST /admin/sandbox/clock);
  // what it must not move (client assertions, dashboard sign-ins) keeps real time.
  const sandboxClock = config.ibsEnv === 'sandbox' ? new SandboxClock() : undefined;
  const clock: Clock = sandboxClock ?? systemClock;
  const services = createServices({
    config,
    db,
    clock,
    wallClock: systemClock,
    // A reset puts the test clock back to the fixtures' settings, or to real time.
    ...(sandboxClock === undefined ? {} : { sandboxClock }),
    secrets,
    onAuditError: (error) => log?.error({ err: error }, 'an audit event was not recorded'),
  });
  const redis = sharedLimitsRedis(config);
  const app = await buildApp({
    redis,
    config,
    services,
    db,
    clock,
    secrets,
    logger: options.logger ?? defaultLogger(config),
  });
  log = app.log;
  const workers = createBackgroundWorkers({
    config,
    db,
    clock,
    wallClock: systemClock,
    services,
    // A run of failed rounds is reported once a minute, with how many failed in a row.
    report: reportTo(app.log),
  });
  await whenOpen(db, app);
  await app.listen({ port: config.port, host: config.host });
  workers.start();
  const demo = wantsDemo
    ? await demoClient({ config, services, memory, log: app.log, keys: demoKeys })
    : undefined;
  return {
    url: config.publicBaseUrl,
    port: config.port,
    config,
    secrets,
    app,
    services,
    db,
    demo,
    async close() {
      await app.close();
      await workers.stop();
      await db.close();
      redis?.disconnect();
    },
  };
}

/**
 * A memory run keeps nothing when it stops: only the sandbox may run so, and never in place of
 * a configured database.
 */
function refuseMemoryOutsideSandbox(config: Config, memory: boolean): void {
  if (memory && (config.ibsEnv !== 'sandbox' || config.databaseUrl !== undefined)) {
    throw new Error(
      '--memory runs the sandbox on an embedded database: unset IBS_ENV and DATABASE_URL',
    );
  }
}

/**
 * Requests are logged without their credentials (headers, query values) or bodies, to standard
 * output: written in the background unless LOG_SYNC (pino flushes what is left when the process
 * exits). The request's serializer is what keeps them out: it writes only the fields it names, so
 * no header or body ever reaches the line. (pino's `redact` paths for them, kept here before,
 * could never match, and copied every request's line to look: ~5 % of a read's CPU.)
 */
function defaultLogger(config: Config): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    serializers: { req: requestForLog },
    stream: pino.destination({ dest: 1, sync: config.logSync }),
  };
}

/** The environment the configuration is read from, with the options' host and port in it. */
async function environmentOf(options: StartOptions): Promise<NodeJS.ProcessEnv> {
  const env = { ...(options.env ?? process.env) };
  if (options.host !== undefined) {
    env.HOST = options.host;
  }
  if (options.port !== undefined) {
    // Port 0: a free port is found first, so the configured base URL (the assertions' audience)
    // names the port the server really listens on.
    env.PORT = String(options.port === 0 ? await freePort(env.HOST ?? '127.0.0.1') : options.port);
  }
  return env;
}

/**
 * The database, migrated: embedded in memory from the migrated image, or the configured one. A
 * lost connection is logged (once the app's logger exists) and answered 503 until it is back.
 */
async function openDatabase(
  config: Config,
  memory: boolean,
  log: () => Pick<FastifyBaseLogger, 'warn'> | undefined,
): Promise<Db | DeferredDb> {
  if (memory) {
    // Opened while the services and the app are built; the server listens once it is open.
    return deferredDb('pglite', openMemoryDb());
  }
  const db = await createDb(config, {
    onConnectionError: (error, unreported) =>
      log()?.warn(
        { err: error, unreported },
        'database connection lost (requests answer 503 until it is back)',
      ),
  });
  await migrate(db);
  return db;
}

/** A database still opening (a memory run) is waited for; the app closes if it fails to. */
async function whenOpen(db: Db | DeferredDb, app: FastifyInstance): Promise<void> {
  if ('ready' in db) {
    await db.ready.catch(async (error: unknown) => {
      await app.close();
      throw error;
    });
  }
}

/** Shared rate-limit counters, when several server processes must count together. */
function sharedLimitsRedis(config: Config): Redis | undefined {
  return config.rateLimits.redisUrl === undefined
    ? undefined
    : new Redis(config.rateLimits.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
}

/** A memory run's secrets: those the environment sets, else new ones, kept nowhere. */
function memorySecrets(config: Config): Secrets {
  return {
    adminToken: config.adminToken ?? newSecretToken(32),
    tokenSigningSecret: config.tokenSigningSecret ?? newSecretToken(48),
  };
}

/** A memory run's database: a copy of the migrated image, checked against the migrations. */
async function openMemoryDb(): Promise<Db> {
  // The image is the one made from exactly these migrations and function files
  // (pglite-image.ts fingerprints both): there is nothing to migrate.
  return createPgliteDb({ dataDir: undefined, image: (await migratedImage()).tarball });
}

async function demoClient(options: {
  config: Config;
  services: Services;
  memory: boolean;
  log: Pick<FastifyBaseLogger, 'warn'>;
  keys: Promise<DemoKeyPair> | undefined;
}): Promise<StartedDemoClient> {
  const { config, services, memory, log } = options;
  const deps = {
    demoBalanceKobo: config.sandboxDemoBalanceKobo,
    clientService: services.clientService,
    network: services.rail,
    ...(options.keys === undefined ? {} : { keys: options.keys }),
  };
  // Without fixtures, a reset goes back to the demo client (docs/fixtures.md).
  const balanceKobo = config.sandboxDemoBalanceKobo;
  if (memory) {
    const made = await createDemoClient(deps);
    services.sandboxFixtures?.useDefaultWorld(await demoWorld(made, balanceKobo));
    return { ...made, privateKeyFile: undefined, created: true };
  }
  const { demo, created } = await ensureDemoClient({
    ...deps,
    dataDir: config.dataDir,
    baseUrl: config.publicBaseUrl,
  });
  try {
    services.sandboxFixtures?.useDefaultWorld(await demoWorld(demo, balanceKobo));
  } catch (error) {
    log.warn({ err: error }, "the demo client's key is unreadable: a reset empties the bank");
  }
  return { ...demo, privateKeyPem: undefined, created };
}

/** A port nobody listens on now (the OS picks it); taken by the server a moment later. */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

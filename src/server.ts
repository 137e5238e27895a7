import closeWithGrace from 'close-with-grace';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { buildApp } from './app.ts';
import { createBackgroundWorkers, reportTo } from './background-workers.ts';
import { type Config, ConfigError, loadConfig } from './config/config.ts';
import { createDb } from './db/create-db.ts';
import { migrate } from './db/migrate.ts';
import { requestForLog } from './http/request-log.ts';
import { sandboxBanner } from './sandbox/banner.ts';
import { type DemoClient, ensureDemoClient } from './sandbox/demo-client.ts';
import { demoWorld } from './sandbox/fixtures/index.ts';
import { resolveSecrets } from './sandbox/secrets.ts';
import { createServices, type Services } from './services.ts';
import { systemClock } from './shared/clock.ts';

/** Process entry: config, database, migrations, services, app, listen; closes on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const secrets = await resolveSecrets(config);
  // Broken connections (a database restart) are reported through the app's logger once it exists.
  let log: Pick<FastifyBaseLogger, 'warn' | 'info' | 'error'> | undefined;
  const db = await createDb(config, {
    onConnectionError: (error, unreported) =>
      log?.warn(
        { err: error, unreported },
        'database connection lost (requests answer 503 until it is back)',
      ),
  });
  await migrate(db);
  const services = createServices({
    config,
    db,
    clock: systemClock,
    secrets,
    onAuditError: (error) => log?.error({ err: error }, 'an audit event was not recorded'),
  });
  // Shared rate-limit counters, when several server processes must count together.
  const redis =
    config.rateLimits.redisUrl === undefined
      ? undefined
      : new Redis(config.rateLimits.redisUrl, {
          maxRetriesPerRequest: 1,
          enableOfflineQueue: false,
        });
  const app = await buildApp({
    redis,
    config,
    services,
    db,
    clock: systemClock,
    secrets,
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.clientid', 'req.body'],
      serializers: { req: requestForLog },
    },
  });
  log = app.log;
  const workers = createBackgroundWorkers({
    config,
    db,
    clock: systemClock,
    services,
    // A run of failed rounds is reported once a minute, with how many failed in a row.
    report: reportTo(app.log),
  });
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err !== undefined) {
      app.log.error({ err }, 'shutting down after an error');
    } else {
      app.log.info({ signal }, 'shutting down');
    }
    await app.close();
    await workers.stop();
    await db.close();
    redis?.disconnect();
  });
  await app.listen({ port: config.port, host: config.host });
  workers.start();
  if (config.ibsEnv === 'sandbox') {
    const { demo, created } = await ensureDemoClient({
      dataDir: config.dataDir,
      baseUrl: config.publicBaseUrl,
      demoBalanceKobo: config.sandboxDemoBalanceKobo,
      clientService: services.clientService,
      network: services.rail,
    });
    await resetToDemo(services, demo, config, app.log);
    const dashboardLink = config.exposure.dashboardEnabled
      ? `${config.publicBaseUrl}/dashboard/login/${services.dashboardLoginLinks.issue().ticket}`
      : undefined;
    process.stdout.write(sandboxBanner(config, secrets.adminToken, demo, created, dashboardLink));
  }
}

/** Without fixtures, a reset goes back to the demo client (docs/fixtures.md). */
async function resetToDemo(
  services: Services,
  demo: DemoClient,
  config: Config,
  log: Pick<FastifyBaseLogger, 'warn'>,
): Promise<void> {
  try {
    services.sandboxFixtures?.useDefaultWorld(await demoWorld(demo, config.sandboxDemoBalanceKobo));
  } catch (error) {
    log.warn({ err: error }, "the demo client's key is unreadable: a reset empties the bank");
  }
}

function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`OpenIBS refuses to start: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

await main();

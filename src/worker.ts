import closeWithGrace from 'close-with-grace';
import pino from 'pino';
import { ALL_WORKERS, createBackgroundWorkers, reportTo } from './background-workers.ts';
import { ConfigError, loadConfig } from './config/config.ts';
import { createDb } from './db/create-db.ts';
import { migrate } from './db/migrate.ts';
import { resolveSecrets } from './sandbox/secrets.ts';
import { createServices } from './services.ts';
import { systemClock } from './shared/clock.ts';

/**
 * Every background worker the server runs (status queries of NIP transfers, webhook delivery) as
 * a process of its own, for larger set-ups: run as many as needed against one PostgreSQL (they
 * claim disjoint work). Embedded PGlite is one process, so there the workers run in the server.
 */
async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`OpenIBS worker refuses to start: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  if (config.databaseUrl === undefined) {
    process.stderr.write(
      'OpenIBS worker needs DATABASE_URL (PGlite runs the worker in the server)\n',
    );
    process.exit(1);
  }
  const log = pino({ level: config.logLevel });
  // A database restart breaks pooled connections: reported (throttled), never fatal; the
  // delivery loop backs off while rounds fail and resumes at full pace once one succeeds.
  const db = await createDb(config, {
    onConnectionError: (error, unreported) =>
      log.warn({ err: error, unreported }, 'database connection lost'),
  });
  await migrate(db);
  // The same service graph as the server's, so a status query settles exactly as the API does.
  const services = createServices({
    config,
    db,
    clock: systemClock,
    secrets: await resolveSecrets(config),
  });
  const workers = createBackgroundWorkers({
    config,
    db,
    clock: systemClock,
    services,
    report: reportTo(log),
  });
  closeWithGrace({ delay: 30_000 }, async ({ signal }) => {
    log.info({ signal }, 'worker shutting down');
    await workers.stop();
    await db.close();
  });
  const started = workers.start(ALL_WORKERS);
  log.info({ workers: started }, 'background workers started');
}

await main();

import closeWithGrace from 'close-with-grace';
import { ALL_WORKERS, createBackgroundWorkers } from './background-workers.ts';
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
  const log = (level: string, message: string, extra: Record<string, unknown> = {}) =>
    process.stdout.write(
      `${JSON.stringify({ level, time: Date.now(), msg: message, ...extra })}\n`,
    );
  // A database restart breaks pooled connections: reported (throttled), never fatal; the
  // delivery loop backs off while rounds fail and resumes at full pace once one succeeds.
  const db = await createDb(config, {
    onConnectionError: (error, unreported) =>
      log('warn', 'database connection lost', { err: String(error), unreported }),
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
    report: {
      onError: (worker, error, failedRounds) =>
        log('warn', 'background round failed', { worker, err: String(error), failedRounds }),
      onRecovered: (worker, failedRounds) =>
        log('info', 'background worker recovered', { worker, failedRounds }),
    },
  });
  closeWithGrace({ delay: 30_000 }, async ({ signal }) => {
    log('info', 'worker shutting down', { signal });
    await workers.stop();
    await db.close();
  });
  const started = workers.start(ALL_WORKERS);
  log('info', 'background workers started', { workers: started });
}

await main();

import closeWithGrace from 'close-with-grace';
import { ConfigError, loadConfig } from './config/config.ts';
import { createDb } from './db/create-db.ts';
import { migrate } from './db/migrate.ts';
import { systemClock } from './shared/clock.ts';
import { createConfiguredWebhookWorker } from './webhooks/webhook-worker.ts';

/**
 * The webhook delivery worker as its own process, for larger set-ups: run as many as needed
 * against one PostgreSQL (they claim disjoint events). Embedded PGlite is one process, so there
 * the worker runs inside the server instead.
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
  const worker = createConfiguredWebhookWorker(
    config,
    db,
    systemClock,
    (error: unknown, failedRounds?: number) =>
      log('warn', 'webhook delivery round failed', { err: String(error), failedRounds }),
  );
  closeWithGrace({ delay: 30_000 }, async ({ signal }) => {
    log('info', 'worker shutting down', { signal });
    await worker.stop();
    await db.close();
  });
  worker.start();
  log('info', 'webhook worker started');
}

await main();

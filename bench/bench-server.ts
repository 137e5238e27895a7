/**
 * The server under test, in its own process so the load generator does not share its event
 * loop. Built exactly as src/server.ts builds it (config from the environment, migrations,
 * buildApp), without request logging, which would measure the logger, and with the app's
 * database round trips counted (bench/ledger-rate.ts). No background workers run: the webhook
 * delivery and status-query workers would compete with the requests measured. The one exception
 * is the bulk payouts worker, which is what the bulk row (h) measures: idle, it asks one cheap
 * query every BULK_POLL_MS. Started by
 * run.ts with an IPC channel; it reports its port and then serves database commands (seeding,
 * the raw ledger rate, counts) from the bench. Run alone, it just serves:
 * `node --import tsx bench/bench-server.ts`.
 */
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config/config.ts';
import { createDb } from '../src/db/create-db.ts';
import { migrate } from '../src/db/migrate.ts';
import { createBulkPayoutWorker } from '../src/modules/transfers/bulk/bulk-worker.ts';
import { resolveSecrets } from '../src/sandbox/secrets.ts';
import { createServices } from '../src/services.ts';
import { systemClock } from '../src/shared/clock.ts';
import { countingDb } from './ledger-rate.ts';
import { sendReady, serveCommands } from './server-commands.ts';

const BULK_BATCHES_AT_ONCE = 4;
const BULK_POLL_MS = 100;

async function main(): Promise<void> {
  const config = loadConfig();
  if (config.host !== '127.0.0.1') {
    // The bench sends traffic to 127.0.0.1 only; refuse to listen anywhere wider.
    throw new Error(`bench-server listens on 127.0.0.1 only, HOST is ${config.host}`);
  }
  const secrets = await resolveSecrets(config);
  const db = await createDb(config);
  await migrate(db);
  // The app's round trips are counted (one increment each) for the transfer benchmarks.
  const counted = countingDb(db);
  const services = createServices({ config, db: counted.db, clock: systemClock, secrets });
  // (h)'s batches are placed by the bulk worker, as in a server: four at once, as its default.
  const bulkWorker = createBulkPayoutWorker({
    db: counted.db,
    clock: systemClock,
    batchSize: BULK_BATCHES_AT_ONCE,
    pollIntervalMs: BULK_POLL_MS,
    claimSeconds: config.transfers.statusQueryWorker.claimSeconds,
    bulkPayouts: services.bulkPayouts,
  });
  const app = await buildApp({
    config,
    services,
    db: counted.db,
    clock: systemClock,
    secrets,
    logger: false,
  });
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  process.stdout.write(`bench-server listening on http://127.0.0.1:${port} (${db.kind})\n`);

  bulkWorker.start();
  const shutdown = async () => {
    await bulkWorker.stop();
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown());
  process.once('SIGINT', () => void shutdown());
  if (process.send !== undefined) {
    // The bench going away (even killed) closes the channel: do not outlive it.
    process.once('disconnect', () => void shutdown());
    serveCommands(db, counted);
    await sendReady(db, port, config.publicBaseUrl);
  }
}

await main();

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
import type { Db } from '../src/db/db.ts';
import { migrate } from '../src/db/migrate.ts';
import { verifyLedger } from '../src/ledger/ledger-audit.ts';
import { createBulkPayoutWorker } from '../src/modules/transfers/bulk/bulk-worker.ts';
import { resolveSecrets } from '../src/sandbox/secrets.ts';
import { createServices } from '../src/services.ts';
import { systemClock } from '../src/shared/clock.ts';
import { countingDb, countRunRows, type DbCounters, measureLedgerRate } from './ledger-rate.ts';
import {
  type CommandMessage,
  type CommandName,
  type Commands,
  isCommandMessage,
  type MemoryWatch,
  type ReadyMessage,
  type ReplyMessage,
} from './protocol.ts';
import { analyzeLedger, checkBalance, seedLedger } from './seed-ledger.ts';

const BULK_BATCHES_AT_ONCE = 4;
const BULK_POLL_MS = 100;

type Handlers = {
  [Name in CommandName]: (
    db: Db,
    request: Commands[Name]['request'],
  ) => Promise<Commands[Name]['reply']>;
};

// Round trips of the app's Db, and of the raw ledger rate (which runs on the same counted Db);
// the bench's other commands (seeding, checks) use the raw one and count nothing.
let appDbCounters: DbCounters = { statements: 0, transactions: 0, timings: {} };
let countedDb: Db | undefined;

const handlers: Handlers = {
  seed: (db, request) => seedLedger(db, request),
  analyze: async (db) => {
    const started = performance.now();
    await analyzeLedger(db);
    return { elapsedMs: performance.now() - started };
  },
  checkBalance: (db, request) => checkBalance(db, request.accountId),
  verifyLedger: (db) => verifyLedger(db),
  ledgerRate: (db, request) => measureLedgerRate(countedDb ?? db, request),
  processStats: async () => {
    const cpu = process.cpuUsage();
    return { cpuUserUs: cpu.user, cpuSystemUs: cpu.system, db: structuredClone(appDbCounters) };
  },
  countRunRows: (db, request) => countRunRows(db, request),
  memoryWatch: async (_db, request) => watchMemory(request.action),
};

const memory = {
  baseline: process.memoryUsage(),
  peak: process.memoryUsage(),
  timer: undefined as NodeJS.Timeout | undefined,
};

/**
 * Peak resident memory over a measurement, sampled often enough to catch a short peak, with
 * the peaks of its parts (V8's heap, and the memory outside it: Buffers and other external
 * allocations) to tell garbage on the heap from bytes held in buffers.
 */
function watchMemory(action: 'start' | 'stop'): MemoryWatch {
  clearInterval(memory.timer);
  memory.timer = undefined;
  sampleMemory();
  if (action === 'stop') {
    const { baseline, peak } = memory;
    return {
      baselineRss: baseline.rss,
      peakRss: peak.rss,
      growth: {
        heapUsed: peak.heapUsed - baseline.heapUsed,
        heapTotal: peak.heapTotal - baseline.heapTotal,
        external: peak.external - baseline.external,
        arrayBuffers: peak.arrayBuffers - baseline.arrayBuffers,
      },
    };
  }
  memory.baseline = process.memoryUsage();
  memory.peak = { ...memory.baseline };
  memory.timer = setInterval(sampleMemory, 10);
  return { baselineRss: memory.baseline.rss, peakRss: memory.baseline.rss };
}

function sampleMemory(): void {
  const now = process.memoryUsage();
  const { peak } = memory;
  peak.rss = Math.max(peak.rss, now.rss);
  peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed);
  peak.heapTotal = Math.max(peak.heapTotal, now.heapTotal);
  peak.external = Math.max(peak.external, now.external);
  peak.arrayBuffers = Math.max(peak.arrayBuffers, now.arrayBuffers);
}

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
  appDbCounters = counted.counters;
  countedDb = counted.db;
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
    process.on('message', (message: unknown) => {
      if (isCommandMessage(message)) {
        void answer(db, message);
      }
    });
    const version = await db.query<{ server_version: string }>('SHOW server_version');
    send({
      kind: 'ready',
      port,
      publicBaseUrl: config.publicBaseUrl,
      dbKind: db.kind,
      dbVersion: version[0]?.server_version ?? 'unknown',
    });
  }
}

async function answer(db: Db, message: CommandMessage): Promise<void> {
  const handler = handlers[message.name] as (db: Db, request: unknown) => Promise<unknown>;
  try {
    send({ kind: 'reply', id: message.id, ok: true, value: await handler(db, message.request) });
  } catch (error) {
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    send({ kind: 'reply', id: message.id, ok: false, error: text });
  }
}

function send(message: ReadyMessage | ReplyMessage): void {
  process.send?.(message);
}

await main();

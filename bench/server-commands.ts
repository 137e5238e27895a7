/**
 * The commands a server under test answers over its IPC channel (seeding, the raw ledger rate,
 * counts, its CPU and memory, CPU profiles), shared by the stripped bench server
 * (bench-server.ts) and the server as deployed (deployed-server.ts).
 */
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import type { Db } from '../src/db/db.ts';
import { verifyLedger } from '../src/ledger/ledger-audit.ts';
import { countRunRows, type DbCounters, measureLedgerRate } from './ledger-rate.ts';
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

type Handlers = {
  [Name in CommandName]: (
    db: Db,
    request: Commands[Name]['request'],
  ) => Promise<Commands[Name]['reply']>;
};

// Round trips of the app's Db, and of the raw ledger rate (which runs on the same counted Db);
// the bench's other commands (seeding, checks) use the raw one and count nothing. A server that
// does not count them (as deployed) reports NaN, which the tables show as '-'.
let appDbCounters: DbCounters = { statements: Number.NaN, transactions: Number.NaN, timings: {} };
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
  cpuProfile: (_db, request) => cpuProfile(request),
};

const memory = {
  baseline: process.memoryUsage(),
  peak: process.memoryUsage(),
  timer: undefined as NodeJS.Timeout | undefined,
};

/**
 * Peak resident memory over a measurement, sampled often enough to catch a short peak, with
 * the peaks of its parts (V8's heap, and the memory outside it: Buffers and other external
 * allocations) to tell garbage on the heap from bytes held in buffers. The baseline is taken
 * from a collected heap (when the server runs with --expose-gc, as server-process.ts starts
 * it): else the growth measured depends on whether V8 collected what ran before the watch.
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
  collectGarbage();
  memory.baseline = process.memoryUsage();
  memory.peak = { ...memory.baseline };
  memory.timer = setInterval(sampleMemory, 10);
  return { baselineRss: memory.baseline.rss, peakRss: memory.baseline.rss };
}

/**
 * Two full collections: the first can leave what finalizers and weak references only release
 * on the next one (streams' and sockets' handles among them).
 */
function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
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

let profiler: Session | undefined;

/**
 * A V8 CPU profile of this process between start and stop (what `node --cpu-prof` records, for
 * one run rather than the whole life of the process), written as a .cpuprofile file.
 */
async function cpuProfile(request: Commands['cpuProfile']['request']) {
  if (request.action === 'start') {
    profiler = new Session();
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
    return { path: undefined };
  }
  if (profiler === undefined || request.path === undefined) {
    throw new Error('cpuProfile stop: no profile started, or no path to write it to');
  }
  const { profile } = await profiler.post('Profiler.stop');
  profiler.disconnect();
  profiler = undefined;
  await writeFile(request.path, JSON.stringify(profile));
  return { path: request.path };
}

/**
 * Answers the bench's commands on `db` (the raw one); the ledger rate runs on `counted` when
 * given, so its round trips are counted with the app's.
 */
export function serveCommands(
  db: Db,
  counted?: { readonly db: Db; readonly counters: DbCounters },
): void {
  if (counted !== undefined) {
    appDbCounters = counted.counters;
    countedDb = counted.db;
  }
  process.on('message', (message: unknown) => {
    if (isCommandMessage(message)) {
      void answer(db, message);
    }
  });
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

/** Tells the bench the server listens on `port`, over `db`'s database. */
export async function sendReady(db: Db, port: number, publicBaseUrl: string): Promise<void> {
  const version = await db.query<{ server_version: string }>('SHOW server_version');
  send({
    kind: 'ready',
    port,
    publicBaseUrl,
    dbKind: db.kind,
    dbVersion: version[0]?.server_version ?? 'unknown',
  });
}

function send(message: ReadyMessage | ReplyMessage): void {
  process.send?.(message);
}

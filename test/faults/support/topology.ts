// The fault suite's deployment: one fresh PostgreSQL database, two API server processes (their
// background workers off) and two worker processes (`npm run worker`), each reaching PostgreSQL
// through a TCP proxy of its own that can be cut and restored (the approach of
// test/pg-only/database-restart.test.ts), and each connection named by application_name so
// pg_terminate_backend can pick exactly one process's sessions. Everything here can be killed,
// cut and brought back; close() undoes all of it whatever state a failing test left.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Db } from '../../../src/db/db.ts';
import { NO_RATE_LIMITS } from '../../harness.ts';
import { ServerFixture, type ServerSecrets, sleep } from '../../pg-only/server-fixture.ts';
import { freePort, ROOT, ServerProcess } from '../../server-process.ts';
import { createTestDb, type TestDb } from '../../test-db.ts';

const WORKER_STARTUP_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;
/** What the worker process logs once its loops run (src/worker.ts). */
const WORKER_READY = '"msg":"background workers started"';

/** A TCP proxy to PostgreSQL that can be cut (all connections dropped, port closed) and restored. */
export class CuttableProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  get isOpen(): boolean {
    return this.server !== undefined;
  }

  /** Listens (again, on the same port once it has one). */
  async open(): Promise<void> {
    if (this.server !== undefined) {
      return;
    }
    const server = createServer((downstream) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const [socket, peer] of [
        [downstream, upstream],
        [upstream, downstream],
      ] as const) {
        this.sockets.add(socket);
        socket.on('error', () => socket.destroy());
        socket.on('close', () => {
          this.sockets.delete(socket);
          peer.destroy();
        });
        socket.pipe(peer);
      }
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** The database is gone: every connection drops and new ones are refused. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => {
      if (server === undefined) {
        resolve();
      } else {
        server.close(() => resolve());
      }
    });
    for (const socket of this.sockets) {
      socket.destroy();
    }
    await closed;
  }
}

/** `npm run worker` as a child process, its output kept for failures. */
class WorkerProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private output = '';
  private alive = true;

  constructor(env: NodeJS.ProcessEnv) {
    // A compiled run (scripts/run-tests.js --faults) bundled the worker beside the tests.
    const bundle = process.env.OPENIBS_TEST_WORKER_BUNDLE;
    const entry =
      bundle === undefined
        ? ['--import', 'tsx', 'src/worker.ts']
        : ['--enable-source-maps', bundle];
    this.child = spawn(process.execPath, entry, {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [this.child.stdout, this.child.stderr]) {
      stream?.setEncoding('utf8').on('data', (chunk: string) => {
        this.output += chunk;
      });
    }
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.alive = false;
        resolve({ code, signal });
      });
    });
  }

  get running(): boolean {
    return this.alive;
  }

  async ready(): Promise<void> {
    const deadline = Date.now() + WORKER_STARTUP_TIMEOUT_MS;
    while (!this.output.includes(WORKER_READY)) {
      if (!this.alive) {
        throw new Error(`worker exited before it started\n${this.log()}`);
      }
      if (Date.now() > deadline) {
        throw new Error(`worker not started within ${WORKER_STARTUP_TIMEOUT_MS} ms\n${this.log()}`);
      }
      await sleep(100);
    }
  }

  async kill(): Promise<void> {
    if (this.alive) {
      this.child.kill('SIGKILL');
    }
    await this.exited;
  }

  async terminate(): Promise<{ code: number | null; signal: NodeJS.Signals | null } | undefined> {
    this.child.kill('SIGTERM');
    return Promise.race([this.exited, sleep(STOP_TIMEOUT_MS).then(() => undefined)]);
  }

  log(): string {
    return this.output.slice(-4000);
  }
}

/** The suite's database, as the shared load checks (test/pg-only/transfer-load.ts) read it. */
class SuiteFixture extends ServerFixture {
  suiteDb: TestDb | undefined;
  suiteDataDir: string | undefined;

  override async open(): Promise<void> {
    this.suiteDb = await createTestDb({ poolSize: 6 });
    assert.ok(this.suiteDb.url !== undefined, 'createTestDb gave a PostgreSQL database');
    this.suiteDataDir = await mkdtemp(path.join(tmpdir(), 'openibs-fault-suite-'));
  }

  override async close(): Promise<void> {
    await this.suiteDb?.close();
    if (this.suiteDataDir !== undefined) {
      await rm(this.suiteDataDir, { recursive: true, force: true });
    }
  }

  override get db(): Db {
    assert.ok(this.suiteDb !== undefined, 'open() first');
    return this.suiteDb.db;
  }

  get url(): string {
    assert.ok(this.suiteDb?.url !== undefined, 'open() first');
    return this.suiteDb.url;
  }
}

export type SlotKind = 'api' | 'worker';

/** One process of the deployment, across its restarts. */
export interface Slot {
  readonly kind: SlotKind;
  readonly index: number;
  /** Its connections' application_name. */
  readonly applicationName: string;
  readonly proxy: CuttableProxy;
  /** API servers: the port it listens on, the same after a restart. */
  readonly port: number;
  current: ServerProcess | WorkerProcess | undefined;
  /** Every life's output, for a failure message. */
  readonly lives: (ServerProcess | WorkerProcess)[];
  /** When it was dead (killed until ready again), as [from, to] epoch ms. */
  readonly downWindows: [number, number][];
}

export interface TopologyOptions {
  readonly secrets: ServerSecrets;
  /** Settings every process gets (rail latencies, schedules, webhook timing). */
  readonly env: Record<string, string>;
  readonly apiServers: number;
  readonly workers: number;
}

export class Topology {
  readonly fixture: SuiteFixture;
  readonly slots: Slot[] = [];
  private closed = false;

  constructor(private readonly options: TopologyOptions) {
    this.fixture = new SuiteFixture('fault-suite', options.secrets);
  }

  get db(): Db {
    return this.fixture.db;
  }

  get apis(): Slot[] {
    return this.slots.filter((slot) => slot.kind === 'api');
  }

  get workers(): Slot[] {
    return this.slots.filter((slot) => slot.kind === 'worker');
  }

  apiUrl(index: number): string {
    const slot = this.apis[index];
    assert.ok(slot !== undefined, `API server ${index}`);
    return `http://127.0.0.1:${slot.port}`;
  }

  get apiUrls(): string[] {
    return this.apis.map((slot) => `http://127.0.0.1:${slot.port}`);
  }

  async open(): Promise<void> {
    await this.fixture.open();
    const direct = new URL(this.fixture.url);
    const target = { host: direct.hostname, port: Number(direct.port || 5432) };
    const runId = Math.random().toString(36).slice(2, 8);
    const make = async (kind: SlotKind, index: number): Promise<Slot> => {
      const proxy = new CuttableProxy(target);
      await proxy.open();
      return {
        kind,
        index,
        applicationName: `openibs-fault-${runId}-${kind}-${index}`,
        proxy,
        port: kind === 'api' ? await freePort() : 0,
        current: undefined,
        lives: [],
        downWindows: [],
      };
    };
    for (let index = 0; index < this.options.apiServers; index += 1) {
      this.slots.push(await make('api', index));
    }
    for (let index = 0; index < this.options.workers; index += 1) {
      this.slots.push(await make('worker', index));
    }
    await Promise.all(this.slots.map((slot) => this.start(slot)));
  }

  private envFor(slot: Slot): NodeJS.ProcessEnv {
    assert.ok(this.fixture.suiteDataDir !== undefined);
    const url = new URL(this.fixture.url);
    url.hostname = '127.0.0.1';
    url.port = String(slot.proxy.port);
    url.searchParams.set('application_name', slot.applicationName);
    const env: NodeJS.ProcessEnv = {
      DATABASE_URL: url.toString(),
      IBS_ENV: 'sandbox',
      DATA_DIR: this.fixture.suiteDataDir,
      ADMIN_TOKEN: this.options.secrets.adminToken,
      TOKEN_SIGNING_SECRET: this.options.secrets.tokenSigningSecret,
      PUBLIC_BASE_URL: this.options.secrets.publicBaseUrl,
      SANDBOX_DEMO_BALANCE_NAIRA: '0',
      ...NO_RATE_LIMITS,
      ...this.options.env,
      ...(slot.kind === 'api'
        ? {
            PORT: String(slot.port),
            LOG_LEVEL: 'warn',
            DATABASE_POOL_SIZE: '6',
            // The two worker processes do all background work.
            WEBHOOK_WORKER_ENABLED: 'false',
            STATUS_QUERY_WORKER_ENABLED: 'false',
            RETENTION_WORKER_ENABLED: 'false',
          }
        : { LOG_LEVEL: 'info', DATABASE_POOL_SIZE: '4' }),
    };
    for (const name of ['PATH', 'HOME', 'TMPDIR', 'SYSTEMROOT']) {
      const value = process.env[name];
      if (value !== undefined) {
        env[name] = value;
      }
    }
    return env;
  }

  /** Starts the slot's process and waits until it serves (API: its banner; worker: its loops). */
  async start(slot: Slot): Promise<void> {
    assert.ok(!this.closed, 'the topology is closed');
    if (slot.kind === 'api') {
      const server = new ServerProcess(this.envFor(slot));
      slot.current = server;
      slot.lives.push(server);
      await server.banner();
    } else {
      const worker = new WorkerProcess(this.envFor(slot));
      slot.current = worker;
      slot.lives.push(worker);
      await worker.ready();
    }
  }

  /** SIGKILL: nothing in flight is finished, no shutdown hook runs. */
  async kill(slot: Slot): Promise<number> {
    const killedAt = Date.now();
    await slot.current?.kill();
    return killedAt;
  }

  /** Kills the slot's process, keeps it dead for downMs, and starts it again. */
  async killAndRestart(slot: Slot, downMs: number): Promise<void> {
    const killedAt = await this.kill(slot);
    try {
      await sleep(downMs);
      await this.start(slot);
    } finally {
      slot.downWindows.push([killedAt, Date.now()]);
    }
  }

  /** pg_terminate_backend on every session of the given processes; how many were ended. */
  async terminateBackends(slots: readonly Slot[]): Promise<number> {
    const rows = await this.db.query<{ terminated: boolean }>(
      `SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity
        WHERE application_name = ANY ($1) AND pid <> pg_backend_pid()`,
      [slots.map((slot) => slot.applicationName)],
    );
    return rows.filter((row) => row.terminated).length;
  }

  everyProcessRunning(): boolean {
    return this.slots.every((slot) => slot.current?.running === true);
  }

  /** The last output of every process, for a failure message. */
  logs(): string {
    return this.slots
      .map((slot) => {
        const last = slot.lives.at(-1);
        const text = last instanceof ServerProcess ? last.log() : (last?.log() ?? '');
        return `=== ${slot.kind} ${slot.index} (${slot.lives.length} lives) ===\n${text.slice(-3000)}`;
      })
      .join('\n');
  }

  /** SIGTERM to every process (SIGKILL if it does not stop); which ones did not exit cleanly. */
  async stopAll(): Promise<string[]> {
    const unclean: string[] = [];
    await Promise.all(
      this.slots.map(async (slot) => {
        const current = slot.current;
        if (current === undefined || !current.running) {
          return;
        }
        const exit = await current.terminate();
        if (exit === undefined) {
          unclean.push(`${slot.kind} ${slot.index}: did not stop within ${STOP_TIMEOUT_MS} ms`);
          await current.kill();
        } else if (exit.code !== 0) {
          unclean.push(`${slot.kind} ${slot.index}: exited ${JSON.stringify(exit)}`);
        }
      }),
    );
    return unclean;
  }

  /** Kills everything, closes the proxies, drops the database, removes the data directory. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.flatMap((slot) => slot.lives.map((life) => life.kill())));
    await Promise.all(this.slots.map((slot) => slot.proxy.cut()));
    await this.fixture.close();
  }
}

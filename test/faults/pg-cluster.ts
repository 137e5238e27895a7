// PostgreSQL servers of the test's own, started from Debian's binaries on loopback ports under a
// temporary directory: a primary and a synchronous standby that can be killed, promoted and
// rebuilt. Never touches any other PostgreSQL on the machine.
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../server-process.ts';

const COMMAND_TIMEOUT_MS = 60_000;
const OS_USER = 'postgres';
const DATABASE = 'openibs';

/** Settings every node shares (copied to a standby by pg_basebackup); port and socket are per node. */
const SHARED_SETTINGS = [
  "listen_addresses = '127.0.0.1'",
  'wal_level = replica',
  'max_wal_senders = 5',
  'wal_keep_size = 128MB',
  'hot_standby = on',
  // Once synchronous_standby_names names the standby (synchronousStandby), every commit waits
  // until the standby has flushed it: an acknowledged commit is on both.
  'synchronous_commit = on',
  'wal_log_hints = on',
  'shared_buffers = 32MB',
  'max_connections = 60',
  'wal_receiver_status_interval = 1s',
  'wal_retrieve_retry_interval = 500ms',
  "log_line_prefix = '%m [%p] '",
  'log_min_messages = warning',
];

/** The newest Debian PostgreSQL with the tools, or PG_BIN_DIR; undefined when there is none. */
export function findPostgresBinaries(): string | undefined {
  const fromEnv = process.env.PG_BIN_DIR;
  if (fromEnv !== undefined && fromEnv !== '') {
    return fromEnv;
  }
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) {
    return undefined;
  }
  const versions = readdirSync(root)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const bin = path.join(root, version, 'bin');
    if (
      ['initdb', 'pg_ctl', 'pg_basebackup', 'postgres'].every((tool) =>
        existsSync(path.join(bin, tool)),
      )
    ) {
      return bin;
    }
  }
  return undefined;
}

/** Where a node keeps its files, when not in the cluster's directory. */
export interface NodeOptions {
  /**
   * The data directory (default `<root>/<name>`), e.g. on a file system of the test's own; it
   * must not exist yet or be empty, and the server's OS user must be able to create it. The log
   * stays in the cluster's directory.
   */
  readonly dataDir?: string;
}

interface RunResult {
  readonly code: number | null;
  readonly output: string;
}

/** Directories and processes of one test's cluster; `close` removes every trace. */
export class PgCluster {
  readonly nodes: PgNode[] = [];
  private constructor(
    readonly bin: string,
    readonly root: string,
    private readonly owner: { uid: number; gid: number } | undefined,
  ) {}

  /** A temporary directory the server's OS user owns (`postgres` when we are root). */
  static async create(bin: string): Promise<PgCluster> {
    const root = await mkdtemp(path.join(tmpdir(), 'openibs-failover-'));
    let owner: { uid: number; gid: number } | undefined;
    if (process.getuid?.() === 0) {
      owner = {
        uid: Number(spawnSync('id', ['-u', OS_USER], { encoding: 'utf8' }).stdout.trim()),
        gid: Number(spawnSync('id', ['-g', OS_USER], { encoding: 'utf8' }).stdout.trim()),
      };
      chownSync(root, owner.uid, owner.gid);
    }
    return new PgCluster(bin, root, owner);
  }

  async node(name: string, options: NodeOptions = {}): Promise<PgNode> {
    const node = new PgNode(this, name, await freePort(), options.dataDir);
    this.nodes.push(node);
    return node;
  }

  /** Runs one of the PostgreSQL tools as the server's OS user; its exit code and output. */
  run(tool: string, args: readonly string[], timeoutMs = COMMAND_TIMEOUT_MS): Promise<RunResult> {
    const file = path.join(this.bin, tool);
    const [command, argv] =
      this.owner === undefined
        ? [file, [...args]]
        : ['runuser', ['-u', OS_USER, '--', file, ...args]];
    return new Promise((resolve, reject) => {
      const child = spawn(command, argv, {
        cwd: this.root,
        env: { PATH: process.env.PATH, LANG: 'C', PGTZ: 'UTC' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      for (const stream of [child.stdout, child.stderr]) {
        stream.setEncoding('utf8').on('data', (chunk: string) => {
          output += chunk;
        });
      }
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.once('close', (code) => {
        clearTimeout(timer);
        resolve({ code, output });
      });
    });
  }

  /** Like run, but a failure throws with the tool's output. */
  async mustRun(tool: string, args: readonly string[], timeoutMs?: number): Promise<string> {
    const result = await this.run(tool, args, timeoutMs);
    if (result.code !== 0) {
      throw new Error(`${tool} ${args.join(' ')} exited ${result.code}:\n${result.output}`);
    }
    return result.output;
  }

  /** Every server killed (nothing flushed, as a crash), its shared memory freed, the files gone. */
  async close(): Promise<void> {
    for (const node of this.nodes) {
      node.kill();
    }
    await rm(this.root, { recursive: true, force: true });
  }

  /** The same, synchronously: for process exit, should the test be cut short. */
  closeSync(): void {
    for (const node of this.nodes) {
      try {
        node.kill();
      } catch {
        // best effort on the way out
      }
    }
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** One PostgreSQL server: its data directory, port, log, and what can be done to it. */
export class PgNode {
  readonly dataDir: string;
  readonly logFile: string;

  constructor(
    private readonly cluster: PgCluster,
    readonly name: string,
    readonly port: number,
    dataDir?: string,
  ) {
    this.dataDir = dataDir ?? path.join(cluster.root, name);
    this.logFile = path.join(cluster.root, `${name}.log`);
  }

  /** `host:port`, as it goes in a connection string. */
  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** A connection string to this server alone. */
  url(database = DATABASE): string {
    return `postgres://postgres@${this.address}/${database}`;
  }

  /**
   * A new primary: initdb, the shared settings, started, with the OpenIBS database created.
   * `settings` (postgresql.conf lines) go after the shared ones, so they win.
   */
  async initPrimary(settings: readonly string[] = []): Promise<void> {
    await this.cluster.mustRun('initdb', [
      '-D',
      this.dataDir,
      '-U',
      'postgres',
      '--auth=trust',
      '--encoding=UTF8',
      '--locale=C',
      '--no-sync',
    ]);
    // Appending keeps the file its owner's (the server's OS user) even when we are root.
    await appendFile(
      path.join(this.dataDir, 'postgresql.conf'),
      `${[...SHARED_SETTINGS, ...settings].join('\n')}\n`,
    );
    await this.start();
    await this.sql(`CREATE DATABASE ${DATABASE}`, 'postgres');
  }

  /** A standby of `primary`, from a fresh base backup (whatever this directory held is gone). */
  async cloneFrom(primary: PgNode): Promise<void> {
    this.kill();
    await rm(this.dataDir, { recursive: true, force: true });
    await this.cluster.mustRun('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      'postgres',
      '-D',
      this.dataDir,
      '-X',
      'stream',
      '-c',
      'fast',
      '-R',
      '--no-sync',
    ]);
    await this.start();
  }

  async start(): Promise<void> {
    await this.cluster.mustRun('pg_ctl', [
      'start',
      '-w',
      '-t',
      '60',
      '-D',
      this.dataDir,
      '-l',
      this.logFile,
      '-o',
      `-p ${this.port} -k ${this.cluster.root}`,
    ]);
  }

  /** `pg_ctl promote`, waiting until the server takes writes. */
  async promote(): Promise<void> {
    await this.cluster.mustRun('pg_ctl', ['promote', '-w', '-t', '60', '-D', this.dataDir]);
  }

  /**
   * SIGKILL to the postmaster and every process it started, at once (it is stopped first, so it
   * cannot start another): nothing is flushed or shut down cleanly, as in a crash of the machine
   * (except that what the OS already has stays written). Its shared memory segment is freed.
   */
  kill(): void {
    const pidFile = path.join(this.dataDir, 'postmaster.pid');
    if (!existsSync(pidFile)) {
      return;
    }
    const lines = readFileSync(pidFile, 'utf8').split('\n');
    const postmaster = Number(lines[0]);
    const shmid = lines[6]?.trim().split(/\s+/)[1];
    if (Number.isInteger(postmaster) && postmaster > 0 && alive(postmaster)) {
      process.kill(postmaster, 'SIGSTOP');
      const all = [postmaster, ...childrenOf(postmaster)];
      for (const pid of all) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      waitGone(all);
    }
    rmSync(pidFile, { force: true });
    if (shmid !== undefined && /^\d+$/.test(shmid)) {
      spawnSync('ipcrm', ['-m', shmid], { stdio: 'ignore' });
    }
  }

  /** One statement on a connection of its own, as the superuser; its rows. */
  async sql<Row extends Record<string, unknown>>(
    text: string,
    database = DATABASE,
  ): Promise<Row[]> {
    const client = new pg.Client({
      connectionString: this.url(database),
      connectionTimeoutMillis: 10_000,
      query_timeout: 30_000,
    });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return (await client.query<Row>(text)).rows;
    } finally {
      await client.end();
    }
  }

  /**
   * Whether commits wait for a standby (`synchronous_standby_names` '*' or ''), as a failover
   * manager sets it: on while a standby streams, off on a primary left without one (else every
   * commit would wait forever). Set on a standby, it takes effect when it is promoted.
   */
  async synchronousStandby(required: boolean): Promise<void> {
    await this.sql(`ALTER SYSTEM SET synchronous_standby_names = '${required ? '*' : ''}'`);
    await this.sql('SELECT pg_reload_conf()');
  }

  /** The standby states this primary sees: `sync` once a standby confirms every commit. */
  async replicas(): Promise<{ state: string; sync_state: string }[]> {
    return this.sql('SELECT state, sync_state FROM pg_stat_replication');
  }

  /** The last lines of the server's log, for a failure message. */
  log(): string {
    if (!existsSync(this.logFile)) {
      return `(${this.name}: no log)`;
    }
    return `--- ${this.name} log ---\n${readFileSync(this.logFile, 'utf8').slice(-3000)}`;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The processes whose parent is `pid` (from /proc). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) {
        children.push(Number(entry));
      }
    } catch {
      // the process ended meanwhile
    }
  }
  return children;
}

/** Busy-waits (briefly) until the processes are gone or are zombies of ours to reap. */
function waitGone(pids: readonly number[]): void {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const left = pids.filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
      } catch {
        return false;
      }
    });
    if (left.length === 0 || Date.now() > deadline) {
      return;
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
  }
}

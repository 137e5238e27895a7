/**
 * Where the time of a transfer run goes, measured from outside while it runs:
 * - CPU seconds of the load generator (this process), of the server process (it reports its own
 *   process.cpuUsage over IPC), of the PostgreSQL backends serving the bench database (from
 *   /proc, Linux with a local server only), and of the whole machine (/proc/stat), so what other
 *   work on the shared machine took shows too;
 * - what the database's connections were doing, sampled from pg_stat_activity every few
 *   milliseconds: running, waiting for a lock (a hot row), waiting on WAL (commit), idle in a
 *   transaction (waiting for the server's next statement), or idle in the pool;
 * - when the server preloads pg_stat_statements (not a stock setting), the time PostgreSQL spent
 *   planning and executing each statement of the bench database, as a difference of snapshots.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

const SAMPLE_INTERVAL_MS = 20;

/** Mean number of the bench database's client connections in each state over a run. */
export interface BackendStates {
  readonly running: number;
  readonly lockWait: number;
  readonly walWait: number;
  readonly otherWait: number;
  /** Inside a transaction, waiting for the server to send the next statement. */
  readonly idleInTransaction: number;
  /** Connected, no transaction: free in the pool. */
  readonly idle: number;
}

export interface DbProfile {
  readonly samples: number;
  readonly states: BackendStates;
  /** Mean connections per wait event (type:event), the largest first. */
  readonly waitEvents: Readonly<Record<string, number>>;
  /** CPU milliseconds of the bench database's backends; undefined if /proc cannot tell. */
  readonly backendCpuMs: number | undefined;
  /** Per statement, from pg_stat_statements, the largest first; undefined without it. */
  readonly statements: readonly StatementStat[] | undefined;
}

export interface StatementStat {
  readonly query: string;
  readonly calls: number;
  /** Milliseconds executing (lock waits included) and planning, in PostgreSQL. */
  readonly execMs: number;
  readonly planMs: number;
}

export interface MachineCpu {
  /** CPU milliseconds used on the whole machine (all processes, all cores). */
  readonly busyMs: number;
  readonly totalMs: number;
}

const CLOCK_TICKS_PER_SECOND = clockTicks();

function clockTicks(): number {
  try {
    const value = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return Number.isInteger(value) && value > 0 ? value : 100;
  } catch {
    return 100;
  }
}

/** utime + stime of a process in milliseconds, or undefined if it is gone or not visible. */
export function processCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: fields count from the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / CLOCK_TICKS_PER_SECOND : undefined;
  } catch {
    return undefined;
  }
}

/** The machine's CPU counters so far (first line of /proc/stat), or undefined off Linux. */
export function machineCpu(): MachineCpu | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const ticks = line.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is already in user).
    const total = ticks.slice(0, 8).reduce((sum, value) => sum + value, 0);
    const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
    const toMs = (value: number) => (value * 1000) / CLOCK_TICKS_PER_SECOND;
    return { busyMs: toMs(total - idle), totalMs: toMs(total) };
  } catch {
    return undefined;
  }
}

async function statementStatsAvailable(client: pg.Client): Promise<boolean> {
  try {
    // In the bench's own fresh database, dropped at the end; answers only if preloaded.
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await client.query('SELECT 1 FROM pg_stat_statements LIMIT 1');
    return true;
  } catch {
    return false;
  }
}

function difference(
  before: ReadonlyMap<string, StatementStat>,
  after: ReadonlyMap<string, StatementStat>,
): StatementStat[] {
  const changed: StatementStat[] = [];
  for (const [id, stat] of after) {
    const earlier = before.get(id);
    const calls = stat.calls - (earlier?.calls ?? 0);
    if (calls > 0) {
      changed.push({
        query: stat.query,
        calls,
        execMs: stat.execMs - (earlier?.execMs ?? 0),
        planMs: stat.planMs - (earlier?.planMs ?? 0),
      });
    }
  }
  return changed.sort((a, b) => b.execMs + b.planMs - (a.execMs + a.planMs));
}

interface ActivityRow {
  pid: number;
  state: string | null;
  wait_event_type: string | null;
  wait_event: string | null;
}

/**
 * Samples the bench database's client connections until stopped. One extra connection of its
 * own (excluded from the figures); a query on pg_stat_activity every 20 ms costs well under 1 %
 * of a core.
 */
export class DbSampler {
  private readonly client: pg.Client;
  private running: Promise<void> | undefined;
  private stopping = false;
  private samples = 0;
  private readonly tallies = new Map<string, number>();
  private readonly cpuFirst = new Map<number, number>();
  private readonly cpuLast = new Map<number, number>();
  private procVisible = true;
  private statementsVisible = false;
  private statementsBefore: Map<string, StatementStat> | undefined;

  private constructor(client: pg.Client) {
    this.client = client;
  }

  /** Whether pg_stat_statements answers (the server preloads it). */
  get hasStatementStats(): boolean {
    return this.statementsVisible;
  }

  static async open(databaseUrl: string): Promise<DbSampler> {
    const client = new pg.Client({
      connectionString: databaseUrl,
      application_name: 'openibs-bench-sampler',
    });
    await client.connect();
    // A local server only: /proc/<pid> of a remote backend would be some other process.
    const host = new URL(databaseUrl).hostname;
    const sampler = new DbSampler(client);
    sampler.procVisible = ['127.0.0.1', 'localhost', '::1', ''].includes(host);
    sampler.statementsVisible = await statementStatsAvailable(client);
    return sampler;
  }

  async start(): Promise<void> {
    this.statementsBefore = this.statementsVisible ? await this.statementStats() : undefined;
    this.stopping = false;
    this.samples = 0;
    this.tallies.clear();
    this.cpuFirst.clear();
    this.cpuLast.clear();
    this.running = this.loop();
  }

  async stop(): Promise<DbProfile> {
    this.stopping = true;
    await this.running;
    const mean = (key: string) => (this.tallies.get(key) ?? 0) / Math.max(1, this.samples);
    const waitEvents: Record<string, number> = {};
    for (const [key, count] of [...this.tallies].sort((a, b) => b[1] - a[1])) {
      if (key.startsWith('wait ')) {
        waitEvents[key.slice(5)] = count / Math.max(1, this.samples);
      }
    }
    let statements: StatementStat[] | undefined;
    if (this.statementsBefore !== undefined) {
      statements = difference(this.statementsBefore, await this.statementStats());
    }
    let backendCpuMs: number | undefined;
    if (this.procVisible && this.cpuFirst.size > 0) {
      backendCpuMs = 0;
      for (const [pid, first] of this.cpuFirst) {
        backendCpuMs += (this.cpuLast.get(pid) ?? first) - first;
      }
    }
    return {
      samples: this.samples,
      states: {
        running: mean('running'),
        lockWait: mean('lockWait'),
        walWait: mean('walWait'),
        otherWait: mean('otherWait'),
        idleInTransaction: mean('idleInTransaction'),
        idle: mean('idle'),
      },
      waitEvents,
      backendCpuMs,
      statements,
    };
  }

  private async statementStats(): Promise<Map<string, StatementStat>> {
    const { rows } = await this.client.query<{
      queryid: string;
      query: string;
      calls: string;
      exec_ms: number;
      plan_ms: number;
    }>(
      `SELECT queryid::text, query, calls::text, total_exec_time AS exec_ms,
              total_plan_time AS plan_ms
         FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
        WHERE d.datname = current_database() AND s.query NOT LIKE '%pg_stat_%'`,
    );
    return new Map(
      rows.map((row) => [
        row.queryid,
        {
          query: row.query.replace(/\s+/g, ' ').trim(),
          calls: Number(row.calls),
          execMs: row.exec_ms,
          planMs: row.plan_ms,
        },
      ]),
    );
  }

  async close(): Promise<void> {
    this.stopping = true;
    await this.running;
    await this.client.end();
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      const { rows } = await this.client.query<ActivityRow>(
        `SELECT pid, state, wait_event_type, wait_event FROM pg_stat_activity
          WHERE datname = current_database() AND backend_type = 'client backend'
            AND pid <> pg_backend_pid()`,
      );
      this.samples += 1;
      for (const row of rows) {
        this.tally(row);
        this.readCpu(row.pid);
      }
      await sleep(SAMPLE_INTERVAL_MS);
    }
  }

  private tally(row: ActivityRow): void {
    const add = (key: string) => this.tallies.set(key, (this.tallies.get(key) ?? 0) + 1);
    if (row.state === 'idle') {
      add('idle');
      return;
    }
    if (row.state === 'idle in transaction') {
      add('idleInTransaction');
      return;
    }
    if (row.wait_event_type === null) {
      add('running');
      return;
    }
    add(`wait ${row.wait_event_type}:${row.wait_event}`);
    if (row.wait_event_type === 'Lock') {
      add('lockWait');
    } else if (/^WAL/.test(row.wait_event ?? '')) {
      add('walWait');
    } else {
      add('otherWait');
    }
  }

  private readCpu(pid: number): void {
    if (!this.procVisible) {
      return;
    }
    const cpu = processCpuMs(pid);
    if (cpu === undefined) {
      return;
    }
    if (!this.cpuFirst.has(pid)) {
      this.cpuFirst.set(pid, cpu);
    }
    this.cpuLast.set(pid, cpu);
  }
}

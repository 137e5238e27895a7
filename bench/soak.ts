/**
 * npm run soak: does the server's memory stay bounded under a long run at high load? The bench
 * server (bench/bench-server.ts) on a fresh database, driven for `--minutes` (default 10) by a
 * mix of concurrent streams: intra-bank transfers spread over many funded accounts, NIP
 * transfers to the sandbox simulator, inbound credits through the simulated rail, name
 * enquiries, and reads (GET /accounts/:id, statement pages, transfer lists). Every 10 s it
 * samples the server process's RSS (/proc/<pid>/status VmRSS), its V8 heap (GET /metrics) and
 * the requests it answered since the last sample (openibs_http_requests_total).
 *
 * Verdict: bounded when, after a one-minute warm-up, the least-squares slope of RSS over the
 * samples stays under SLOPE_LIMIT_MIB_PER_MINUTE and the last sample is within GROWTH_LIMIT x
 * the first one after the warm-up; exit code 1 otherwise. Afterwards every answered transfer and
 * credit is checked against the rows it left, and the ledger invariants against the whole
 * ledger, as `npm run bench` does; a broken check also exits 1.
 *
 * The curve goes to stdout, progress to stderr, JSON to --out.
 */
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { type BenchDatabase, createBenchDatabase } from './database.ts';
import { createFixtures, type Fixtures } from './fixtures.ts';
import { expectJson, HttpClient } from './http-client.ts';
import type { RunRowsReply } from './ledger-rate.ts';
import { runLoad } from './load.ts';
import { OptionsError } from './options.ts';
import { row, writeJson } from './report.ts';
import { type ServerProcess, startServer } from './server-process.ts';
import { median } from './stats.ts';
import { inParallel, type PostLoadResult, runPostLoad } from './transfer-load.ts';
import { BENCH_INSTITUTION_CODE } from './transfers.ts';

const SAMPLE_SECONDS = 10;
const WARMUP_SECONDS = 60;
/**
 * The RSS trend after the warm-up that still counts as bounded. A process that holds on to
 * something per request grows with the traffic: at the few hundred requests a second this
 * machine serves, 2 MiB a minute is about a hundred bytes kept per request (the report prints
 * the exact figure), one small object or closure each. V8's own sawtooth (young generation
 * collections every second or so, the old generation grown and shrunk by tens of MiB) averages out
 * over the dozens of samples of a 10-minute run.
 */
const SLOPE_LIMIT_MIB_PER_MINUTE = 2;
/** The last sample may be at most this many times the first one after the warm-up. */
const GROWTH_LIMIT = 1.5;
/** Concurrent lanes (connections) per POST stream; the reads run READ_CONNECTIONS each. */
const LANES = { intra: 16, nip: 8, credit: 8, enquiry: 2 } as const;
const READ_CONNECTIONS = 4;
/** Each read stream moves to the next account every so many seconds (one autocannon run). */
const READ_CHUNK_SECONDS = 10;
const DEBIT_ACCOUNTS_PER_LANE = 4;
const BENEFICIARIES = 32;
/** What each debit account is funded with per minute of the run: far more than it can spend. */
const FUNDING_NAIRA_PER_MINUTE = 200_000;
/** ₦10.00: a whole-naira amount, so the NIP simulator answers 00 (docs/sandbox-nip.md). */
const AMOUNT_NAIRA = 10;
const NIP_BANK_CODE = '000013';
const NIP_ACCOUNT_NUMBER = '0123456789';
/** Name enquiry sessions live 30 minutes (NAME_ENQUIRY_TTL_SECONDS): renewed every 10. */
const REENQUIRE_SECONDS = 600;
const SETUP_PARALLELISM = 8;
const PUBLIC_BASE_URL = 'http://bench.openibs.invalid';
const CHECK_TIMEOUT_MS = 20 * 60_000;
const MIB = 1024 * 1024;

/** Run ids: transfers and credits carry `${runId}.${lane}.${sequence}` (countRunRows). */
const RUN = { intra: 'soakIntra', nip: 'soakNip', credit: 'soakCredit' } as const;

const USAGE = `Usage: npm run soak -- [options]

  --minutes N   minutes of load (default 10; at least 2: the first one is the warm-up)
  --out PATH    write the samples, the verdict and the checks as JSON

Database: PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL is set (a fresh
openibs_bench_<random> database, dropped at the end), embedded PGlite otherwise (then the
database lives inside the server process and its RSS).`;

interface SoakOptions {
  readonly minutes: number;
  readonly outPath: string | undefined;
}

interface AccountRef {
  readonly id: string;
  readonly accountNumber: string;
}

interface Accounts {
  /** LANES.intra x DEBIT_ACCOUNTS_PER_LANE for the intra-bank lanes, then the NIP lanes'. */
  readonly debits: readonly AccountRef[];
  readonly beneficiaries: readonly AccountRef[];
}

interface Sample {
  /** Seconds since the load started. */
  readonly seconds: number;
  /** VmRSS of the server process. */
  readonly rssMiB: number;
  /** From GET /metrics; null when the scrape failed. */
  readonly heapUsedMiB: number | null;
  readonly heapTotalMiB: number | null;
  readonly externalMiB: number | null;
  /** Requests the server answered since the previous sample, per second (/metrics excluded). */
  readonly requestsPerSecond: number | null;
  /** openibs_http_requests_total, /metrics excluded. */
  readonly requests: number | null;
}

interface StreamResult {
  readonly name: string;
  readonly requests: number;
  readonly ok: number;
  readonly completed: number;
  readonly failures: Readonly<Record<string, number>>;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

/** Async undo steps, run last-in first-out, once: on success, on failure or on Ctrl-C. */
class Cleanup {
  private readonly steps: (() => unknown)[] = [];
  private done: Promise<void> | undefined;

  add(step: () => unknown): void {
    this.steps.push(step);
  }

  run(): Promise<void> {
    this.done ??= (async () => {
      for (const step of [...this.steps].reverse()) {
        try {
          await step();
        } catch (error) {
          log(`cleanup step failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    })();
    return this.done;
  }
}

function log(message: string): void {
  process.stderr.write(`[soak] ${message}\n`);
}

async function main(): Promise<void> {
  const options = parseSoakOptions(process.argv.slice(2));
  const startedAt = new Date();
  const cleanup = new Cleanup();
  process.once('SIGINT', () => {
    log('interrupted: stopping the server and removing the database');
    void cleanup.run().finally(() => process.exit(130));
  });
  try {
    const { database, adminToken, server, fixtures, accounts, sampler } = await prepare(
      cleanup,
      options.minutes,
    );
    log(`load: ${options.minutes} minutes, sampling every ${SAMPLE_SECONDS} s...`);
    const { samples, idle, streams } = await soak(
      options,
      { server, fixtures, adminToken, accounts },
      sampler,
    );
    const verdict = judge(samples);
    process.stdout.write(
      `\n${renderReport(options, database, samples, idle, streams, verdict, perMinute(samples))}`,
    );

    log('checking every answered transfer and credit, then the ledger invariants...');
    const problems = await check(server, fixtures, streams);
    process.stdout.write(checkReport(problems));
    if (options.outPath !== undefined) {
      await writeJson(options.outPath, {
        startedAt,
        finishedAt: new Date(),
        options,
        database: { kind: database.kind, version: server.ready.dbVersion },
        lanes: { ...LANES, readConnectionsEach: READ_CONNECTIONS },
        warmupSeconds: WARMUP_SECONDS,
        samples,
        idleAfterLoad: idle,
        perMinute: perMinute(samples),
        verdict,
        streams,
        problems,
      });
      process.stdout.write(`JSON: ${options.outPath}\n`);
    }
    if (!verdict.bounded || problems.length > 0) {
      process.exitCode = 1;
    }
  } finally {
    await cleanup.run();
  }
}

/**
 * The database, the server on it, the bench's client and accounts, and the memory sampler;
 * each registered with `cleanup` as soon as it exists, so an interrupted start leaves nothing.
 */
async function prepare(cleanup: Cleanup, minutes: number) {
  const database = await createBenchDatabase();
  cleanup.add(() => database.drop());
  log(`database: ${database.description}`);
  const adminToken = randomBytes(24).toString('base64url');
  const server = await startServer(serverEnv(database.serverEnv, adminToken));
  cleanup.add(() => server.stop());
  const pid = await serverPid();
  const setup = new HttpClient(server.baseUrl, SETUP_PARALLELISM);
  cleanup.add(() => setup.close());
  log(`server: ${server.baseUrl} (pid ${pid}) on ${server.ready.dbKind} ${server.ready.dbVersion}`);
  const fixtures = await createFixtures(setup, {
    adminToken,
    audience: server.ready.publicBaseUrl,
  });
  const accounts = await openAccounts(setup, fixtures, adminToken, minutes);
  const sampler = new MemorySampler(pid, server.baseUrl);
  cleanup.add(() => sampler.close());
  return { database, adminToken, server, fixtures, accounts, sampler };
}

/** The check's verdict; at most 30 problems, enough to see the pattern without burying it. */
function checkReport(problems: readonly string[]): string {
  return problems.length === 0
    ? 'check: every 2xx transfer and credit left its rows (transfer, idempotency key, ' +
        'journal, outbox events, posted hold); no pending hold; all ledger invariants hold\n'
    : `CHECK FAILED (${problems.length} problems):\n${problems
        .slice(0, 30)
        .map((problem) => `  ${problem}\n`)
        .join('')}`;
}

function parseSoakOptions(argv: readonly string[]): SoakOptions {
  let values: { minutes?: string; out?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        minutes: { type: 'string' },
        out: { type: 'string' },
        help: { type: 'boolean', default: false },
      },
      strict: true,
    }));
  } catch (error) {
    throw new OptionsError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const minutes = values.minutes === undefined ? 10 : Number(values.minutes);
  if (!Number.isInteger(minutes) || minutes < 2 || minutes > 720) {
    throw new OptionsError(`--minutes must be an integer from 2 to 720, got "${values.minutes}"`);
  }
  return { minutes, outPath: values.out };
}

/** As bench/run.ts configures it: sandbox, local only, fresh secrets, no rate limits. */
function serverEnv(databaseEnv: Readonly<Record<string, string>>, adminToken: string) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...databaseEnv,
    IBS_ENV: 'sandbox',
    HOST: '127.0.0.1',
    PORT: '0',
    PUBLIC_BASE_URL,
    ADMIN_TOKEN: adminToken,
    TOKEN_SIGNING_SECRET: randomBytes(32).toString('base64url'),
    ACCESS_TOKEN_TTL_SECONDS: '86400',
    INSTITUTION_CODE: BENCH_INSTITUTION_CODE,
    NIP_SIMULATOR_LATENCY_MS: '0',
    RATE_LIMIT_TOKEN_PER_MINUTE_PER_IP: '0',
    RATE_LIMIT_ADMIN_PER_MINUTE_PER_IP: '0',
    RATE_LIMIT_API_PER_MINUTE_PER_CLIENT: '0',
    RATE_LIMIT_NAME_ENQUIRY_PER_MINUTE_PER_CLIENT: '0',
    RATE_LIMIT_NAME_ENQUIRY_MISSES_PER_HOUR_PER_CLIENT: '0',
  };
  if (databaseEnv.DATABASE_URL === undefined) {
    delete env.DATABASE_URL;
  }
  // The sampler reads /metrics without a token (open in sandbox).
  delete env.METRICS_TOKEN;
  return env;
}

/** The bench server: the child of this process running bench-server.ts (startServer forks it). */
async function serverPid(): Promise<number> {
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      // After "pid (comm) ": state, then the parent's pid.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) {
        continue;
      }
      const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.includes('bench-server.ts')) {
        return Number(entry);
      }
    } catch {
      // The process went away while we looked.
    }
  }
  throw new Error('no bench-server child process found under /proc (the soak needs Linux)');
}

/** Debit accounts for every transfer lane and beneficiaries, all of the bench client, funded. */
async function openAccounts(
  http: HttpClient,
  fixtures: Fixtures,
  adminToken: string,
  minutes: number,
): Promise<Accounts> {
  const debitCount = (LANES.intra + LANES.nip) * DEBIT_ACCOUNTS_PER_LANE;
  log(`opening ${debitCount} debit accounts and ${BENEFICIARIES} beneficiaries, funding...`);
  const headers = { ...fixtures.apiHeaders };
  const open = async (suffix: string): Promise<AccountRef> => {
    const { data } = expectJson<{ data: AccountRef & { _id: string } }>(
      await http.post('/accounts', { suffix }, headers),
      200,
      'POST /accounts',
    );
    return { id: data._id, accountNumber: data.accountNumber };
  };
  const names = (prefix: string, count: number) =>
    Array.from({ length: count }, (_, index) => `${prefix} ${index}`);
  const debits = await inParallel(names('soak debit', debitCount), SETUP_PARALLELISM, open);
  const beneficiaries = await inParallel(
    names('soak beneficiary', BENEFICIARIES),
    SETUP_PARALLELISM,
    open,
  );
  const admin = { authorization: `Bearer ${adminToken}` };
  await inParallel(debits, SETUP_PARALLELISM, async (account) =>
    expectJson(
      await http.post(
        '/admin/sandbox/credits',
        {
          accountNumber: account.accountNumber,
          amount: FUNDING_NAIRA_PER_MINUTE * minutes,
          narration: 'Soak funding',
        },
        admin,
      ),
      201,
      'POST /admin/sandbox/credits',
    ),
  );
  return { debits, beneficiaries };
}

/** Name enquiry session ids by `${bankCode}/${accountNumber}`, as every transfer must name one. */
async function enquire(
  baseUrl: string,
  fixtures: Fixtures,
  accounts: Accounts,
): Promise<Map<string, string>> {
  const targets = [
    ...accounts.beneficiaries.map((account) => ({
      bankCode: BENCH_INSTITUTION_CODE,
      accountNumber: account.accountNumber,
    })),
    { bankCode: NIP_BANK_CODE, accountNumber: NIP_ACCOUNT_NUMBER },
  ];
  const client = new HttpClient(baseUrl, SETUP_PARALLELISM);
  try {
    const sessions = await inParallel(targets, SETUP_PARALLELISM, async (target) => {
      const response = await client.post('/transfers/name-enquiry', target, fixtures.apiHeaders);
      return expectJson<{ data: { sessionId: string } }>(
        response,
        200,
        'POST /transfers/name-enquiry',
      ).data.sessionId;
    });
    return new Map(
      targets.map((target, index) => [
        `${target.bankCode}/${target.accountNumber}`,
        sessions[index] ?? '',
      ]),
    );
  } finally {
    client.close();
  }
}

interface SoakContext {
  readonly server: ServerProcess;
  readonly fixtures: Fixtures;
  readonly adminToken: string;
  readonly accounts: Accounts;
}

/** The load, with the memory sampled alongside; then one more sample after 10 s of quiet. */
async function soak(options: SoakOptions, context: SoakContext, sampler: MemorySampler) {
  const { server, fixtures, accounts } = context;
  let sessions = await enquire(server.baseUrl, fixtures, accounts);
  const durationSeconds = options.minutes * 60;
  const samples: Sample[] = [await sampler.sample(0)];
  const started = performance.now();
  const deadline = started + durationSeconds * 1000;
  const session = (bankCode: string, accountNumber: string) => {
    const id = sessions.get(`${bankCode}/${accountNumber}`);
    if (id === undefined) {
      throw new Error(`no name enquiry for ${bankCode}/${accountNumber}`);
    }
    return id;
  };
  const renewal = (async () => {
    for (let round = 1; ; round += 1) {
      const at = started + round * REENQUIRE_SECONDS * 1000;
      if (at >= deadline) {
        return;
      }
      await sleep(at - performance.now());
      sessions = await enquire(server.baseUrl, fixtures, accounts);
      log('name enquiries renewed');
    }
  })();
  const streams = Promise.all([
    postStream('intra-bank transfers', transferLoad(context, 'intra', durationSeconds, session)),
    postStream('NIP transfers', transferLoad(context, 'nip', durationSeconds, session)),
    postStream('inbound credits', creditLoad(context, durationSeconds)),
    postStream('name enquiries', enquiryLoad(context, durationSeconds)),
    readStream('GET /accounts/:id', context, deadline, (k) => {
      const all = [...accounts.debits, ...accounts.beneficiaries];
      return `/accounts/${pickAt(all, k).id}`;
    }),
    readStream(
      'GET /accounts/:id/statement',
      context,
      deadline,
      (k) => `/accounts/${pickAt(accounts.beneficiaries, k).id}/statement?limit=100&page=0`,
    ),
    readStream(
      'GET /transfers?accountId',
      context,
      deadline,
      (k) => `/transfers?accountId=${pickAt(accounts.debits, k).id}&limit=25&page=0`,
    ),
  ]);
  const sampling = (async () => {
    for (let k = 1; k * SAMPLE_SECONDS <= durationSeconds; k += 1) {
      await sleep(started + k * SAMPLE_SECONDS * 1000 - performance.now());
      const sample = await sampler.sample(k * SAMPLE_SECONDS);
      samples.push(sample);
      log(
        `${clock(sample.seconds)}  RSS ${sample.rssMiB.toFixed(1)} MiB, heap used ` +
          `${optional(sample.heapUsedMiB, 1)} MiB, ${optional(sample.requestsPerSecond, 0)} req/s`,
      );
    }
  })();
  const [results] = await Promise.all([streams, sampling, renewal]);
  const stoppedAt = (performance.now() - started) / 1000;
  await sleep(SAMPLE_SECONDS * 1000);
  const idle = await sampler.sample(Math.round(stoppedAt + SAMPLE_SECONDS));
  log(
    `${SAMPLE_SECONDS} s after the load: RSS ${idle.rssMiB.toFixed(1)} MiB, ` +
      `heap used ${optional(idle.heapUsedMiB, 1)} MiB`,
  );
  return { samples, idle, streams: results };
}

async function postStream(name: string, load: Promise<PostLoadResult>): Promise<StreamResult> {
  const result = await load;
  return {
    name,
    requests: result.requests,
    ok: result.ok,
    completed: result.completed,
    failures: result.failures,
    p50Ms: result.p50Ms,
    p99Ms: result.p99Ms,
  };
}

/**
 * POST /transfers from each lane's own debit accounts: intra-bank to the beneficiaries, or NIP
 * to the simulator's account at another bank; each with its own reference and Idempotency-Key.
 */
function transferLoad(
  context: SoakContext,
  kind: 'intra' | 'nip',
  durationSeconds: number,
  session: (bankCode: string, accountNumber: string) => string,
): Promise<PostLoadResult> {
  const { accounts, fixtures } = context;
  const firstLane = kind === 'intra' ? 0 : LANES.intra;
  return runPostLoad({
    baseUrl: context.server.baseUrl,
    path: '/transfers',
    connections: LANES[kind],
    durationSeconds,
    request: (lane, sequence) => {
      const reference = `${RUN[kind]}.${lane}.${sequence}`;
      const own = (firstLane + lane) * DEBIT_ACCOUNTS_PER_LANE;
      const debit = accounts.debits[own + (sequence % DEBIT_ACCOUNTS_PER_LANE)] as AccountRef;
      const beneficiary = pickAt(accounts.beneficiaries, lane + sequence);
      const to =
        kind === 'nip'
          ? { bankCode: NIP_BANK_CODE, accountNumber: NIP_ACCOUNT_NUMBER }
          : { bankCode: BENCH_INSTITUTION_CODE, accountNumber: beneficiary.accountNumber };
      return {
        headers: { ...fixtures.apiHeaders, 'idempotency-key': `${reference}.key` },
        body: {
          nameEnquiryReference: session(to.bankCode, to.accountNumber),
          beneficiaryBankCode: to.bankCode,
          beneficiaryAccountNumber: to.accountNumber,
          debitAccountNumber: debit.accountNumber,
          amount: AMOUNT_NAIRA,
          saveBeneficiary: false,
          narration: 'Soak transfer',
          paymentReference: reference,
        },
      };
    },
    isComplete: (body) => body.includes('"status":"Completed"'),
  });
}

/** Credits from another bank through the simulated rail (POST /admin/sandbox/credits). */
function creditLoad(context: SoakContext, durationSeconds: number): Promise<PostLoadResult> {
  const { accounts, adminToken } = context;
  return runPostLoad({
    baseUrl: context.server.baseUrl,
    path: '/admin/sandbox/credits',
    connections: LANES.credit,
    durationSeconds,
    request: (lane, sequence) => ({
      headers: { authorization: `Bearer ${adminToken}` },
      body: {
        accountNumber: pickAt(accounts.beneficiaries, lane * 7 + sequence).accountNumber,
        amount: AMOUNT_NAIRA,
        narration: `${RUN.credit}.${lane}.${sequence}`,
      },
    }),
    isComplete: (body) => body.includes('"status":"Completed"'),
  });
}

/**
 * Name enquiries at another bank, a new account number each (the simulator makes up a name for
 * any 10 digits not ending 0000 or 9999): each one a new session row on the server.
 */
function enquiryLoad(context: SoakContext, durationSeconds: number): Promise<PostLoadResult> {
  return runPostLoad({
    baseUrl: context.server.baseUrl,
    path: '/transfers/name-enquiry',
    connections: LANES.enquiry,
    durationSeconds,
    request: (lane, sequence) => ({
      headers: { ...context.fixtures.apiHeaders },
      body: {
        bankCode: NIP_BANK_CODE,
        accountNumber: `1${String(lane)}${String(sequence % 1_000_000).padStart(6, '0')}12`,
      },
    }),
    isComplete: (body) => body.includes('"sessionId"'),
  });
}

/**
 * GETs through the bench's autocannon runner, READ_CHUNK_SECONDS on one path, then the next
 * (another account); a run with a non-2xx answer is counted as a failure and the stream goes on.
 */
async function readStream(
  name: string,
  context: SoakContext,
  deadline: number,
  path: (chunk: number) => string,
): Promise<StreamResult> {
  let requests = 0;
  const failures: Record<string, number> = {};
  const p50: number[] = [];
  const p99: number[] = [];
  for (let chunk = 0; ; chunk += 1) {
    const seconds = Math.round(Math.min(READ_CHUNK_SECONDS, (deadline - performance.now()) / 1000));
    if (seconds < 1) {
      break;
    }
    try {
      const result = await runLoad({
        url: `${context.server.baseUrl}${path(chunk)}`,
        headers: context.fixtures.apiHeaders,
        connections: READ_CONNECTIONS,
        durationSeconds: seconds,
      });
      requests += result.requests;
      p50.push(result.p50Ms);
      p99.push(result.p99Ms);
    } catch (error) {
      const key = error instanceof Error ? error.message : String(error);
      failures[key] = (failures[key] ?? 0) + 1;
    }
  }
  return {
    name,
    requests,
    ok: requests,
    completed: requests,
    failures,
    p50Ms: median(p50),
    p99Ms: median(p99),
  };
}

function pickAt<T>(items: readonly T[], index: number): T {
  return items[index % items.length] as T;
}

/** RSS from /proc, the heap and the request count from the server's own /metrics. */
class MemorySampler {
  private readonly http: HttpClient;
  private last: { seconds: number; requests: number } | undefined;

  constructor(
    private readonly pid: number,
    baseUrl: string,
  ) {
    this.http = new HttpClient(baseUrl, 1);
  }

  async sample(seconds: number): Promise<Sample> {
    const status = await readFile(`/proc/${this.pid}/status`, 'utf8');
    const rssKb = Number(/^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1] ?? Number.NaN);
    let metrics: Map<string, number> | undefined;
    try {
      const response = await this.http.get('/metrics');
      if (response.status === 200) {
        metrics = parseMetrics(response.body);
      } else {
        log(`GET /metrics answered ${response.status}`);
      }
    } catch (error) {
      log(`GET /metrics failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    const mib = (name: string) => {
      const value = metrics?.get(name);
      return value === undefined ? null : value / MIB;
    };
    const requests = metrics?.get('openibs_http_requests_total') ?? null;
    let requestsPerSecond: number | null = null;
    if (requests !== null) {
      if (this.last !== undefined && seconds > this.last.seconds) {
        requestsPerSecond = (requests - this.last.requests) / (seconds - this.last.seconds);
      }
      this.last = { seconds, requests };
    }
    return {
      seconds,
      rssMiB: (rssKb * 1024) / MIB,
      heapUsedMiB: mib('openibs_nodejs_heap_size_used_bytes'),
      heapTotalMiB: mib('openibs_nodejs_heap_size_total_bytes'),
      externalMiB: mib('openibs_nodejs_external_memory_bytes'),
      requestsPerSecond,
      requests,
    };
  }

  close(): void {
    this.http.close();
  }
}

/**
 * The Prometheus text format's samples, summed over their labels by metric name; the scrapes'
 * own requests (route="/metrics") are left out.
 */
function parseMetrics(text: string): Map<string, number> {
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#') || line.includes('route="/metrics"')) {
      continue;
    }
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})?\s+(\S+)/.exec(line);
    const value = Number(match?.[3]);
    if (match?.[1] !== undefined && Number.isFinite(value)) {
      values.set(match[1], (values.get(match[1]) ?? 0) + value);
    }
  }
  return values;
}

/** Least-squares slope of y over x; NaN with fewer than two distinct x. */
function slope(points: readonly (readonly [number, number])[]): number {
  const n = points.length;
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / n;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / n;
  let numerator = 0;
  let denominator = 0;
  for (const [x, y] of points) {
    numerator += (x - meanX) * (y - meanY);
    denominator += (x - meanX) ** 2;
  }
  return denominator === 0 ? Number.NaN : numerator / denominator;
}

/**
 * The curve a minute at a time: each minute's samples (after its start, up to its end), their
 * RSS and heap used range, and the mean request rate over the minute.
 */
function perMinute(samples: readonly Sample[]) {
  const last = samples.at(-1)?.seconds ?? 0;
  return Array.from({ length: Math.floor(last / 60) }, (_, index) => {
    const minute = index + 1;
    const inMinute = samples.filter(
      (sample) => sample.seconds > index * 60 && sample.seconds <= minute * 60,
    );
    const values = (pick: (sample: Sample) => number | null) =>
      inMinute.flatMap((sample) => {
        const value = pick(sample);
        return value === null ? [] : [value];
      });
    const rss = values((sample) => sample.rssMiB);
    const heap = values((sample) => sample.heapUsedMiB);
    const rates = values((sample) => sample.requestsPerSecond);
    return {
      minute,
      rssAtEndMiB: inMinute.at(-1)?.rssMiB ?? Number.NaN,
      rssMinMiB: Math.min(...rss),
      rssMaxMiB: Math.max(...rss),
      heapUsedMinMiB: heap.length === 0 ? Number.NaN : Math.min(...heap),
      heapUsedMaxMiB: heap.length === 0 ? Number.NaN : Math.max(...heap),
      requestsPerSecond:
        rates.length === 0 ? Number.NaN : rates.reduce((sum, rate) => sum + rate, 0) / rates.length,
    };
  });
}

type MinuteSummary = ReturnType<typeof perMinute>[number];

function judge(samples: readonly Sample[]) {
  const after = samples.filter((sample) => sample.seconds >= WARMUP_SECONDS);
  // The heap's floor: each minute's lowest heap used, the minutes after the warm-up. A sample
  // lands anywhere in the collector's sawtooth; what is kept for good raises the floor.
  const floors = perMinute(samples)
    .filter((minute) => (minute.minute - 1) * 60 >= WARMUP_SECONDS)
    .filter((minute) => Number.isFinite(minute.heapUsedMinMiB))
    .map((minute) => [minute.minute, minute.heapUsedMinMiB] as const);
  const trend = (pick: (sample: Sample) => number | null) =>
    slope(
      after.flatMap((sample) => {
        const value = pick(sample);
        return value === null ? [] : [[sample.seconds / 60, value] as const];
      }),
    );
  const rssSlope = trend((sample) => sample.rssMiB);
  const heapUsedSlope = trend((sample) => sample.heapUsedMiB);
  const first = after[0];
  const last = after.at(-1);
  const growth =
    first === undefined || last === undefined ? Number.NaN : last.rssMiB / first.rssMiB;
  const rates = after.flatMap((sample) =>
    sample.requestsPerSecond === null ? [] : [sample.requestsPerSecond],
  );
  const meanRate = rates.reduce((sum, rate) => sum + rate, 0) / Math.max(1, rates.length);
  return {
    warmupSeconds: WARMUP_SECONDS,
    samplesAfterWarmup: after.length,
    rssSlopeMiBPerMinute: rssSlope,
    heapUsedSlopeMiBPerMinute: heapUsedSlope,
    heapFloorSlopeMiBPerMinute: slope(floors),
    slopeLimitMiBPerMinute: SLOPE_LIMIT_MIB_PER_MINUTE,
    firstRssMiB: first?.rssMiB ?? Number.NaN,
    lastRssMiB: last?.rssMiB ?? Number.NaN,
    peakRssMiB: Math.max(...samples.map((sample) => sample.rssMiB)),
    growth,
    growthLimit: GROWTH_LIMIT,
    meanRequestsPerSecond: meanRate,
    /** The slope limit as bytes kept per request at the mean rate. */
    limitBytesPerRequest: (SLOPE_LIMIT_MIB_PER_MINUTE * MIB) / (meanRate * 60),
    bounded: rssSlope < SLOPE_LIMIT_MIB_PER_MINUTE && growth <= GROWTH_LIMIT,
  };
}

type Verdict = ReturnType<typeof judge>;

const CURVE_COLUMNS = [8, 10, 16, 17, 14, 12];
const STREAM_COLUMNS = [30, 11, 11, 9, 9, 10];

function renderReport(
  options: SoakOptions,
  database: BenchDatabase,
  samples: readonly Sample[],
  idle: Sample,
  streams: readonly StreamResult[],
  verdict: Verdict,
  minutes: readonly MinuteSummary[],
): string {
  const curve = (sample: Sample, label = clock(sample.seconds)) =>
    row(
      [
        label,
        sample.rssMiB.toFixed(1),
        optional(sample.heapUsedMiB, 1),
        optional(sample.heapTotalMiB, 1),
        optional(sample.externalMiB, 1),
        optional(sample.requestsPerSecond, 0),
      ],
      CURVE_COLUMNS,
    );
  const limit = `${SLOPE_LIMIT_MIB_PER_MINUTE} MiB/min`;
  const lines = [
    `OpenIBS memory soak: ${options.minutes} min of mixed load on ${database.description}`,
    `  server RSS (/proc VmRSS) and V8 heap (/metrics) every ${SAMPLE_SECONDS} s; req/s: requests ` +
      'the server answered in the interval (openibs_http_requests_total)',
    '',
    row(
      ['m:ss', 'RSS MiB', 'heap used MiB', 'heap total MiB', 'external MiB', 'req/s'],
      CURVE_COLUMNS,
    ),
    ...samples.map((sample) => curve(sample)),
    curve(idle, 'idle'),
    `  (idle: ${SAMPLE_SECONDS} s after the load stopped; not in the trend)`,
    '',
    ...minuteLines(minutes),
    '',
    row(['Stream', 'requests', 'failures', 'p50 ms', 'p99 ms', 'per s'], STREAM_COLUMNS),
    ...streams.map((stream) =>
      row(
        [
          stream.name,
          stream.requests.toLocaleString('en'),
          String(Object.values(stream.failures).reduce((sum, n) => sum + n, 0)),
          fixed(stream.p50Ms, 1),
          fixed(stream.p99Ms, 1),
          fixed(stream.requests / (options.minutes * 60), 0),
        ],
        STREAM_COLUMNS,
      ),
    ),
    ...streams.flatMap((stream) =>
      Object.entries(stream.failures).map(([key, n]) => `  ${stream.name}: ${n} x ${key}`),
    ),
    '',
    `after the ${WARMUP_SECONDS} s warm-up (${verdict.samplesAfterWarmup} samples, mean ` +
      `${fixed(verdict.meanRequestsPerSecond, 0)} req/s):`,
    `  RSS trend ${fixed(verdict.rssSlopeMiBPerMinute, 3)} MiB/min (limit ${limit}, which is ` +
      `${fixed(verdict.limitBytesPerRequest, 0)} bytes kept per request at this rate)`,
    `  heap used trend ${fixed(verdict.heapUsedSlopeMiBPerMinute, 3)} MiB/min, its per-minute ` +
      `floor ${fixed(verdict.heapFloorSlopeMiBPerMinute, 3)} MiB/min (not judged)`,
    `  RSS ${fixed(verdict.firstRssMiB, 1)} MiB first -> ${fixed(verdict.lastRssMiB, 1)} MiB ` +
      `last (x${fixed(verdict.growth, 3)}, limit x${GROWTH_LIMIT}); peak ${fixed(verdict.peakRssMiB, 1)} MiB`,
    `verdict: ${verdict.bounded ? 'BOUNDED' : 'NOT BOUNDED'}`,
  ];
  if (verdict.heapFloorSlopeMiBPerMinute >= SLOPE_LIMIT_MIB_PER_MINUTE) {
    lines.push(`warning: the heap's floor rises at ${limit} or more: look for a leak`);
  }
  return `${lines.join('\n')}\n`;
}

const MINUTE_COLUMNS = [8, 13, 16, 22, 12];

function minuteLines(minutes: readonly MinuteSummary[]): string[] {
  const range = (min: number, max: number) => `${fixed(min, 0)}-${fixed(max, 0)}`;
  return [
    row(
      ['minute', 'RSS MiB', 'RSS range MiB', 'heap used range MiB', 'mean req/s'],
      MINUTE_COLUMNS,
    ),
    ...minutes.map((minute) =>
      row(
        [
          String(minute.minute),
          fixed(minute.rssAtEndMiB, 1),
          range(minute.rssMinMiB, minute.rssMaxMiB),
          range(minute.heapUsedMinMiB, minute.heapUsedMaxMiB),
          fixed(minute.requestsPerSecond, 0),
        ],
        MINUTE_COLUMNS,
      ),
    ),
  ];
}

/** Every 2xx answer against the rows it left, as bench/transfers.ts checks; then the ledger. */
async function check(
  server: ServerProcess,
  fixtures: Fixtures,
  streams: readonly StreamResult[],
): Promise<string[]> {
  const problems: string[] = [];
  for (const stream of streams) {
    const failed = Object.values(stream.failures).reduce((sum, n) => sum + n, 0);
    if (failed > 0) {
      problems.push(`${stream.name}: ${failed} failed: ${JSON.stringify(stream.failures)}`);
    }
  }
  const rows: RunRowsReply = await server.command(
    'countRunRows',
    { clientId: fixtures.clientId },
    CHECK_TIMEOUT_MS,
  );
  const byName = (name: string) => streams.find((stream) => stream.name === name);
  const expect = (run: string, what: string, actual: number, expected: number) => {
    if (actual !== expected) {
      problems.push(`${run}: ${what} ${actual}, expected ${expected}`);
    }
  };
  for (const [kind, name] of [
    ['intra', 'intra-bank transfers'],
    ['nip', 'NIP transfers'],
  ] as const) {
    const stream = byName(name);
    const found = rows.runs[RUN[kind]];
    if (stream === undefined || found === undefined) {
      problems.push(`${name}: no rows found`);
      continue;
    }
    const outwards = Object.values(found.outwards).reduce((sum, n) => sum + n, 0);
    expect(name, '2xx answers reporting Completed', stream.completed, stream.ok);
    expect(name, 'Outwards transfers', outwards, stream.ok);
    expect(name, 'Outwards Completed', found.outwards.Completed ?? 0, stream.ok);
    expect(name, 'idempotency keys', found.idempotencyKeys, stream.ok);
    expect(name, 'journals', found.journals, stream.ok);
    if (kind === 'nip') {
      expect(name, 'outbox events', found.outboxEvents, stream.ok);
      expect(name, 'holds posted', found.holds.posted ?? 0, stream.ok);
      expect(name, 'Inwards transfers', found.inwards, 0);
    } else {
      expect(name, 'outbox events', found.outboxEvents, 2 * stream.ok);
      expect(name, 'Inwards twins', found.inwards, stream.ok);
    }
  }
  const credits = byName('inbound credits');
  const creditRows = rows.runs[RUN.credit];
  if (credits === undefined || creditRows === undefined) {
    problems.push('inbound credits: no rows found');
  } else {
    expect('inbound credits', '2xx answers reporting Completed', credits.completed, credits.ok);
    expect('inbound credits', 'credits', creditRows.credits, credits.ok);
    expect('inbound credits', 'credit journals', creditRows.creditJournals, credits.ok);
    expect('inbound credits', 'credit outbox events', creditRows.creditEvents, credits.ok);
  }
  const enquiries = byName('name enquiries');
  if (enquiries !== undefined) {
    expect('name enquiries', '2xx answers with a session id', enquiries.completed, enquiries.ok);
  }
  if (rows.pendingHolds !== 0) {
    problems.push(`${rows.pendingHolds} holds still pending`);
  }
  log('verifying every ledger invariant...');
  const violations = await server.command('verifyLedger', {}, CHECK_TIMEOUT_MS);
  for (const [name, count] of Object.entries(violations)) {
    if (count !== 0) {
      problems.push(`ledger invariant broken: ${name} = ${count}`);
    }
  }
  return problems;
}

function clock(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

function fixed(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '-';
}

function optional(value: number | null, digits: number): string {
  return value === null ? '-' : fixed(value, digits);
}

try {
  await main();
} catch (error) {
  process.exitCode = 1;
  if (error instanceof OptionsError) {
    log(`${error.message} (see npm run soak -- --help)`);
  } else {
    log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  }
}

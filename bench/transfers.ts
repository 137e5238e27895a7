/**
 * Transfer benchmarks, against the bench server, each figure a median of rounds:
 * - (L) the ceiling: a minimal one-round-trip transfer function (lock two accounts, move the
 *   balances, a journal and two entries, on tables of its own), from the same lanes;
 * - (a) the raw ledger posting rate: ledger.post (one ledger_post call in its own transaction)
 *   from --connections lanes at once (50), each lane on its own pre-funded accounts, no HTTP:
 *   the baseline;
 * - (b) POST /transfers intra-bank over HTTP (token, ClientID, a unique paymentReference and
 *   Idempotency-Key each, outbox events), debits spread over many funded accounts, after a
 *   name enquiry per beneficiary (renewed every round: they expire);
 * - (c) the same, every transfer debiting one hot account (the same one in every round);
 * - (d) NIP transfers to another bank through the sandbox simulator (no latency): placed, sent
 *   and settled within the request; completed per second;
 * - (e) inbound NIP credits from another bank, delivered by the simulated rail;
 * - (f) payments from another bank into virtual accounts, one each, the same way: the accounts
 *   are made before the timed part of each run (the goal: (f) at least half of (b));
 * - (g) VAS airtime purchases (POST /vas/pay/airtime, MTN, ₦100) through the sandbox biller
 *   simulator (no latency), debits spread as (b)'s, each with its own Idempotency-Key; answered
 *   `successful` per second (the goal: (g) at least half of (b));
 * - (h) bulk payouts: POST /transfers/bulk, BULK_ITEMS intra-bank transfers a batch, debits and
 *   beneficiaries spread as (b)'s, from BULK_LANES lanes each sending a batch and waiting for it
 *   to complete (GET /transfers/bulk/:id); items placed per second (the goal: (h) at least
 *   twice (b));
 * - and, to explain (c) and (d): the ledger alone on the hot account, the same with four
 *   trivial round trips before COMMIT (as many as (c) makes after its ledger_post), and the
 *   ledger alone with the NIP settlement journal's shape (three GL accounts every one shares).
 * Every figure is taken as a ratio to (a), (L) and (b) of the same round, and the first and last
 * rounds are shown apart, so a slowdown as the day's transfers pile up is visible. Each run is profiled (CPU per
 * operation of load generator, server and PostgreSQL; round trips and the server's wait per
 * statement; what the database connections were doing; pg_stat_statements when preloaded), and
 * afterwards every answered request is checked against the rows it left, and the ledger
 * invariants against the whole ledger.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LedgerViolations } from '../src/ledger/ledger-audit.ts';
import { BILLER_MAGIC } from '../src/modules/vas/providers/biller-simulator.ts';
import { type DbProfile, DbSampler, machineCpu } from './db-profile.ts';
import type { Fixtures } from './fixtures.ts';
import { HttpClient, type HttpResponse } from './http-client.ts';
import {
  emptyRunRows,
  type LedgerRateReply,
  type LedgerRateRequest,
  POOL_WAIT_AND_BEGIN,
  type RunRows,
  type RunRowsReply,
} from './ledger-rate.ts';
import type { BenchOptions } from './options.ts';
import { row } from './report.ts';
import type { ServerProcess } from './server-process.ts';
import { median, ratio } from './stats.ts';
import { inParallel, type PostLoadResult, runPostLoad } from './transfer-load.ts';
import { BenchVacuum } from './vacuum.ts';

/** The server's institution code (run.ts sets INSTITUTION_CODE to it): intra-bank transfers. */
export const BENCH_INSTITUTION_CODE = '999240';
/** Another bank and an account the NIP simulator resolves (docs/sandbox-nip.md). */
const NIP_BANK_CODE = '000013';
const NIP_ACCOUNT_NUMBER = '0123456789';
/** ₦10.00: a whole-naira amount, so the simulator answers 00 (its magic values are in kobo). */
const AMOUNT_NAIRA = 10;
const AMOUNT_KOBO = 1000n;
/** The default NIP fee for ₦10 (₦10) and its VAT (7.5 %), for the NIP-shaped ledger journals. */
const NIP_FEE_KOBO = 1000n;
const NIP_VAT_KOBO = 75n;
const INTRA_STATEMENTS_AFTER_POST = 4;
const DEBIT_ACCOUNTS_PER_LANE = 4;
const BENEFICIARIES_PER_LANE = 2;
/** What (b)..(f) spend from the debit accounts; (g) is funded on top (debitFundingNaira). */
const DEBIT_FUNDING_NAIRA = 1_000_000;
const HOT_FUNDING_NAIRA = 50_000_000;
const SETUP_PARALLELISM = 8;
/**
 * (f) needs a fresh virtual account per payment, made before the run: as many as the lanes can
 * pay in the run at a generous rate (HEADROOM x the fastest (f) seen, at least MIN, at most MAX
 * per second); a lane that runs out stops early and the rate is still its count over its time.
 * Making them costs seconds per round, so they are made many at a time.
 */
const VIRTUAL_ACCOUNT_MAX_RATE = 2000;
const VIRTUAL_ACCOUNT_MIN_RATE = 250;
const VIRTUAL_ACCOUNT_HEADROOM = 3;
const VIRTUAL_ACCOUNT_PARALLELISM = 16;
const VIRTUAL_ACCOUNT_VALID_FOR_SECONDS = 3600;
const VIRTUAL_ACCOUNT_CALLBACK_URL = 'https://bench.example.com/va';
/** The goal: payments into virtual accounts at least half as fast as (b). */
const VIRTUAL_ACCOUNT_GOAL = 0.5;
/** (g): MTN airtime (seeded by the baseline migration; ₦50 to ₦50,000, 3 % commission back). */
const MTN_AIRTIME_CATEGORY_ID = '61e988830e69308aa37a7a99';
const VAS_AMOUNT_NAIRA = 100;
/**
 * (g)'s phone numbers: 0803, the lane in three digits, and an ending the biller simulator sells
 * to at once (its magic endings decline, delay or time out: BILLER_MAGIC).
 */
const VAS_PHONE_PREFIX = '0803';
const VAS_PHONE_ENDING = '5678';
if (VAS_PHONE_ENDING in BILLER_MAGIC) {
  throw new Error(`the bench's phone ending ${VAS_PHONE_ENDING} is magic to the biller simulator`);
}
/**
 * Purchases per second one lane is funded for, in every (g) run: more than all lanes together
 * make, so no lane can run out of money however the rate is shared.
 */
const VAS_FUNDED_RATE = 5000;
/** The goal: VAS airtime purchases at least half as fast as (b). */
const VAS_AIRTIME_GOAL = 0.5;
/** (h): a payroll's batch, and a few clients sending theirs at once. */
const BULK_ITEMS = 1000;
const BULK_LANES = 4;
/** How often a lane asks whether its batch completed. */
const BULK_POLL_MS = 100;
/** The goal: bulk items at least twice as fast as single transfers (b). */
const BULK_GOAL = 2;
const WARMUP_SECONDS = 2;
const SETTLE_MS = 500;
const IPC_MARGIN_MS = 120_000;
/** After a run, the server counts as idle under this share of a core (see drain). */
const DRAIN_IDLE_SHARE = 0.05;
const DRAIN_POLL_MS = 250;
const DRAIN_MAX_MS = 60_000;
/** Poll intervals sampled for a server's idle share before its first run (measureIdle). */
const IDLE_SAMPLES = 8;

export type TransferScenarioKey =
  | 'ceiling'
  | 'ledger'
  | 'intra'
  | 'intraHot'
  | 'nip'
  | 'inbound'
  | 'virtualAccount'
  | 'vasAirtime'
  | 'bulk'
  | 'health'
  | 'accountRead'
  | 'ledgerHot'
  | 'ledgerHotTail'
  | 'ledgerNip';

interface ScenarioDefinition {
  readonly key: TransferScenarioKey;
  readonly label: string;
  readonly kind: 'ledger' | 'http';
}

export const TRANSFER_SCENARIOS: readonly ScenarioDefinition[] = [
  { key: 'ceiling', label: '(L) one-round-trip transfer function', kind: 'ledger' },
  { key: 'ledger', label: '(a) ledger.post, 2 postings, spread accounts', kind: 'ledger' },
  { key: 'intra', label: '(b) POST /transfers intra-bank, spread', kind: 'http' },
  { key: 'intraHot', label: '(c) POST /transfers intra-bank, 1 hot debit', kind: 'http' },
  { key: 'nip', label: '(d) POST /transfers NIP, Completed', kind: 'http' },
  { key: 'inbound', label: '(e) inbound NIP credits via the rail', kind: 'http' },
  { key: 'virtualAccount', label: '(f) inbound payments to virtual accounts', kind: 'http' },
  { key: 'vasAirtime', label: '(g) VAS airtime purchases', kind: 'http' },
  { key: 'bulk', label: '(h) POST /transfers/bulk items, intra-bank', kind: 'http' },
  { key: 'health', label: '(i) GET /health (no auth, no database)', kind: 'http' },
  { key: 'accountRead', label: '(j) GET /accounts/:id (token, ClientID, a read)', kind: 'http' },
  { key: 'ledgerHot', label: '    ledger.post, 1 hot debit account', kind: 'ledger' },
  { key: 'ledgerHotTail', label: '    same + 4 x SELECT 1 before COMMIT', kind: 'ledger' },
  { key: 'ledgerNip', label: '    ledger.post, NIP settlement (3 GL)', kind: 'ledger' },
];

interface AccountRef {
  readonly id: string;
  readonly accountNumber: string;
}

interface TransferAccounts {
  /** lanes x DEBIT_ACCOUNTS_PER_LANE funded accounts; lane L uses L, L + lanes, ... */
  readonly debits: readonly AccountRef[];
  /** lanes x BENEFICIARIES_PER_LANE accounts that only receive. */
  readonly beneficiaries: readonly AccountRef[];
  /**
   * One hot account for the warm-up and every round: the daily limit is a counter, so the
   * rounds must not slow down as its day fills (the report shows the first and the last round).
   */
  readonly hot: AccountRef;
}

export interface TransferBenchContext {
  /** The server's name in the report: `stripped`, `deployed`, `no-logging`, ... */
  readonly name: string;
  /** The rows this server runs (the ledger rows run on the first server only). */
  readonly rows: readonly TransferScenarioKey[];
  readonly options: BenchOptions;
  readonly server: ServerProcess;
  readonly fixtures: Fixtures;
  readonly adminToken: string;
  /** PostgreSQL URL of the bench database, for the sampler; undefined on PGlite. */
  readonly databaseUrl: string | undefined;
  readonly poolSize: string;
  readonly log: (message: string) => void;
}

/** One run of one scenario, with its profile. */
export interface TransferRun {
  readonly runId: string;
  readonly key: TransferScenarioKey;
  /** Requests answered (HTTP) or journals attempted (ledger). */
  readonly operations: number;
  /** 2xx answers (HTTP) or journals posted (ledger). */
  readonly ok: number;
  /** 2xx answers reporting a Completed transfer (HTTP) or journals posted (ledger). */
  readonly completed: number;
  readonly failures: Readonly<Record<string, number>>;
  readonly elapsedSeconds: number;
  /** Completed per second: the figure compared. */
  readonly rate: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly perOperation: {
    readonly statements: number;
    readonly transactions: number;
    readonly serverCpuUs: number;
    readonly benchCpuUs: number;
    readonly postgresCpuUs: number | undefined;
  };
  /**
   * Milliseconds per operation the server waited on each statement (connection wait, round
   * trip, database work, lock waits), by statement: see DbCounters.timings.
   */
  readonly statementMs: Readonly<Record<string, number>>;
  /** Cores busy on the machine with work that is neither the bench, the server nor its backends. */
  readonly otherCores: number | undefined;
  readonly db: DbProfile | undefined;
  /** (f) only: the virtual accounts made before the run, and whether the lanes used them all. */
  readonly virtualAccounts?: VirtualAccountSetup;
  /** (h) only: the batches that completed in the run (each one Idempotency-Key). */
  readonly bulkBatches?: number;
  /** Seconds the server took after the run to finish what the requests left (workers). */
  readonly drainSeconds: number;
  /**
   * Seconds of the VACUUM (ANALYZE) of the server's database before the run, outside its timed
   * part (bench/vacuum.ts); undefined: none (autovacuum on, PGlite, or --no-vacuum).
   */
  readonly vacuumSeconds?: number;
}

export interface VirtualAccountSetup {
  readonly made: number;
  readonly seconds: number;
  readonly usedUp: boolean;
}

/** (f)'s virtual account numbers, per lane, in the order the lane pays them. */
type LaneVirtualAccounts = readonly (readonly string[])[];

export interface TransferRound {
  readonly round: number;
  readonly runs: Readonly<Partial<Record<TransferScenarioKey, TransferRun>>>;
}

/** One server's rounds (the rows it ran), warm-up and check. */
export interface ServerTransferResult {
  readonly name: string;
  readonly rounds: readonly TransferRound[];
  readonly warmup: readonly TransferRun[];
  readonly verification: TransferVerification;
  /** --profile: the CPU profile written for each row, after the rounds. */
  readonly profiles: Readonly<Partial<Record<TransferScenarioKey, string>>>;
}

export interface TransferBenchResult {
  /** Every server, the first (which runs the ledger rows too) first. */
  readonly servers: readonly ServerTransferResult[];
  readonly connections: number;
  readonly durationSeconds: number;
  readonly poolSize: string;
  readonly rounds: readonly TransferRound[];
  readonly warmup: readonly TransferRun[];
  readonly stoppedEarly: boolean;
  readonly verification: TransferVerification;
}

export interface TransferVerification {
  readonly transfersChecked: number;
  /** (g)'s purchases checked: successful, hold posted, idempotency key pointing at each. */
  readonly purchasesChecked: number;
  readonly journalsChecked: number;
  readonly problems: readonly string[];
  readonly pendingHolds: number;
  readonly violations: LedgerViolations;
}

/** One server under test, its accounts and its runner. */
interface ServerUnderTest {
  readonly context: TransferBenchContext;
  readonly runner: ScenarioRunner;
  readonly sampler: DbSampler | undefined;
  readonly scenarios: readonly ScenarioDefinition[];
  readonly warmup: TransferRun[];
  readonly rounds: TransferRound[];
  readonly profiles: Partial<Record<TransferScenarioKey, string>>;
}

/**
 * Every row on every server, one row at a time: in each round, each row runs on each server in
 * turn (the servers' order alternating too), so the servers' figures of one round are minutes
 * apart at most. The first server is the reference: the ledger rows, (L) among them, run there.
 */
export async function runTransferBench(
  contexts: readonly TransferBenchContext[],
): Promise<TransferBenchResult> {
  const [first] = contexts;
  if (first === undefined) {
    throw new Error('runTransferBench: no server');
  }
  const { options, log } = first;
  const started = Date.now();
  const servers: ServerUnderTest[] = [];
  try {
    for (const [index, context] of contexts.entries()) {
      servers.push(await prepare(context, index === 0));
    }
    log('transfers: warming up...');
    for (const server of servers) {
      await server.runner.enquire();
      for (const scenario of server.scenarios) {
        const seconds = Math.min(options.quick ? 1 : WARMUP_SECONDS, options.durationSeconds);
        server.warmup.push(await server.runner.run(scenario, 'W', seconds));
      }
    }
    let stoppedEarly = false;
    const deadline = started + options.maxMinutes * 60_000;
    for (let round = 1; round <= options.rounds; round += 1) {
      if (Date.now() > deadline) {
        const limit = `--max-minutes ${options.maxMinutes}`;
        log(`transfers: time limit (${limit}) reached after ${round - 1} rounds`);
        stoppedEarly = true;
        break;
      }
      await runRound(servers, round);
    }
    if (options.profileDir !== undefined && !options.profileRounds) {
      await profileRows(servers, options.profileDir, log);
    }
    log('transfers: checking every answer against the database, then the ledger invariants...');
    const results: ServerTransferResult[] = [];
    for (const server of servers) {
      const runs = [...server.warmup, ...server.rounds.flatMap((r) => Object.values(r.runs))];
      const verification = await verify(server.context, runs);
      const { name } = server.context;
      const { rounds, warmup, profiles } = server;
      results.push({ name, rounds, warmup, profiles, verification });
    }
    const reference = results[0] as ServerTransferResult;
    return {
      servers: results,
      connections: options.connections,
      durationSeconds: options.durationSeconds,
      poolSize: first.poolSize,
      rounds: reference.rounds,
      warmup: reference.warmup,
      stoppedEarly,
      verification: reference.verification,
    };
  } finally {
    for (const server of servers) {
      await server.sampler?.close();
    }
  }
}

async function prepare(context: TransferBenchContext, reference: boolean) {
  const lanes = context.options.connections;
  const setup = new HttpClient(context.server.baseUrl, SETUP_PARALLELISM);
  const sampler =
    context.databaseUrl === undefined ? undefined : await DbSampler.open(context.databaseUrl);
  try {
    const accountCount = lanes * (DEBIT_ACCOUNTS_PER_LANE + BENEFICIARIES_PER_LANE) + 1;
    context.log(`transfers (${context.name}): opening and funding ${accountCount} accounts...`);
    const accounts = await openAccounts(context, setup, lanes);
    const scenarios = TRANSFER_SCENARIOS.filter(
      ({ key, kind }) => context.rows.includes(key) && (reference || kind === 'http'),
    );
    const vacuum = await BenchVacuum.open(context.databaseUrl, context.options.vacuum);
    if (vacuum !== undefined) {
      context.log(
        `transfers (${context.name}): the PostgreSQL server runs without autovacuum: ` +
          'VACUUM (ANALYZE) of its database before every run, outside the timed part',
      );
    }
    const runner = new ScenarioRunner(context, sampler, accounts, vacuum);
    const idle = await runner.measureIdle();
    context.log(`transfers (${context.name}): idle at ${(idle * 100).toFixed(1)} % of a core`);
    return { context, runner, sampler, scenarios, warmup: [], rounds: [], profiles: {} };
  } catch (error) {
    await sampler?.close();
    throw error;
  } finally {
    setup.close();
  }
}

/** One round: each row on each server; the orders alternate, so no drift favours either. */
async function runRound(servers: readonly ServerUnderTest[], round: number): Promise<void> {
  for (const server of servers) {
    await server.runner.enquire();
  }
  const order = round % 2 === 1 ? TRANSFER_SCENARIOS : [...TRANSFER_SCENARIOS].reverse();
  const serverOrder = round % 2 === 1 ? servers : [...servers].reverse();
  const runs = new Map(
    servers.map((server) => [server, {} as Partial<Record<TransferScenarioKey, TransferRun>>]),
  );
  for (const scenario of order) {
    for (const server of serverOrder) {
      const mine = runs.get(server);
      if (mine !== undefined && server.scenarios.includes(scenario)) {
        mine[scenario.key] = await runInRound(server, scenario, round);
      }
    }
  }
  for (const server of servers) {
    const mine = runs.get(server) ?? {};
    server.rounds.push({ round, runs: mine });
    const rates = Object.entries(mine).map(([key, run]) => `${key} ${Math.round(run.rate)}/s`);
    server.context.log(
      `transfers round ${round}/${server.context.options.rounds} (${server.context.name}): ` +
        rates.join(', '),
    );
  }
}

/** A row's run in a round; with --profile-rounds, under V8's CPU profiler (HTTP rows). */
async function runInRound(
  server: ServerUnderTest,
  scenario: ScenarioDefinition,
  round: number,
): Promise<TransferRun> {
  const { context, runner } = server;
  const { durationSeconds, profileDir, profileRounds } = context.options;
  if (profileDir === undefined || !profileRounds || scenario.kind !== 'http') {
    return runner.run(scenario, String(round), durationSeconds);
  }
  await mkdir(profileDir, { recursive: true });
  const file = path.join(profileDir, `${context.name}-${scenario.key}-r${round}.cpuprofile`);
  await context.server.command('cpuProfile', { action: 'start' }, IPC_MARGIN_MS);
  const run = await runner.run(scenario, String(round), durationSeconds);
  await context.server.command('cpuProfile', { action: 'stop', path: file }, IPC_MARGIN_MS);
  return run;
}

/**
 * --profile: one more run of each HTTP row on each server, with V8's CPU profiler on, outside
 * the rounds (the profiler costs a little CPU); its answers are checked with the rest.
 */
async function profileRows(
  servers: readonly ServerUnderTest[],
  directory: string,
  log: (message: string) => void,
): Promise<void> {
  await mkdir(directory, { recursive: true });
  for (const server of servers) {
    const { context, runner } = server;
    for (const scenario of server.scenarios.filter(({ kind }) => kind === 'http')) {
      const file = path.join(directory, `${context.name}-${scenario.key}.cpuprofile`);
      await context.server.command('cpuProfile', { action: 'start' }, IPC_MARGIN_MS);
      const run = await runner.run(scenario, 'P', context.options.durationSeconds);
      await context.server.command('cpuProfile', { action: 'stop', path: file }, IPC_MARGIN_MS);
      server.warmup.push(run);
      server.profiles[scenario.key] = file;
      log(`transfers (${context.name}): ${scenario.key} profiled: ${file}`);
    }
  }
}

/** Accounts of the bench client: debits and the hot one funded by sandbox credits. */
async function openAccounts(
  context: TransferBenchContext,
  http: HttpClient,
  lanes: number,
): Promise<TransferAccounts> {
  const headers = { ...context.fixtures.apiHeaders };
  const open = (suffix: string) =>
    http
      .request('POST', '/accounts', headers, { suffix })
      .then((response) =>
        json<{ data: { _id: string; accountNumber: string } }>(response, 200, 'POST /accounts'),
      )
      .then(({ data }) => ({ id: data._id, accountNumber: data.accountNumber }));
  const debits = await inParallel(
    Array.from({ length: lanes * DEBIT_ACCOUNTS_PER_LANE }, (_, index) => `debit ${index}`),
    SETUP_PARALLELISM,
    open,
  );
  const beneficiaries = await inParallel(
    Array.from({ length: lanes * BENEFICIARIES_PER_LANE }, (_, index) => `beneficiary ${index}`),
    SETUP_PARALLELISM,
    open,
  );
  const hot = await open('hot');
  const admin = { authorization: `Bearer ${context.adminToken}` };
  const fund = (account: AccountRef, naira: number) =>
    http
      .request('POST', '/admin/sandbox/credits', admin, {
        accountNumber: account.accountNumber,
        amount: naira,
        narration: 'Bench funding',
      })
      .then((response) => json(response, 201, 'POST /admin/sandbox/credits'));
  const debitFunding = debitFundingNaira(context.options);
  await inParallel(debits, SETUP_PARALLELISM, (account) => fund(account, debitFunding));
  await fund(hot, HOT_FUNDING_NAIRA);
  return { debits, beneficiaries, hot };
}

/**
 * Each debit account's funding: what (b)..(f) spend, and its share of what its lane's (g) runs
 * could spend at VAS_FUNDED_RATE through the warm-up and every round (₦100 each, commission
 * not counted). Quick: ~₦1.3M; default: ~₦6.3M; at most ~₦376M (50 rounds of 60 s), under the
 * server's default most per credit (MAX_AMOUNT_NAIRA, ₦1,000,000,000).
 */
function debitFundingNaira(options: BenchOptions): number {
  const seconds = WARMUP_SECONDS + options.rounds * options.durationSeconds;
  const vasPerLane = VAS_FUNDED_RATE * seconds * VAS_AMOUNT_NAIRA;
  return DEBIT_FUNDING_NAIRA + Math.ceil(vasPerLane / DEBIT_ACCOUNTS_PER_LANE);
}

class ScenarioRunner {
  /** Name enquiry session ids by account number, renewed every round (they expire). */
  private enquiries = new Map<string, string>();
  /** The fastest (f) so far: how many virtual accounts the next (f) run needs. */
  private fastestVirtualAccountRate: number | undefined;
  /** The server's share of a core when it has nothing to do (measureIdle); see drain. */
  private idleShare = 0;

  constructor(
    private readonly context: TransferBenchContext,
    private readonly sampler: DbSampler | undefined,
    private readonly accounts: TransferAccounts,
    private readonly vacuum: BenchVacuum | undefined,
  ) {}

  /** POST /transfers/name-enquiry for every beneficiary, as the API requires before a transfer. */
  async enquire(): Promise<void> {
    const targets = [
      ...this.accounts.beneficiaries.map((account) => ({
        bankCode: BENCH_INSTITUTION_CODE,
        accountNumber: account.accountNumber,
      })),
      { bankCode: NIP_BANK_CODE, accountNumber: NIP_ACCOUNT_NUMBER },
    ];
    const headers = { ...this.context.fixtures.apiHeaders };
    // Fresh connections: the setup client's sit idle through a whole round, which can outlast
    // the server's keep-alive timeout, and a request sent as the server closes one is lost.
    const client = new HttpClient(this.context.server.baseUrl, SETUP_PARALLELISM);
    const answers = await inParallel(targets, SETUP_PARALLELISM, async (target) => {
      const response = await client.request('POST', '/transfers/name-enquiry', headers, target);
      return json<{ data: { sessionId: string } }>(response, 200, 'POST /transfers/name-enquiry');
    }).finally(() => client.close());
    this.enquiries = new Map(
      targets.map((target, index) => [
        `${target.bankCode}/${target.accountNumber}`,
        answers[index]?.data.sessionId ?? '',
      ]),
    );
  }

  async run(scenario: ScenarioDefinition, round: string, seconds: number): Promise<TransferRun> {
    const { hot } = this.accounts;
    const runId = `${scenario.key}${round}`;
    // Made outside the timed part and its profile: a payment needs its virtual account first.
    const virtualAccounts =
      scenario.key === 'virtualAccount'
        ? await this.makeVirtualAccounts(runId, seconds)
        : undefined;
    // Autovacuum's work, where the server does none: the run measures the tables a deployment
    // would have, not every dead version the bench's earlier runs left (bench/vacuum.ts).
    const vacuumSeconds = await this.vacuum?.run();
    await sleep(SETTLE_MS);
    const before = await this.snapshot();
    await this.sampler?.start();
    const measured =
      scenario.kind === 'ledger'
        ? await this.ledgerRun(scenario.key, runId, seconds, hot)
        : virtualAccounts !== undefined
          ? await this.virtualAccountRun(runId, seconds, virtualAccounts.lanes)
          : await this.httpRun(scenario.key, runId, seconds, hot);
    // Work the requests left to the workers (alerts, webhooks) belongs to this run's CPU per
    // operation, not to the next run's, on this server or another.
    const drainSeconds = await this.drain();
    const db = await this.sampler?.stop();
    const after = await this.snapshot();
    const ops = Math.max(1, measured.operations);
    const serverCpuUs = after.serverCpuUs - before.serverCpuUs;
    const benchCpuUs = after.benchCpuUs - before.benchCpuUs;
    const postgresCpuUs = db?.backendCpuMs === undefined ? undefined : db.backendCpuMs * 1000;
    let otherCores: number | undefined;
    if (after.machine !== undefined && before.machine !== undefined) {
      const busyUs = (after.machine.busyMs - before.machine.busyMs) * 1000;
      const ours = serverCpuUs + benchCpuUs + (postgresCpuUs ?? 0);
      otherCores = Math.max(0, busyUs - ours) / ((after.at - before.at) * 1000);
    }
    const statementMs: Record<string, number> = {};
    for (const [statement, timing] of Object.entries(after.timings)) {
      const ms = timing.ms - (before.timings[statement]?.ms ?? 0);
      if (ms > 0) {
        statementMs[statement] = ms / ops;
      }
    }
    return {
      runId,
      key: scenario.key,
      ...measured,
      statementMs,
      perOperation: {
        statements: (after.statements - before.statements) / ops,
        transactions: (after.transactions - before.transactions) / ops,
        serverCpuUs: serverCpuUs / ops,
        benchCpuUs: benchCpuUs / ops,
        postgresCpuUs: postgresCpuUs === undefined ? undefined : postgresCpuUs / ops,
      },
      otherCores,
      db,
      drainSeconds,
      ...(vacuumSeconds === undefined ? {} : { vacuumSeconds }),
      ...(virtualAccounts === undefined
        ? {}
        : { virtualAccounts: this.noteVirtualAccounts(virtualAccounts, measured) }),
    };
  }

  /**
   * The server's CPU share with nothing to do: the quietest of IDLE_SAMPLES poll intervals. On
   * PostgreSQL it is ~0; an embedded-PGlite server spends 15-20 % of a core running its
   * workers' polls inside its own database, and would never drain below DRAIN_IDLE_SHARE.
   */
  async measureIdle(): Promise<number> {
    let quietestUs = Number.POSITIVE_INFINITY;
    let sampled = 0;
    for await (const cpuUs of this.serverCpuPerPoll()) {
      quietestUs = Math.min(quietestUs, cpuUs);
      sampled += 1;
      if (sampled === IDLE_SAMPLES) {
        break;
      }
    }
    this.idleShare = quietestUs / (DRAIN_POLL_MS * 1000);
    return this.idleShare;
  }

  /**
   * Waits until the server is idle (under DRAIN_IDLE_SHARE of a core above its own idle share
   * over two DRAIN_POLL_MS intervals running), at most DRAIN_MAX_MS: answers the seconds waited.
   */
  private async drain(): Promise<number> {
    const started = performance.now();
    const idleUs = (this.idleShare + DRAIN_IDLE_SHARE) * DRAIN_POLL_MS * 1000;
    let quiet = 0;
    for await (const cpuUs of this.serverCpuPerPoll()) {
      quiet = cpuUs < idleUs ? quiet + 1 : 0;
      if (quiet === 2 || performance.now() - started >= DRAIN_MAX_MS) {
        break;
      }
    }
    return (performance.now() - started) / 1000;
  }

  /** The server's CPU (µs) in each DRAIN_POLL_MS interval from now on, for as long as asked. */
  private async *serverCpuPerPoll(): AsyncGenerator<number> {
    let last = await this.context.server.command('processStats', {}, IPC_MARGIN_MS);
    for (;;) {
      await sleep(DRAIN_POLL_MS);
      const now = await this.context.server.command('processStats', {}, IPC_MARGIN_MS);
      yield now.cpuUserUs + now.cpuSystemUs - last.cpuUserUs - last.cpuSystemUs;
      last = now;
    }
  }

  private async snapshot() {
    const server = await this.context.server.command('processStats', {}, IPC_MARGIN_MS);
    const bench = process.cpuUsage();
    return {
      at: performance.now(),
      serverCpuUs: server.cpuUserUs + server.cpuSystemUs,
      statements: server.db.statements,
      transactions: server.db.transactions,
      timings: server.db.timings,
      benchCpuUs: bench.user + bench.system,
      machine: machineCpu(),
    };
  }

  private async ledgerRun(
    key: TransferScenarioKey,
    runId: string,
    seconds: number,
    hot: AccountRef,
  ) {
    const lanes = this.context.options.connections;
    const { debits, beneficiaries } = this.accounts;
    const request: LedgerRateRequest = {
      lanes: Array.from({ length: lanes }, (_, lane) => ({
        debit:
          key === 'ledgerHot' || key === 'ledgerHotTail'
            ? [hot.id]
            : laneAccounts(debits, lane, lanes).map((a) => a.id),
        credit: laneAccounts(beneficiaries, lane, lanes).map((a) => a.id),
      })),
      shape: key === 'ledgerNip' ? 'nipSettlement' : key === 'ceiling' ? 'ceiling' : 'pair',
      amountKobo: AMOUNT_KOBO,
      feeKobo: NIP_FEE_KOBO,
      vatKobo: NIP_VAT_KOBO,
      // As many as an intra-bank transfer makes after its ledger_post (the recipient's Inwards
      // row, two outbox events, the daily-limit sum), holding the accounts' row locks.
      tailStatements: key === 'ledgerHotTail' ? INTRA_STATEMENTS_AFTER_POST : 0,
      durationMs: seconds * 1000,
      runId,
    };
    const reply: LedgerRateReply = await this.context.server.command(
      'ledgerRate',
      request,
      seconds * 1000 + IPC_MARGIN_MS,
    );
    const elapsedSeconds = reply.elapsedMs / 1000;
    return {
      operations: reply.posted + reply.failed,
      ok: reply.posted,
      completed: reply.posted,
      failures: reply.failed === 0 ? {} : { [`ledger: ${reply.firstError}`]: reply.failed },
      elapsedSeconds,
      rate: reply.posted / elapsedSeconds,
      p50Ms: reply.p50Ms,
      p99Ms: reply.p99Ms,
    };
  }

  private async httpRun(key: TransferScenarioKey, runId: string, seconds: number, hot: AccountRef) {
    if (key === 'inbound') {
      return this.inboundRun(runId, seconds);
    }
    if (key === 'vasAirtime') {
      return this.vasAirtimeRun(runId, seconds);
    }
    if (key === 'bulk') {
      return this.bulkRun(runId, seconds);
    }
    if (key === 'health' || key === 'accountRead') {
      return this.readRun(key, seconds);
    }
    const lanes = this.context.options.connections;
    const { debits, beneficiaries } = this.accounts;
    const apiHeaders = this.context.fixtures.apiHeaders;
    const nipEnquiry = this.enquiry(NIP_BANK_CODE, NIP_ACCOUNT_NUMBER);
    const result = await runPostLoad({
      baseUrl: this.context.server.baseUrl,
      path: '/transfers',
      connections: lanes,
      durationSeconds: seconds,
      request: (lane, sequence) => {
        const reference = `${runId}.${lane}.${sequence}`;
        const debit = key === 'intraHot' ? hot : pick(laneAccounts(debits, lane, lanes), sequence);
        const beneficiary = pick(laneAccounts(beneficiaries, lane, lanes), sequence);
        const to =
          key === 'nip'
            ? {
                nameEnquiryReference: nipEnquiry,
                beneficiaryBankCode: NIP_BANK_CODE,
                beneficiaryAccountNumber: NIP_ACCOUNT_NUMBER,
              }
            : {
                nameEnquiryReference: this.enquiry(
                  BENCH_INSTITUTION_CODE,
                  beneficiary.accountNumber,
                ),
                beneficiaryBankCode: BENCH_INSTITUTION_CODE,
                beneficiaryAccountNumber: beneficiary.accountNumber,
              };
        return {
          headers: { ...apiHeaders, 'idempotency-key': `${reference}.key` },
          body: {
            ...to,
            debitAccountNumber: debit.accountNumber,
            amount: AMOUNT_NAIRA,
            saveBeneficiary: false,
            narration: 'Bench transfer',
            paymentReference: reference,
          },
        };
      },
      isComplete: (body) => body.includes('"status":"Completed"'),
    });
    return measuredHttp(result);
  }

  /**
   * Reads: GET /health (no authentication, no database), the baseline of an HTTP answer, and
   * GET /accounts/:id of the client's account (token check, ClientID policy, the account read).
   */
  private async readRun(key: 'health' | 'accountRead', seconds: number) {
    const { fixtures } = this.context;
    const result = await runPostLoad({
      baseUrl: this.context.server.baseUrl,
      method: 'GET',
      path: key === 'health' ? '/health' : `/accounts/${fixtures.bigAccount.id}`,
      connections: this.context.options.connections,
      durationSeconds: seconds,
      request: () => ({ headers: key === 'health' ? {} : fixtures.apiHeaders, body: undefined }),
      isComplete: () => true,
    });
    return measuredHttp(result);
  }

  /**
   * Credits from another bank through the simulated NIP network (POST /admin/sandbox/credits:
   * the rail delivers each to the inbound credit service), spread over the lanes' beneficiary
   * accounts. The narration carries the run id, so the check can count what each run left.
   */
  private async inboundRun(runId: string, seconds: number) {
    const lanes = this.context.options.connections;
    const result = await runPostLoad({
      baseUrl: this.context.server.baseUrl,
      path: '/admin/sandbox/credits',
      connections: lanes,
      durationSeconds: seconds,
      request: (lane, sequence) => ({
        headers: { authorization: `Bearer ${this.context.adminToken}` },
        body: {
          accountNumber: pick(laneAccounts(this.accounts.beneficiaries, lane, lanes), sequence)
            .accountNumber,
          amount: AMOUNT_NAIRA,
          narration: `${runId}.${lane}.${sequence}`,
        },
      }),
      isComplete: (body) => body.includes('"status":"Completed"'),
    });
    return measuredHttp(result);
  }

  /**
   * Airtime bought for a phone number from the client's account (POST /vas/pay/airtime), the
   * debits spread over the lane's funded accounts as (b)'s; the biller simulator sells at once.
   * The Idempotency-Key `${runId}.${lane}.${sequence}` is how the check finds each purchase.
   */
  private async vasAirtimeRun(runId: string, seconds: number) {
    const lanes = this.context.options.connections;
    const apiHeaders = this.context.fixtures.apiHeaders;
    const result = await runPostLoad({
      baseUrl: this.context.server.baseUrl,
      path: '/vas/pay/airtime',
      connections: lanes,
      durationSeconds: seconds,
      request: (lane, sequence) => ({
        headers: { ...apiHeaders, 'idempotency-key': `${runId}.${lane}.${sequence}` },
        body: {
          serviceCategoryId: MTN_AIRTIME_CATEGORY_ID,
          amount: VAS_AMOUNT_NAIRA,
          channel: 'WEB',
          debitAccountNumber: pick(laneAccounts(this.accounts.debits, lane, lanes), sequence)
            .accountNumber,
          phoneNumber: `${VAS_PHONE_PREFIX}${String(lane % 1000).padStart(3, '0')}${VAS_PHONE_ENDING}`,
        },
      }),
      isComplete: (body) => body.includes('"status":"successful"'),
    });
    return measuredHttp(result);
  }

  /**
   * Bulk batches of BULK_ITEMS intra-bank transfers (POST /transfers/bulk), from BULK_LANES
   * lanes, each sending a batch and polling it until Completed, until the run's time is up: the
   * figure is the items placed over the time until the last batch completed. Item i of lane L's
   * n-th batch has the paymentReference `${runId}.L.n-i`; the batch's Idempotency-Key is
   * `${runId}.L.n`, so the check counts both.
   */
  private async bulkRun(runId: string, seconds: number) {
    const lanes = BULK_LANES;
    const { debits, beneficiaries } = this.accounts;
    const headers = this.context.fixtures.apiHeaders;
    const client = new HttpClient(this.context.server.baseUrl, lanes);
    const totals = { items: 0, placed: 0, batches: 0, failures: {} as Record<string, number> };
    const latencies: number[] = [];
    const started = performance.now();
    const deadline = started + seconds * 1000;
    const lane = async (index: number) => {
      for (let batch = 0; performance.now() < deadline; batch += 1) {
        const transfers = Array.from({ length: BULK_ITEMS }, (_, item) => {
          const beneficiary = pick(laneAccounts(beneficiaries, index, lanes), item);
          return {
            nameEnquiryReference: this.enquiry(BENCH_INSTITUTION_CODE, beneficiary.accountNumber),
            debitAccountNumber: pick(laneAccounts(debits, index, lanes), item).accountNumber,
            beneficiaryBankCode: BENCH_INSTITUTION_CODE,
            beneficiaryAccountNumber: beneficiary.accountNumber,
            amount: AMOUNT_NAIRA,
            narration: 'Bench bulk transfer',
            paymentReference: `${runId}.${index}.${batch}-${item}`,
          };
        });
        const sent = performance.now();
        const key = `${runId}.${index}.${batch}`;
        const accepted = await client.request(
          'POST',
          '/transfers/bulk',
          { 'content-type': 'application/json', ...headers, 'idempotency-key': key },
          { transfers },
        );
        if (accepted.status !== 202) {
          const what = `POST /transfers/bulk ${accepted.status}`;
          totals.failures[what] = (totals.failures[what] ?? 0) + 1;
          continue;
        }
        const id = json<{ data: { _id: string } }>(accepted, 202, 'POST /transfers/bulk').data._id;
        const done = await this.bulkCompleted(client, id);
        latencies.push(performance.now() - sent);
        totals.items += done.total;
        totals.placed += done.placed;
        totals.batches += 1;
      }
    };
    try {
      await Promise.all(Array.from({ length: lanes }, (_, index) => lane(index)));
    } finally {
      client.close();
    }
    const elapsedSeconds = (performance.now() - started) / 1000;
    const sorted = [...latencies].sort((a, b) => a - b);
    return {
      operations: totals.items,
      ok: totals.placed,
      completed: totals.placed,
      failures: totals.failures,
      elapsedSeconds,
      rate: totals.placed / elapsedSeconds,
      p50Ms: median(sorted),
      p99Ms: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0,
      bulkBatches: totals.batches,
    };
  }

  /**
   * Polls a bulk batch until it is Completed: its counts. It reads the client's list of batches
   * (their counts, not their 1,000 items each), as a client waiting for many would; the lanes'
   * batches are the newest.
   */
  private async bulkCompleted(client: HttpClient, id: string) {
    const headers = this.context.fixtures.apiHeaders;
    const url = `/transfers/bulk?limit=${BULK_LANES * 2}`;
    for (;;) {
      await sleep(BULK_POLL_MS);
      const response = await client.request('GET', url, headers, undefined);
      const { data } = json<{
        data: { _id: string; status: string; total: number; placed: number }[];
      }>(response, 200, 'GET /transfers/bulk');
      const batch = data.find((one) => one._id === id);
      if (batch?.status === 'Completed') {
        return batch;
      }
    }
  }

  /**
   * Fresh virtual accounts for an (f) run, each for one payment of AMOUNT_NAIRA: lane L's n-th
   * has the externalReference `${runId}.L.n`, the narration its payment will carry, so the check
   * can tell that each payment paid its own account. They settle to the lane's funded accounts,
   * as (b) spreads its debits.
   */
  private async makeVirtualAccounts(runId: string, seconds: number) {
    const lanes = this.context.options.connections;
    const rate = Math.min(
      VIRTUAL_ACCOUNT_MAX_RATE,
      Math.max(
        VIRTUAL_ACCOUNT_MIN_RATE,
        VIRTUAL_ACCOUNT_HEADROOM * (this.fastestVirtualAccountRate ?? VIRTUAL_ACCOUNT_MAX_RATE),
      ),
    );
    const perLane = Math.ceil((rate * seconds) / lanes);
    const settlements = Array.from({ length: lanes }, (_, lane) =>
      laneAccounts(this.accounts.debits, lane, lanes),
    );
    const slots = Array.from({ length: lanes * perLane }, (_, index) => ({
      lane: index % lanes,
      sequence: Math.floor(index / lanes),
    }));
    const headers = { ...this.context.fixtures.apiHeaders };
    // Fresh connections, as for the name enquiries: idle ones may have been closed by the server.
    const client = new HttpClient(this.context.server.baseUrl, VIRTUAL_ACCOUNT_PARALLELISM);
    const started = performance.now();
    const numbers = await inParallel(slots, VIRTUAL_ACCOUNT_PARALLELISM, async (slot) => {
      const settlement = pick(settlements[slot.lane] ?? [], slot.sequence);
      const response = await client.request('POST', '/virtual-accounts', headers, {
        validFor: VIRTUAL_ACCOUNT_VALID_FOR_SECONDS,
        callbackUrl: VIRTUAL_ACCOUNT_CALLBACK_URL,
        settlementAccount: {
          bankCode: BENCH_INSTITUTION_CODE,
          accountNumber: settlement.accountNumber,
        },
        amountControl: 'Fixed',
        amount: AMOUNT_NAIRA,
        externalReference: `${runId}.${slot.lane}.${slot.sequence}`,
      });
      return json<{ data: { accountNumber: string } }>(response, 200, 'POST /virtual-accounts').data
        .accountNumber;
    }).finally(() => client.close());
    // Slot i is lane i % lanes's (i / lanes)-th account.
    const laneNumbers = Array.from({ length: lanes }, (_, lane) =>
      numbers.filter((_, index) => index % lanes === lane),
    );
    return {
      lanes: laneNumbers,
      made: slots.length,
      seconds: (performance.now() - started) / 1000,
    };
  }

  /**
   * Payments from another bank over the simulated NIP network into the virtual accounts made
   * for the run (POST /admin/sandbox/virtual-account-payments), one each, the exact amount each
   * expects; a lane stops when its accounts are used up. Narrations carry the run id, as (e)'s.
   */
  private async virtualAccountRun(runId: string, seconds: number, lanes: LaneVirtualAccounts) {
    const result = await runPostLoad({
      baseUrl: this.context.server.baseUrl,
      path: '/admin/sandbox/virtual-account-payments',
      connections: lanes.length,
      durationSeconds: seconds,
      request: (lane, sequence) => {
        const accountNumber = lanes[lane]?.[sequence];
        return accountNumber === undefined
          ? undefined
          : {
              headers: { authorization: `Bearer ${this.context.adminToken}` },
              body: {
                accountNumber,
                amount: AMOUNT_NAIRA,
                narration: `${runId}.${lane}.${sequence}`,
              },
            };
      },
      isComplete: (body) => body.includes('"status":"Completed"'),
    });
    return measuredHttp(result);
  }

  /** Sizes the next (f) run from this one, and says when its lanes ran out of accounts. */
  private noteVirtualAccounts(
    made: { made: number; seconds: number },
    measured: { operations: number; rate: number },
  ): VirtualAccountSetup {
    this.fastestVirtualAccountRate = Math.max(this.fastestVirtualAccountRate ?? 0, measured.rate);
    const usedUp = measured.operations >= made.made;
    this.context.log(
      `transfers: (f) ${made.made.toLocaleString('en')} virtual accounts made in ` +
        `${made.seconds.toFixed(1)} s${usedUp ? '; the lanes used them all and stopped early' : ''}`,
    );
    return { made: made.made, seconds: made.seconds, usedUp };
  }

  private enquiry(bankCode: string, accountNumber: string): string {
    const sessionId = this.enquiries.get(`${bankCode}/${accountNumber}`);
    if (sessionId === undefined) {
      throw new Error(`no name enquiry for ${bankCode}/${accountNumber}`);
    }
    return sessionId;
  }
}

/** An HTTP run's figures as every scenario reports them: Completed answers per second. */
function measuredHttp(result: PostLoadResult) {
  return {
    operations: result.requests,
    ok: result.ok,
    completed: result.completed,
    failures: result.failures,
    elapsedSeconds: result.elapsedSeconds,
    rate: result.completedPerSecond,
    p50Ms: result.p50Ms,
    p99Ms: result.p99Ms,
  };
}

/** A lane's own accounts: lane, lane + lanes, lane + 2 lanes, ...: no two lanes share one. */
function laneAccounts(pool: readonly AccountRef[], lane: number, lanes: number): AccountRef[] {
  const own: AccountRef[] = [];
  for (let index = lane; index < pool.length; index += lanes) {
    own.push(pool[index] as AccountRef);
  }
  return own;
}

function pick(accounts: readonly AccountRef[], sequence: number): AccountRef {
  return accounts[sequence % accounts.length] as AccountRef;
}

/** Every answered request against the rows it left; then every ledger invariant. */
async function verify(
  context: TransferBenchContext,
  runs: readonly TransferRun[],
): Promise<TransferVerification> {
  const rows: RunRowsReply = await context.server.command(
    'countRunRows',
    { clientId: context.fixtures.clientId },
    // Reads every table the runs filled: minutes after a full run on a slow disk.
    10 * IPC_MARGIN_MS,
  );
  const problems: string[] = [];
  const checked: CheckedRows = { transfers: 0, purchases: 0, purchasesAnswered: 0, journals: 0 };
  const empty = emptyRunRows();
  for (const run of runs) {
    const expect: Expect = (what, actual, expected) => {
      if (actual !== expected) {
        problems.push(`${run.runId}: ${what} ${actual}, expected ${expected}`);
      }
    };
    checkRunRows(run, rows.runs[run.runId] ?? empty, expect, checked);
    const failed = total(run.failures);
    if (failed > 0) {
      problems.push(`${run.runId}: ${failed} requests failed: ${JSON.stringify(run.failures)}`);
    }
  }
  if (rows.pendingHolds !== 0) {
    problems.push(`${rows.pendingHolds} holds still pending`);
  }
  if (rows.vasPurchases !== checked.purchasesAnswered) {
    problems.push(
      `VAS purchases of the bench client ${rows.vasPurchases}, ` +
        `expected ${checked.purchasesAnswered} (one per 2xx answer of (g))`,
    );
  }
  const violations: LedgerViolations = await context.server.command(
    'verifyLedger',
    {},
    15 * 60_000,
  );
  for (const [name, count] of Object.entries(violations)) {
    if (count !== 0) {
      problems.push(`ledger invariant broken: ${name} = ${count}`);
    }
  }
  return {
    transfersChecked: checked.transfers,
    purchasesChecked: checked.purchases,
    journalsChecked: checked.journals,
    problems,
    pendingHolds: rows.pendingHolds,
    violations,
  };
}

/** What the checks covered, over every run: the report shows it beside the problems. */
interface CheckedRows {
  transfers: number;
  purchases: number;
  /** (g)'s 2xx answers: the bench client's VAS purchases must number exactly these. */
  purchasesAnswered: number;
  journals: number;
}

/** Records a problem when a count is not the one the run's answers call for. */
type Expect = (what: string, actual: number, expected: number) => void;

function total(counts: Readonly<Record<string, number>>): number {
  return Object.values(counts).reduce((sum, n) => sum + n, 0);
}

/** One run's rows against its 2xx answers, by what the scenario makes. */
function checkRunRows(run: TransferRun, found: RunRows, expect: Expect, checked: CheckedRows) {
  if (TRANSFER_SCENARIOS.find((scenario) => scenario.key === run.key)?.kind === 'ledger') {
    expect('journals posted', found.journals, run.ok);
    checked.journals += found.journals;
  } else if (run.key === 'health' || run.key === 'accountRead') {
    // Reads leave no rows: every one answered 2xx is the check (a failure is a problem below).
    expect('2xx answers', run.ok, run.operations);
  } else if (run.key === 'vasAirtime') {
    checkPurchases(run, found, expect, checked);
  } else if (run.key === 'bulk') {
    checkBulk(run, found, expect, checked);
  } else if (run.key === 'inbound' || run.key === 'virtualAccount') {
    checkCredits(run, found, expect, checked);
  } else {
    checkOutwards(run, found, expect, checked);
  }
}

/** Each a successful purchase with its hold posted, found by its Idempotency-Key. */
function checkPurchases(run: TransferRun, found: RunRows, expect: Expect, checked: CheckedRows) {
  checked.purchases += found.vasSuccessful;
  checked.purchasesAnswered += run.ok;
  checked.journals += found.vasJournals;
  expect('2xx answers reporting successful', run.completed, run.ok);
  expect('VAS idempotency keys', found.vasKeys, run.ok);
  expect('VAS purchases of the keys', found.vasPurchases, run.ok);
  expect('VAS purchases successful, hold posted', found.vasSuccessful, run.ok);
  expect('VAS purchase journals', found.vasJournals, run.ok);
  expect('Outwards transfers', total(found.outwards), 0);
}

function checkCredits(run: TransferRun, found: RunRows, expect: Expect, checked: CheckedRows) {
  checked.transfers += found.credits;
  checked.journals += found.creditJournals;
  expect('2xx answers reporting Completed', run.completed, run.ok);
  expect('inbound credits', found.credits, run.ok);
  expect('credit journals', found.creditJournals, run.ok);
  if (run.key === 'inbound') {
    expect('credit outbox events', found.creditEvents, run.ok);
  } else {
    // Each on the settlement account, accepted by its own virtual account, which is Paid.
    expect('virtual account payments', found.collections, run.ok);
    expect('virtual accounts Paid', found.paidVirtualAccounts, run.ok);
    expect('virtual account outbox events', found.collectionEvents, run.ok);
  }
}

/** Each placed item an intra-bank transfer as (b)'s; one Idempotency-Key per batch. */
function checkBulk(run: TransferRun, found: RunRows, expect: Expect, checked: CheckedRows) {
  const outwards = total(found.outwards);
  checked.transfers += outwards;
  checked.journals += found.journals;
  expect('items placed of items sent', run.ok, run.operations);
  expect('Outwards transfers', outwards, run.ok);
  expect('Outwards Completed', found.outwards.Completed ?? 0, run.ok);
  expect('batch idempotency keys', found.idempotencyKeys, run.bulkBatches ?? 0);
  expect('journals', found.journals, run.ok);
  expect('outbox events', found.outboxEvents, 2 * run.ok);
  expect('Inwards twins', found.inwards, run.ok);
}

function checkOutwards(run: TransferRun, found: RunRows, expect: Expect, checked: CheckedRows) {
  const outwards = total(found.outwards);
  checked.transfers += outwards;
  checked.journals += found.journals;
  expect('2xx answers reporting Completed', run.completed, run.ok);
  expect('Outwards transfers', outwards, run.ok);
  expect('Outwards Completed', found.outwards.Completed ?? 0, run.ok);
  expect('idempotency keys', found.idempotencyKeys, run.ok);
  expect('journals', found.journals, run.ok);
  if (run.key === 'nip') {
    // The settlement's event; placing a NIP transfer writes none.
    expect('outbox events', found.outboxEvents, run.ok);
    expect('holds posted', found.holds.posted ?? 0, run.ok);
    expect('holds in all', total(found.holds), run.ok);
    expect('Inwards transfers', found.inwards, 0);
  } else {
    // One event for the sender's Outwards side, one for the recipient's Inwards twin.
    expect('outbox events', found.outboxEvents, 2 * run.ok);
    expect('Inwards twins', found.inwards, run.ok);
  }
}

function json<T>(response: HttpResponse, status: number, what: string): T {
  if (response.status !== status) {
    throw new Error(`${what}: expected HTTP ${status}, got ${response.status}: ${response.body}`);
  }
  return JSON.parse(response.body) as T;
}

/**
 * One server's rows (the reference's by default): medians over rounds; ratios to (a) and (L) of
 * the same round (run on the reference server) and to this server's (b), then the median.
 */
export function summarizeTransfers(
  result: TransferBenchResult,
  server: ServerTransferResult | undefined = result.servers[0],
) {
  const rounds = server?.rounds ?? [];
  const reference = result.servers[0]?.rounds ?? [];
  const ranEveryRound = ({ key }: ScenarioDefinition) =>
    rounds.length > 0 && rounds.every((round) => round.runs[key] !== undefined);
  const scenarios = TRANSFER_SCENARIOS.filter(ranEveryRound).map((scenario) =>
    summarizeScenario(scenario, rounds, reference),
  );
  const goal = (key: TransferScenarioKey, target: number) => {
    const ratioToIntra = scenarios.find((item) => item.key === key)?.ratioToIntra ?? Number.NaN;
    return { ratioToIntra, goal: target, met: ratioToIntra >= target };
  };
  return {
    server: server?.name ?? '',
    connections: result.connections,
    durationSeconds: result.durationSeconds,
    poolSize: result.poolSize,
    rounds: rounds.length,
    stoppedEarly: result.stoppedEarly,
    scenarios,
    virtualAccountGoal: goal('virtualAccount', VIRTUAL_ACCOUNT_GOAL),
    vasAirtimeGoal: goal('vasAirtime', VAS_AIRTIME_GOAL),
    bulkGoal: goal('bulk', BULK_GOAL),
    vacuum: vacuumSummary(rounds),
    verification: server?.verification ?? result.verification,
  };
}

/** The VACUUM (ANALYZE) before each run of the rounds: undefined if there was none. */
function vacuumSummary(rounds: readonly TransferRound[]) {
  const seconds = rounds
    .flatMap((round) => Object.values(round.runs))
    .map((run) => run?.vacuumSeconds)
    .filter((value): value is number => value !== undefined);
  return seconds.length === 0
    ? undefined
    : { runs: seconds.length, medianSeconds: median(seconds), maxSeconds: Math.max(...seconds) };
}

export type TransferSummary = ReturnType<typeof summarizeTransfers>;

/** One row's medians over one server's rounds; (a) and (L) are the reference server's. */
function summarizeScenario(
  { key, label, kind }: ScenarioDefinition,
  rounds: readonly TransferRound[],
  reference: readonly TransferRound[],
) {
  const optional = (values: (number | undefined)[]) => {
    const known = values.filter((value): value is number => value !== undefined);
    return known.length === 0 ? undefined : median(known);
  };
  const rateOf = (run: TransferRun | undefined) => run?.rate ?? Number.NaN;
  const runs = rounds.map((round) => round.runs[key] as TransferRun);
  const toReference = (other: TransferScenarioKey) =>
    median(
      rounds.map((round, index) =>
        ratio(rateOf(round.runs[key]), rateOf(reference[index]?.runs[other])),
      ),
    );
  const states = (pick: (profile: DbProfile) => number) =>
    optional(runs.map((run) => (run.db === undefined ? undefined : pick(run.db))));
  return {
    key,
    label,
    kind,
    rate: median(runs.map((run) => run.rate)),
    roundRates: runs.map((run) => run.rate),
    p50Ms: median(runs.map((run) => run.p50Ms)),
    p99Ms: median(runs.map((run) => run.p99Ms)),
    ratioToLedger: toReference('ledger'),
    ratioToCeiling: toReference('ceiling'),
    ratioToIntra: median(
      rounds.map((round) => ratio(rateOf(round.runs[key]), rateOf(round.runs.intra))),
    ),
    operations: runs.reduce((sum, run) => sum + run.operations, 0),
    failures: runs.reduce(
      (sum, run) => sum + Object.values(run.failures).reduce((s, n) => s + n, 0),
      0,
    ),
    perOperation: {
      statements: median(runs.map((run) => run.perOperation.statements)),
      transactions: median(runs.map((run) => run.perOperation.transactions)),
      serverCpuUs: median(runs.map((run) => run.perOperation.serverCpuUs)),
      benchCpuUs: median(runs.map((run) => run.perOperation.benchCpuUs)),
      postgresCpuUs: optional(runs.map((run) => run.perOperation.postgresCpuUs)),
    },
    otherCores: optional(runs.map((run) => run.otherCores)),
    drainSeconds: median(runs.map((run) => run.drainSeconds ?? 0)),
    statementMs: medianByStatement(runs),
    postgresStatements: postgresByStatement(runs),
    connections: {
      running: states((p) => p.states.running),
      lockWait: states((p) => p.states.lockWait),
      walWait: states((p) => p.states.walWait),
      otherWait: states((p) => p.states.otherWait),
      idleInTransaction: states((p) => p.states.idleInTransaction),
      idle: states((p) => p.states.idle),
    },
  };
}

/** Per statement, the median over rounds of its milliseconds per operation; largest first. */
function medianByStatement(runs: readonly TransferRun[]): Record<string, number> {
  const keys = new Set(runs.flatMap((run) => Object.keys(run.statementMs)));
  const medians = [...keys].map(
    (key) => [key, median(runs.map((run) => run.statementMs[key] ?? 0))] as const,
  );
  return Object.fromEntries(medians.sort((a, b) => b[1] - a[1]));
}

/**
 * Per statement (pg_stat_statements), the median over rounds of PostgreSQL's milliseconds per
 * operation, planning included, and of its planning alone; undefined without the extension.
 */
function postgresByStatement(runs: readonly TransferRun[]) {
  if (runs.some((run) => run.db?.statements === undefined)) {
    return undefined;
  }
  const perOperation = runs.map((run) => {
    const ops = Math.max(1, run.operations);
    return new Map(
      (run.db?.statements ?? []).map((stat) => [
        stat.query,
        {
          ms: (stat.execMs + stat.planMs) / ops,
          planMs: stat.planMs / ops,
          calls: stat.calls / ops,
        },
      ]),
    );
  });
  const queries = new Set(perOperation.flatMap((map) => [...map.keys()]));
  return [...queries]
    .map((query) => {
      const pick = (field: 'ms' | 'planMs' | 'calls') =>
        median(perOperation.map((map) => map.get(query)?.[field] ?? 0));
      return { query, ms: pick('ms'), planMs: pick('planMs'), calls: pick('calls') };
    })
    .sort((a, b) => b.ms - a.ms);
}

const TOP_STATEMENTS = 5;

const RATE_COLUMNS = [46, 9, 9, 9, 10, 8, 8, 8, 10, 12];
const PROFILE_COLUMNS = [46, 6, 11, 8, 8, 7, 6, 6, 6, 6, 6];

export function renderTransferTable(summary: TransferSummary): string {
  const early = summary.stoppedEarly ? ' (stopped early: time limit)' : '';
  const lines = [
    `Transfers, ${summary.server} server: median of ${summary.rounds} round(s)${early}, ${summary.connections} at a time x ` +
      `${summary.durationSeconds} s, database pool ${summary.poolSize}`,
    ...rateLines(summary.scenarios),
    ...goalLines(summary),
    ...vacuumLines(summary.vacuum),
    '',
    ...profileLines(summary.scenarios),
    ...waitingLines(summary.scenarios),
    ...postgresLines(summary.scenarios),
    ...verificationLines(summary.verification),
  ];
  return `${lines.join('\n')}\n`;
}

function vacuumLines(vacuum: TransferSummary['vacuum']): string[] {
  return vacuum === undefined
    ? []
    : [
        `VACUUM (ANALYZE) of the database before each of the rounds' ${vacuum.runs} runs, ` +
          `outside the timed part (the server's autovacuum is off): median ` +
          `${fixed(vacuum.medianSeconds, 2)} s, longest ${fixed(vacuum.maxSeconds, 2)} s`,
      ];
}

/** Per scenario: its rate and latencies, and its rate against the ledger, (L) and (b). */
function rateLines(scenarios: TransferSummary['scenarios']): string[] {
  const header = [
    '',
    'per s',
    'p50 ms',
    'p99 ms',
    'x ledger',
    'errors',
    'x (L)',
    'x (b)',
    'round 1',
    'last round',
  ];
  return [
    row(header, RATE_COLUMNS),
    ...scenarios.map((item) =>
      row(
        [
          item.label,
          count(item.rate),
          fixed(item.p50Ms, 1),
          fixed(item.p99Ms, 1),
          fixed(item.ratioToLedger, 3),
          count(item.failures),
          fixed(item.ratioToCeiling, 3),
          fixed(item.ratioToIntra, 3),
          count(item.roundRates[0] ?? 0),
          count(item.roundRates.at(-1) ?? 0),
        ],
        RATE_COLUMNS,
      ),
    ),
  ];
}

/**
 * Per scenario: where an operation's time goes (round trips, CPU, connection states), and a
 * legend for the columns' short names.
 */
function profileLines(scenarios: TransferSummary['scenarios']): string[] {
  const header = [
    'Per operation (medians)',
    'trips',
    'server us',
    'PG us',
    'gen us',
    'other',
    'run',
    'lock',
    'WAL',
    'app',
    'idle',
  ];
  return [
    row(header, PROFILE_COLUMNS),
    ...scenarios.map((item) =>
      row(
        [
          item.label,
          fixed(item.perOperation.statements, 1),
          count(item.perOperation.serverCpuUs),
          item.perOperation.postgresCpuUs === undefined
            ? '-'
            : count(item.perOperation.postgresCpuUs),
          count(item.perOperation.benchCpuUs),
          optionalFixed(item.otherCores, 2),
          optionalFixed(item.connections.running, 1),
          optionalFixed(item.connections.lockWait, 1),
          optionalFixed(item.connections.walWait, 1),
          optionalFixed(item.connections.idleInTransaction, 1),
          optionalFixed(item.connections.idle, 1),
        ],
        PROFILE_COLUMNS,
      ),
    ),
    '  trips: database round trips (BEGIN and COMMIT included); server/PG/gen us: CPU of the',
    '  server process, the PostgreSQL backends, the load generator; other: cores busy with',
    '  anything else on the machine; run..idle: mean database connections running, waiting for',
    '  a row lock, waiting on WAL, idle in a transaction (waiting for the server), idle in pool.',
  ];
}

/** The goals of the rows this server ran. */
function goalLines(summary: TransferSummary): string[] {
  const ran = (key: TransferScenarioKey) => summary.scenarios.some((item) => item.key === key);
  return [
    ...(ran('virtualAccount') ? [goalLine('(f)', summary.virtualAccountGoal)] : []),
    ...(ran('vasAirtime') ? [goalLine('(g)', summary.vasAirtimeGoal)] : []),
    ...(ran('bulk') ? [goalLine('(h)', summary.bulkGoal)] : []),
  ];
}

/** Where the server waited, per statement: only a server whose round trips are counted. */
function waitingLines(scenarios: TransferSummary['scenarios']): string[] {
  if (scenarios.every((item) => Object.keys(item.statementMs).length === 0)) {
    return [];
  }
  return [
    '',
    `Server waiting per operation (ms, median): queued for a pooled connection, then the top ${TOP_STATEMENTS}`,
    '  statements inside transactions (round trip, database work and any lock wait)',
    ...scenarios.flatMap((item) => statementLines(item.label, item.statementMs)),
  ];
}

function goalLine(row: string, goal: TransferSummary['virtualAccountGoal']): string {
  return (
    `${row} / (b), same round: ${fixed(goal.ratioToIntra, 3)} ` +
    `(goal: at least ${goal.goal}) ${goal.met ? 'OK' : 'UNDER GOAL'}`
  );
}

function statementLines(label: string, statementMs: Readonly<Record<string, number>>): string[] {
  const entries = Object.entries(statementMs);
  // BEGIN waits for a pooled connection first; a statement outside a transaction (`* `) too.
  const queued = entries
    .filter(([statement]) => statement === POOL_WAIT_AND_BEGIN || statement.startsWith('* '))
    .reduce((sum, [, ms]) => sum + ms, 0);
  const inside = entries.filter(
    ([statement]) => statement !== POOL_WAIT_AND_BEGIN && !statement.startsWith('* '),
  );
  return [
    label,
    `  ${fixed(queued, 2).padStart(8)}  queued for a connection (and BEGIN, statements outside)`,
    ...inside
      .slice(0, TOP_STATEMENTS)
      .map(([statement, ms]) => `  ${fixed(ms, 2).padStart(8)}  ${statement}`),
  ];
}

function postgresLines(scenarios: TransferSummary['scenarios']): string[] {
  if (scenarios.some((item) => item.postgresStatements === undefined)) {
    return [];
  }
  return [
    '',
    `PostgreSQL time per operation (ms, median, pg_stat_statements; top ${TOP_STATEMENTS}):`,
    '  planning + execution (lock waits included), of which planning, and calls per operation',
    ...scenarios.flatMap((item) => {
      const statements = item.postgresStatements ?? [];
      const total = statements.reduce((sum, stat) => sum + stat.ms, 0);
      const planning = statements.reduce((sum, stat) => sum + stat.planMs, 0);
      const line = (ms: number, planMs: number, calls: string, text: string) =>
        `  ${fixed(ms, 3).padStart(8)} ${fixed(planMs, 3).padStart(7)} ${calls.padStart(5)}  ${text}`;
      return [
        item.label,
        line(total, planning, '', `all ${statements.length} statements`),
        ...statements
          .slice(0, TOP_STATEMENTS)
          .map((stat) =>
            line(stat.ms, stat.planMs, fixed(stat.calls, 1), truncate(stat.query, 56)),
          ),
      ];
    }),
  ];
}

function truncate(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 3)}...` : text;
}

function verificationLines(verification: TransferVerification): string[] {
  if (verification.problems.length === 0) {
    return [
      `check: every 2xx answer is one Completed transfer (${count(verification.transfersChecked)} ` +
        'checked) with its idempotency key, journal, outbox events (and posted hold for NIP; ' +
        'payment row and Paid virtual account for (f)); every (g) answer one successful VAS ' +
        `purchase (${count(verification.purchasesChecked)} checked) with its posted hold, ` +
        'journal and idempotency key; ' +
        `${count(verification.journalsChecked)} journals; no pending hold; all ledger invariants hold`,
    ];
  }
  return [
    `CHECK FAILED (${verification.problems.length} problems):`,
    ...verification.problems.slice(0, 20).map((problem) => `  ${problem}`),
  ];
}

function count(value: number): string {
  return Number.isFinite(value) ? Math.round(value).toLocaleString('en') : '-';
}

function fixed(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '-';
}

function optionalFixed(value: number | undefined, digits: number): string {
  return value === undefined ? '-' : fixed(value, digits);
}

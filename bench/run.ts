/**
 * npm run bench: HTTP throughput of GET /accounts/:id against GET /health, statement page
 * times on an account with 1M entries against one with 10, transfers (intra-bank, hot account,
 * NIP) against the raw ledger posting rate, and webhook delivery and outbox cost. Every figure
 * is a median of rounds, and the headline figures are ratios to a baseline measured in the same
 * round, because the machine is shared and noisy. `--only` picks parts. Progress goes to
 * stderr, the tables to stdout, JSON to --out.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LedgerViolations } from '../src/ledger/ledger-audit.ts';
import { type BenchDatabase, createBenchDatabase } from './database.ts';
import {
  deployedEnv,
  deployedName,
  freePort,
  renderServerComparison,
  type Variation,
} from './deployed.ts';
import { createFixtures, creditSmallAccount, type Fixtures } from './fixtures.ts';
import { HttpClient } from './http-client.ts';
import { type LoadOptions, type LoadResult, runLoad } from './load.ts';
import { type BenchOptions, OptionsError, parseOptions } from './options.ts';
import {
  type BenchRun,
  httpJson,
  type RoundResult,
  renderTable,
  summarize,
  writeJson,
} from './report.ts';
import type { BalanceCheck, SeedSummary } from './seed-ledger.ts';
import { type ServerProcess, startServer } from './server-process.ts';
import { renderStartTable, runStartBench } from './start.ts';
import { renderExportTable, runExportBench } from './statement-exports.ts';
import { type StatementScenario, statementScenarios, timeStatements } from './statements.ts';
import {
  BENCH_INSTITUTION_CODE,
  renderTransferTable,
  runTransferBench,
  summarizeTransfers,
  TRANSFER_SCENARIOS,
  type TransferBenchContext,
  type TransferScenarioKey,
} from './transfers.ts';
import { renderWebhookTable, runWebhookBench } from './webhooks.ts';

const SMALL_ACCOUNT_ENTRIES = 10;
const SEED_STEP_SECONDS = 30;
// The internal account that mirrors other banks in sandbox; it may go negative.
const SEED_COUNTERPART = 'gl.sandbox_external_float';
// The audience client assertions name; the server takes it as its PUBLIC_BASE_URL.
const PUBLIC_BASE_URL = 'http://bench.openibs.invalid';
const SEED_TIMEOUT_MS = 15 * 60_000;
const QUERY_TIMEOUT_MS = 5 * 60_000;
const WARMUP_SECONDS = 3;
const WARMUP_STATEMENT_REQUESTS = 5;
const SETTLE_MS = 1000;

/** The server on a fresh database, with a signed-in client. */
interface ServerSession {
  /** `stripped` (bench-server.ts), `deployed` (src/server.ts), `no-<part>` (one part off). */
  readonly name: string;
  readonly options: BenchOptions;
  readonly database: BenchDatabase;
  readonly server: ServerProcess;
  readonly http: HttpClient;
  readonly fixtures: Fixtures;
  readonly adminToken: string;
}

/** Everything the HTTP and statement measurements need, once the data is in place. */
interface Session extends ServerSession {
  readonly seed: SeedSummary & { analyzeMs: number };
  readonly balance: BalanceCheck;
  readonly violations: LedgerViolations | undefined;
  readonly scenarios: readonly StatementScenario[];
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
  process.stderr.write(`[bench] ${message}\n`);
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const startedAt = new Date();
  const cleanup = new Cleanup();
  process.once('SIGINT', () => {
    log('interrupted: stopping the server and removing the database');
    void cleanup.run().finally(() => process.exit(130));
  });
  const document: Record<string, unknown> = {};
  let transferProblems = 0;
  try {
    if (['http', 'transfers', 'exports'].some((part) => options.only.some((on) => on === part))) {
      const base = await prepareServer(options, cleanup);
      const seeded =
        options.only.includes('http') || options.only.includes('exports')
          ? await prepareHttp(base)
          : undefined;
      if (seeded !== undefined && options.only.includes('http')) {
        await warmUp(seeded);
        const deadline = startedAt.getTime() + options.maxMinutes * 60_000;
        const { rounds, stoppedEarly } = await measureRounds(seeded, deadline);
        Object.assign(document, report(seeded, { startedAt, rounds, stoppedEarly }));
      }
      if (seeded !== undefined && options.only.includes('exports')) {
        document.exports = await measureExports(seeded);
      }
      if (options.only.includes('transfers')) {
        const others = await prepareDeployedServers(base, cleanup);
        transferProblems = await measureTransfers([base, ...others], document);
      }
    }
  } finally {
    await cleanup.run();
  }
  if (options.only.includes('webhooks')) {
    log('webhooks: delivery rate and outbox cost');
    const webhooks = await runWebhookBench({
      rounds: options.rounds,
      quick: options.quick,
      vacuum: options.vacuum,
    });
    process.stdout.write(`\n${renderWebhookTable(webhooks)}\n`);
    document.webhooks = webhooks;
  }
  if (options.only.includes('start')) {
    log('start: openibs start --memory to its first /health 200, against a bare Node server');
    const start = await runStartBench({ rounds: options.quick ? 3 : 10 });
    process.stdout.write(`\n${renderStartTable(start)}\n`);
    document.start = start;
  }
  await writeJson(options.outPath, { ...document, startedAt, finishedAt: new Date(), options });
  process.stdout.write(`\nJSON summary: ${options.outPath}\n`);
  if (transferProblems > 0) {
    throw new Error(`transfer checks failed: ${transferProblems} problems (listed above)`);
  }
}

/**
 * A fresh database, a server on it, and a signed-in client with its main account: the stripped
 * bench server, or (`deployed`) src/server.ts as `npm start` runs it, with `part` off if given.
 */
async function prepareServer(
  options: BenchOptions,
  cleanup: Cleanup,
  deployed?: { variation: Variation },
): Promise<ServerSession> {
  const database = await createBenchDatabase();
  cleanup.add(() => database.drop());
  const name = deployed === undefined ? 'stripped' : deployedName(deployed.variation);
  log(`database (${name}): ${database.description}`);
  const adminToken = randomBytes(24).toString('base64url');
  const env = serverEnv(database.serverEnv, adminToken);
  let server: ServerProcess;
  if (deployed === undefined) {
    server = await startServer(env);
  } else {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), `openibs-bench-${name}-`));
    cleanup.add(() => rm(dataDir, { recursive: true, force: true }));
    const port = await freePort();
    const stdoutPath = path.join(path.dirname(options.outPath), `${name}-server.log`);
    await mkdir(path.dirname(stdoutPath), { recursive: true });
    server = await startServer(deployedEnv(env, { variation: deployed.variation, port, dataDir }), {
      entry: 'deployed',
      stdoutPath,
    });
    log(`server (${name}): standard output and request log in ${stdoutPath}`);
  }
  cleanup.add(() => server.stop());
  const http = new HttpClient(server.baseUrl);
  cleanup.add(() => http.close());
  log(`server (${name}): ${server.baseUrl} on ${server.ready.dbKind} ${server.ready.dbVersion}`);
  const fixtures = await createFixtures(http, { adminToken, audience: server.ready.publicBaseUrl });
  return { name, options, database, server, http, fixtures, adminToken };
}

/** The server as deployed, one per part turned off (--parts) and per --variant; PostgreSQL only. */
async function prepareDeployedServers(
  base: ServerSession,
  cleanup: Cleanup,
): Promise<ServerSession[]> {
  const { options } = base;
  if (!options.deployed) {
    return [];
  }
  if (base.database.kind !== 'postgres') {
    log('transfers: the server as deployed needs PostgreSQL (BENCH_DATABASE_URL); stripped only');
    return [];
  }
  const sessions: ServerSession[] = [];
  const variations: Variation[] = [
    undefined,
    ...options.parts.map((part) => ({ part })),
    ...options.variants.map((setting) => ({ setting })),
  ];
  for (const variation of variations) {
    sessions.push(await prepareServer(options, cleanup, { variation }));
  }
  return sessions;
}

/** The big account seeded, the small one filled, and the statement scenarios over them. */
async function prepareHttp(base: ServerSession): Promise<Session> {
  const { options, server, http, fixtures, adminToken } = base;
  const { seed, balance } = await seedBigAccount(server, fixtures, options);
  // After the seed, so ledger_post carries on the GL account's numbering from seeded counters.
  await creditSmallAccount(http, {
    adminToken,
    accountNumber: fixtures.smallAccount.accountNumber,
    count: SMALL_ACCOUNT_ENTRIES,
  });
  const violations = options.verify ? await verifyLedger(server) : undefined;
  const scenarios = statementScenarios(
    fixtures.bigAccount.id,
    fixtures.smallAccount.id,
    SMALL_ACCOUNT_ENTRIES,
    seed,
  );
  return { ...base, seed, balance, violations, scenarios };
}

/** The big account's statement as CSV and PDF: the server's memory beside JSON pages'. */
async function measureExports(session: Session) {
  log('exports: the big account as CSV and PDF, the server memory growth beside JSON pages');
  const results = await runExportBench({
    server: session.server,
    accountId: session.fixtures.bigAccount.id,
    entries: session.seed.firstSeq - 1 + session.seed.entries,
    headers: session.fixtures.apiHeaders,
    log,
  });
  process.stdout.write(`\n${renderExportTable(results)}\n`);
  return results;
}

/**
 * Transfers against the raw ledger rate, on every server (the stripped one first, which runs
 * the ledger rows); answers the count of problems.
 */
async function measureTransfers(
  sessions: readonly ServerSession[],
  document: Record<string, unknown>,
): Promise<number> {
  const rows = transferRows(sessions[0]?.options.rows);
  const contexts = sessions.map(
    (session): TransferBenchContext => ({
      name: session.name,
      // Workers off: no bulk worker places (h)'s batches.
      rows: session.name === 'no-workers' ? rows.filter((key) => key !== 'bulk') : rows,
      options: session.options,
      server: session.server,
      fixtures: session.fixtures,
      adminToken: session.adminToken,
      databaseUrl: session.database.serverEnv.DATABASE_URL,
      poolSize: poolSize(session.database),
      log,
    }),
  );
  const result = await runTransferBench(contexts);
  const summaries = result.servers.map((server) => summarizeTransfers(result, server));
  for (const summary of summaries) {
    process.stdout.write(`\n${renderTransferTable(summary)}`);
  }
  process.stdout.write(`\n${renderServerComparison(result)}`);
  const [summary] = summaries;
  document.transfers = {
    summary,
    rounds: result.rounds,
    warmup: result.warmup,
    servers: result.servers.map((server, index) => ({ ...server, summary: summaries[index] })),
  };
  return result.servers.reduce((sum, server) => sum + server.verification.problems.length, 0);
}

/** --rows: the transfer rows to run, (L) always among them (every ratio is to it). */
function transferRows(rows: readonly string[] | undefined): TransferScenarioKey[] {
  const known = TRANSFER_SCENARIOS.map((scenario) => scenario.key);
  if (rows === undefined) {
    return known;
  }
  const unknown = rows.filter((key) => !(known as readonly string[]).includes(key));
  if (unknown.length > 0) {
    throw new OptionsError(`--rows takes ${known.join(', ')}, got ${unknown.join(', ')}`);
  }
  return known.filter((key) => key === 'ceiling' || rows.includes(key));
}

function poolSize(database: BenchDatabase): string {
  return database.kind === 'postgres' ? (process.env.DATABASE_POOL_SIZE ?? '10') : '1 session';
}

/** The server's whole configuration: sandbox (for the credit API), local only, fresh secrets. */
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
    // One token serves the whole run, however many rounds.
    ACCESS_TOKEN_TTL_SECONDS: '86400',
    // Intra-bank transfers name this bank; NIP ones go to the simulator, answering at once.
    INSTITUTION_CODE: BENCH_INSTITUTION_CODE,
    NIP_SIMULATOR_LATENCY_MS: '0',
    // (g)'s airtime purchases go to the biller simulator, answering at once (its default).
    VAS_BILLER_SIMULATOR_LATENCY_MS: '0',
    // The bench is one client sending thousands a second: no limit may shape what it measures.
    RATE_LIMIT_TOKEN_PER_MINUTE_PER_IP: '0',
    RATE_LIMIT_ADMIN_PER_MINUTE_PER_IP: '0',
    RATE_LIMIT_API_PER_MINUTE_PER_CLIENT: '0',
    RATE_LIMIT_NAME_ENQUIRY_PER_MINUTE_PER_CLIENT: '0',
    RATE_LIMIT_NAME_ENQUIRY_MISSES_PER_HOUR_PER_CLIENT: '0',
    RATE_LIMIT_STATEMENT_EXPORTS_PER_MINUTE_PER_CLIENT: '0',
  };
  if (databaseEnv.DATABASE_URL === undefined) {
    delete env.DATABASE_URL;
  }
  return env;
}

async function seedBigAccount(server: ServerProcess, fixtures: Fixtures, options: BenchOptions) {
  log(`seeding ${options.entries.toLocaleString('en')} entries into the big account...`);
  const seeded = await server.command(
    'seed',
    {
      accountId: fixtures.bigAccount.id,
      counterpartId: SEED_COUNTERPART,
      entries: options.entries,
      stepSeconds: SEED_STEP_SECONDS,
    },
    SEED_TIMEOUT_MS,
  );
  const { elapsedMs: analyzeMs } = await server.command('analyze', {}, QUERY_TIMEOUT_MS);
  const accountId = fixtures.bigAccount.id;
  const balance = await server.command('checkBalance', { accountId }, QUERY_TIMEOUT_MS);
  assertBalanced(balance, seeded);
  log(
    `seeded in ${(seeded.elapsedMs / 1000).toFixed(1)} s ` +
      `(VACUUM ANALYZE ${(analyzeMs / 1000).toFixed(1)} s); balance ${balance.balanceKobo} kobo ` +
      `= sum of its entries ${balance.entriesSumKobo} kobo`,
  );
  return { seed: { ...seeded, analyzeMs }, balance };
}

function assertBalanced(balance: BalanceCheck, seed: SeedSummary): void {
  const expectedCount = BigInt(seed.firstSeq - 1 + seed.entries);
  if (
    balance.balanceKobo !== balance.entriesSumKobo ||
    balance.lastBalanceAfterKobo !== balance.balanceKobo ||
    balance.balanceKobo !== seed.balanceKobo ||
    balance.entryCount !== expectedCount
  ) {
    const text = JSON.stringify(balance, (_, value) =>
      typeof value === 'bigint' ? value.toString() : value,
    );
    throw new Error(`the seeded account does not add up: ${text}`);
  }
}

async function verifyLedger(server: ServerProcess): Promise<LedgerViolations> {
  log('verifying every ledger invariant (--verify)...');
  const violations = await server.command('verifyLedger', {}, QUERY_TIMEOUT_MS);
  const broken = Object.entries(violations).filter(([, count]) => count !== 0);
  if (broken.length > 0) {
    throw new Error(`ledger invariants broken: ${JSON.stringify(Object.fromEntries(broken))}`);
  }
  log('all ledger invariants hold');
  return violations;
}

/** JIT, connection pool, buffer cache: the first seconds of a fresh server measure those. */
async function warmUp(session: Session): Promise<void> {
  log('warming up...');
  const seconds = Math.min(session.options.durationSeconds, WARMUP_SECONDS);
  await runLoad(loadOptions(session, 'health', seconds));
  await runLoad(loadOptions(session, 'accounts', seconds));
  await timeStatements(
    session.http,
    session.fixtures.apiHeaders,
    session.scenarios,
    WARMUP_STATEMENT_REQUESTS,
  );
}

async function measureRounds(session: Session, deadline: number) {
  const { options } = session;
  const rounds: RoundResult[] = [];
  for (let round = 1; round <= options.rounds; round += 1) {
    if (Date.now() > deadline) {
      log(`time limit (--max-minutes ${options.maxMinutes}) reached after ${rounds.length} rounds`);
      return { rounds, stoppedEarly: true };
    }
    const result = await measureRound(session, round);
    rounds.push(result);
    const { health, accounts } = result;
    log(
      `round ${round}/${options.rounds}: health ${Math.round(health.rps)} req/s, accounts ` +
        `${Math.round(accounts.rps)} req/s (ratio ${(accounts.rps / health.rps).toFixed(3)})`,
    );
  }
  return { rounds, stoppedEarly: false };
}

async function measureRound(session: Session, round: number): Promise<RoundResult> {
  const seconds = session.options.durationSeconds;
  const load = (target: 'health' | 'accounts') => runLoad(loadOptions(session, target, seconds));
  // Alternate which endpoint goes first, so a drift of the machine does not favour either.
  let health: LoadResult;
  let accounts: LoadResult;
  if (round % 2 === 1) {
    health = await load('health');
    accounts = await load('accounts');
  } else {
    accounts = await load('accounts');
    health = await load('health');
  }
  // Let the server and database settle (GC, background writes) after the load, and warm the
  // one keep-alive connection again, so statement times measure statements.
  await sleep(SETTLE_MS);
  const { http, fixtures, scenarios } = session;
  await timeStatements(http, fixtures.apiHeaders, scenarios, 1);
  const statementMs = await timeStatements(
    http,
    fixtures.apiHeaders,
    scenarios,
    session.options.samples,
  );
  return { round, health, accounts, statementMs };
}

function loadOptions(
  session: Session,
  target: 'health' | 'accounts',
  durationSeconds: number,
): LoadOptions {
  const { server, fixtures, options } = session;
  return target === 'health'
    ? {
        url: `${server.baseUrl}/health`,
        headers: {},
        connections: options.connections,
        durationSeconds,
      }
    : {
        url: `${server.baseUrl}/accounts/${fixtures.bigAccount.id}`,
        headers: fixtures.apiHeaders,
        connections: options.connections,
        durationSeconds,
      };
}

/** Prints the HTTP and statement tables; answers their part of the JSON summary. */
function report(
  session: Session,
  measured: { startedAt: Date; rounds: RoundResult[]; stoppedEarly: boolean },
): Record<string, unknown> {
  const { options, database, server } = session;
  const run: BenchRun = {
    ...measured,
    finishedAt: new Date(),
    options,
    database: {
      kind: database.kind,
      description: database.description,
      version: server.ready.dbVersion,
      poolSize: poolSize(database),
    },
    seed: session.seed,
    balance: session.balance,
    violations: session.violations,
    scenarios: session.scenarios,
  };
  const summary = summarize(run);
  process.stdout.write(`\n${renderTable(run, summary)}`);
  return httpJson(run, summary);
}

try {
  await main();
} catch (error) {
  process.exitCode = 1;
  if (error instanceof OptionsError) {
    log(`${error.message} (see npm run bench -- --help)`);
  } else {
    log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  }
}

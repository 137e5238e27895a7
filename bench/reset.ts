/**
 * npm run bench:reset: how long POST /admin/sandbox/reset takes after 10,000 transfers made
 * since the last reset, on in-memory PGlite (what `openibs start --memory` runs) and on
 * PostgreSQL (when BENCH_DATABASE_URL or TEST_DATABASE_URL is set; a fresh database beside it,
 * dropped after). In-process: the app answers through inject, so the figure is the server's own
 * time. Each round makes the transfers (intra-bank, placed through the transfer service, group
 * committed as under load), then times the reset; beside it, in the same round, two baselines:
 * a bare `SELECT 1` round trip, and a reset with nothing made since (the fixed cost). Every
 * figure is a median of rounds. The goal: a median of at most 100 ms on each database.
 *
 *   npm run bench:reset [-- --rounds 5 --transfers 10000 --only pglite|postgres --out file.json]
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config/config.ts';
import type { Db } from '../src/db/db.ts';
import { migrate } from '../src/db/migrate.ts';
import { runAdminStatement, withDatabase } from '../src/db/pg-admin.ts';
import { createPgDb } from '../src/db/pg-db.ts';
import { createPgliteDb } from '../src/db/pglite-db.ts';
import type { Fixtures } from '../src/sandbox/fixtures/index.ts';
import { createServices, type Services } from '../src/services.ts';
import { systemClock } from '../src/shared/clock.ts';
import { nubanFromSerial } from '../src/shared/nuban.ts';
import { row } from './report.ts';
import { median, ratio } from './stats.ts';

const INSTITUTION_CODE = '999240';
const ADMIN_TOKEN = `bench-admin-${randomBytes(16).toString('hex')}`;
const GOAL_MS = 100;
const LANES = 32;
const BASELINE_SAMPLES = 20;
const PAYER = { ibsClientId: '65f1b0000000000000000001', oauthClientId: 'a1'.repeat(16) };
const PAYEE = { ibsClientId: '65f1b0000000000000000002', oauthClientId: 'b2'.repeat(16) };
const PAYER_ACCOUNT = nubanFromSerial(INSTITUTION_CODE, 501n);
const PAYEE_ACCOUNT = nubanFromSerial(INSTITUTION_CODE, 502n);

interface Round {
  readonly transfers: number;
  readonly makeSeconds: number;
  readonly selectOneMs: number;
  readonly emptyResetMs: number;
  readonly resetMs: number;
  readonly serverTookMs: number;
}

interface Target {
  readonly name: 'pglite' | 'postgres';
  readonly db: Db;
  drop(): Promise<void>;
}

function benchFixtures(): Fixtures {
  const publicKeyPem = generateKeyPairSync('rsa', { modulusLength: 2048 })
    .publicKey.export({ type: 'spki', format: 'pem' })
    .toString();
  const client = (who: typeof PAYER, name: string, accountNumber: string, balance: number) => ({
    name,
    ibsClientId: who.ibsClientId,
    apps: [{ oauthClientId: who.oauthClientId, publicKeyPem }],
    accounts: [{ accountNumber, balance }],
  });
  return {
    clients: [
      client(PAYER, 'Bench Payer', PAYER_ACCOUNT, 1_000_000_000),
      client(PAYEE, 'Bench Payee', PAYEE_ACCOUNT, 0),
    ],
  };
}

async function openTarget(name: Target['name']): Promise<Target> {
  if (name === 'pglite') {
    const db = await createPgliteDb({ dataDir: undefined });
    return { name, db, drop: () => db.close() };
  }
  const adminUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || '';
  const database = `openibs_bench_reset_${randomBytes(6).toString('hex')}`;
  await runAdminStatement(adminUrl, `CREATE DATABASE ${database}`);
  const db = createPgDb({ connectionString: withDatabase(adminUrl, database), poolSize: 20 });
  return {
    name,
    db,
    async drop() {
      await db.close();
      await runAdminStatement(adminUrl, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    },
  };
}

/** The sandbox as the server builds it (no rate limits: the bench is one client). */
async function sandboxOn(db: Db): Promise<{ app: FastifyInstance; services: Services }> {
  await migrate(db);
  const config = loadConfig({
    INSTITUTION_CODE,
    ADMIN_TOKEN,
    TOKEN_SIGNING_SECRET: randomBytes(32).toString('hex'),
    PUBLIC_BASE_URL: 'http://bench.openibs.invalid',
    RATE_LIMIT_ADMIN_PER_MINUTE_PER_IP: '0',
    RATE_LIMIT_API_PER_MINUTE_PER_CLIENT: '0',
  });
  const secrets = { adminToken: ADMIN_TOKEN, tokenSigningSecret: randomBytes(32).toString('hex') };
  const services = createServices({ config, db, clock: systemClock, secrets });
  const app = await buildApp({ config, services, db, clock: systemClock, secrets });
  await app.ready();
  return { app, services };
}

/** `count` intra-bank transfers from the payer to the payee, LANES at a time. */
async function makeTransfers(services: Services, count: number): Promise<void> {
  const principal = {
    clientId: PAYER.ibsClientId,
    appId: 'bench',
    oauthClientId: PAYER.oauthClientId,
  };
  const enquiry = await services.nameEnquiryService.enquire(principal, {
    bankCode: INSTITUTION_CODE,
    accountNumber: PAYEE_ACCOUNT,
  });
  let next = 0;
  const lane = async () => {
    while (next < count) {
      next += 1;
      await services.outboundTransfers.createTransfer(principal, {
        nameEnquiryReference: enquiry.sessionId,
        debitAccountNumber: PAYER_ACCOUNT,
        beneficiaryBankCode: INSTITUTION_CODE,
        beneficiaryAccountNumber: PAYEE_ACCOUNT,
        amountKobo: 1000n,
        saveBeneficiary: false,
      });
    }
  };
  await Promise.all(Array.from({ length: LANES }, lane));
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function reset(app: FastifyInstance): Promise<{ ms: number; tookMs: number }> {
  let tookMs = Number.NaN;
  const ms = await timed(async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/admin/sandbox/reset',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    if (response.statusCode !== 200) {
      throw new Error(`reset failed: ${response.body}`);
    }
    tookMs = response.json().data.tookMs;
  });
  return { ms, tookMs };
}

async function runRound(
  target: Target,
  app: FastifyInstance,
  services: Services,
  transfers: number,
): Promise<Round> {
  const makeSeconds = (await timed(() => makeTransfers(services, transfers))) / 1000;
  const [{ count }] = (await target.db.query<{ count: bigint }>(
    "SELECT count(*) FROM transfers WHERE type = 'Outwards'",
  )) as [{ count: bigint }];
  const samples: number[] = [];
  for (let index = 0; index < BASELINE_SAMPLES; index += 1) {
    samples.push(await timed(() => target.db.query('SELECT 1')));
  }
  const after = await reset(app);
  const empty = await reset(app);
  return {
    transfers: Number(count),
    makeSeconds,
    selectOneMs: median(samples),
    emptyResetMs: empty.ms,
    resetMs: after.ms,
    serverTookMs: after.tookMs,
  };
}

async function benchTarget(name: Target['name'], rounds: number, transfers: number) {
  const target = await openTarget(name);
  try {
    const { app, services } = await sandboxOn(target.db);
    const applied = await app.inject({
      method: 'POST',
      url: '/admin/sandbox/fixtures',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: benchFixtures(),
    });
    if (applied.statusCode !== 200) {
      throw new Error(`fixtures refused: ${applied.body}`);
    }
    const results: Round[] = [];
    for (let round = 1; round <= rounds; round += 1) {
      const result = await runRound(target, app, services, transfers);
      process.stderr.write(`${name} round ${round}: ${JSON.stringify(result)}\n`);
      results.push(result);
    }
    await app.close();
    return { name, rounds: results };
  } finally {
    await target.drop();
  }
}

function summarize(name: string, rounds: readonly Round[]) {
  const pick = (key: keyof Round) => median(rounds.map((round) => round[key]));
  const resetMs = pick('resetMs');
  return {
    database: name,
    transfersPerRound: pick('transfers'),
    resetMs,
    serverTookMs: pick('serverTookMs'),
    emptyResetMs: pick('emptyResetMs'),
    selectOneMs: pick('selectOneMs'),
    ratioToEmptyReset: ratio(resetMs, pick('emptyResetMs')),
    ratioToSelectOne: ratio(resetMs, pick('selectOneMs')),
    goalMet: resetMs <= GOAL_MS,
  };
}

function render(summaries: readonly ReturnType<typeof summarize>[]): string {
  const widths = [10, 10, 14, 12, 12, 10, 12, 12, 6];
  const lines = [
    row(
      [
        'database',
        'transfers',
        'reset (ms)',
        'server (ms)',
        'empty (ms)',
        'SELECT 1',
        'x empty',
        'x SELECT 1',
        '<=100',
      ],
      widths,
    ),
    ...summaries.map((summary) =>
      row(
        [
          summary.database,
          String(summary.transfersPerRound),
          summary.resetMs.toFixed(1),
          summary.serverTookMs.toFixed(1),
          summary.emptyResetMs.toFixed(1),
          summary.selectOneMs.toFixed(2),
          summary.ratioToEmptyReset.toFixed(2),
          summary.ratioToSelectOne.toFixed(0),
          summary.goalMet ? 'yes' : 'no',
        ],
        widths,
      ),
    ),
  ];
  return `Reset after N transfers (medians of rounds; baselines measured in the same rounds)\n${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '5' },
      transfers: { type: 'string', default: '10000' },
      only: { type: 'string' },
      out: { type: 'string' },
    },
  });
  const rounds = Number(values.rounds);
  const transfers = Number(values.transfers);
  const postgres = Boolean(process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL);
  const names = (['pglite', 'postgres'] as const).filter(
    (name) =>
      (values.only === undefined || values.only === name) && (name === 'pglite' || postgres),
  );
  const summaries = [];
  for (const name of names) {
    const result = await benchTarget(name, rounds, transfers);
    summaries.push(summarize(name, result.rounds));
  }
  process.stdout.write(render(summaries));
  if (values.out !== undefined) {
    await writeFile(values.out, `${JSON.stringify({ summaries }, null, 2)}\n`);
  }
}

await main();

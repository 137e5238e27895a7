import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { LedgerViolations } from '../src/ledger/ledger-audit.ts';
import type { LoadResult } from './load.ts';
import type { BenchOptions } from './options.ts';
import type { BalanceCheck, SeedSummary } from './seed-ledger.ts';
import type { StatementScenario } from './statements.ts';
import { median, percentile, ratio } from './stats.ts';

/** A deep page of the big account may cost at most this many times the small account's page. */
export const STATEMENT_RATIO_TARGET = 2;
const BASELINE_SCENARIO = 'smallPage0';
const HEADLINE_SCENARIO = 'bigDeepPage';

export interface RoundResult {
  readonly round: number;
  readonly health: LoadResult;
  readonly accounts: LoadResult;
  /** Milliseconds of every timed request, per scenario key. */
  readonly statementMs: ReadonlyMap<string, readonly number[]>;
}

export interface BenchRun {
  readonly startedAt: Date;
  readonly finishedAt: Date;
  readonly options: BenchOptions;
  readonly database: { kind: string; description: string; version: string; poolSize: string };
  readonly seed: SeedSummary & { analyzeMs: number };
  readonly balance: BalanceCheck;
  readonly violations: LedgerViolations | undefined;
  readonly scenarios: readonly StatementScenario[];
  readonly rounds: readonly RoundResult[];
  readonly stoppedEarly: boolean;
}

/**
 * Each figure is the median over rounds. Ratios are taken within a round (both sides measured
 * minutes apart would compare two states of a noisy machine), then the median over rounds; so a
 * ratio column need not equal the quotient of the two median columns.
 */
export function summarize(run: BenchRun) {
  const loadMedian = (pick: (round: RoundResult) => LoadResult) => ({
    rps: median(run.rounds.map((round) => pick(round).rps)),
    p50Ms: median(run.rounds.map((round) => pick(round).p50Ms)),
    p99Ms: median(run.rounds.map((round) => pick(round).p99Ms)),
  });
  const roundMedian = (round: RoundResult, key: string) => median(round.statementMs.get(key) ?? []);
  const statements = run.scenarios.map((scenario) => {
    const roundMedians = run.rounds.map((round) => roundMedian(round, scenario.key));
    const all = run.rounds.flatMap((round) => round.statementMs.get(scenario.key) ?? []);
    const roundRatios = run.rounds.map((round) =>
      ratio(roundMedian(round, scenario.key), roundMedian(round, BASELINE_SCENARIO)),
    );
    return {
      key: scenario.key,
      label: scenario.label,
      path: scenario.path,
      expectTotal: scenario.expectTotal,
      medianMs: median(roundMedians),
      p95Ms: percentile(all, 95),
      roundMediansMs: roundMedians,
      ratioToSmallPage0: median(roundRatios),
    };
  });
  const headline = statements.find((item) => item.key === HEADLINE_SCENARIO)?.ratioToSmallPage0;
  // Same page size, different depth: what depth alone costs (the small page has 10 rows, not 100).
  const depthOnly = median(
    run.rounds.map((round) =>
      ratio(roundMedian(round, HEADLINE_SCENARIO), roundMedian(round, 'bigPage0')),
    ),
  );
  return {
    load: {
      connections: run.options.connections,
      durationSeconds: run.options.durationSeconds,
      health: loadMedian((round) => round.health),
      accounts: loadMedian((round) => round.accounts),
      ratioAccountsToHealth: median(
        run.rounds.map((round) => ratio(round.accounts.rps, round.health.rps)),
      ),
    },
    statements,
    statementDeepToSmall: {
      ratio: headline ?? Number.NaN,
      target: STATEMENT_RATIO_TARGET,
      withinTarget: headline !== undefined && headline <= STATEMENT_RATIO_TARGET,
      deepToBigPage0: depthOnly,
    },
  };
}

export type Summary = ReturnType<typeof summarize>;

const LOAD_COLUMNS = [44, 10, 9, 9];
const STATEMENT_COLUMNS = [48, 10, 9, 9];

export function renderTable(run: BenchRun, summary: Summary): string {
  const lines = [
    ...headerLines(run),
    '',
    ...loadLines(summary.load),
    '',
    ...statementLines(summary.statements, summary.statementDeepToSmall),
  ];
  return `${lines.join('\n')}\n`;
}

function headerLines(run: BenchRun): string[] {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const early = run.stoppedEarly ? ' (stopped early: time limit)' : '';
  const verified = run.violations === undefined ? '' : '; all ledger invariants hold (--verify)';
  const { database, seed, balance } = run;
  return [
    `OpenIBS bench: median of ${run.rounds.length} round(s)${early}`,
    `  database  ${database.description}, server ${database.version}, pool ${database.poolSize}`,
    `  machine   ${os.cpus().length} CPUs, node ${process.version}; load generator and server in separate processes`,
    `  seed      ${count(seed.entries)} entries in ${seconds(seed.elapsedMs)}, VACUUM ANALYZE ${seconds(seed.analyzeMs)}`,
    `  check     big account balance ${naira(balance.balanceKobo)} NGN = sum of its ${count(Number(balance.entryCount))} entries${verified}`,
  ];
}

function loadLines(load: Summary['load']): string[] {
  const line = (label: string, result: Summary['load']['health']) =>
    row([label, count(result.rps), fixed(result.p50Ms, 1), fixed(result.p99Ms, 1)], LOAD_COLUMNS);
  return [
    row(
      [
        `HTTP load, ${load.connections} connections x ${load.durationSeconds} s`,
        'req/s',
        'p50 ms',
        'p99 ms',
      ],
      LOAD_COLUMNS,
    ),
    line('GET /health (no auth, no database)', load.health),
    line('GET /accounts/:id (token check + database)', load.accounts),
    row(['ratio accounts / health (req/s)', fixed(load.ratioAccountsToHealth, 3)], LOAD_COLUMNS),
  ];
}

function statementLines(
  statements: Summary['statements'],
  headline: Summary['statementDeepToSmall'],
): string[] {
  const verdict = headline.withinTarget ? 'OK' : 'OVER TARGET';
  return [
    row(
      ['Statement page, limit 100 (one client)', 'median ms', 'p95 ms', 'x small'],
      STATEMENT_COLUMNS,
    ),
    ...statements.map((item) =>
      row(
        [
          item.label,
          fixed(item.medianMs, 2),
          fixed(item.p95Ms, 2),
          fixed(item.ratioToSmallPage0, 2),
        ],
        STATEMENT_COLUMNS,
      ),
    ),
    `big account deep page / small account page 0: ${fixed(headline.ratio, 2)}x ` +
      `(target: within ${headline.target}x) ${verdict}`,
    `big account deep page / its page 0 (depth alone): ${fixed(headline.deepToBigPage0, 2)}x`,
  ];
}

/**
 * The HTTP part of the JSON summary: every round's raw figures too, so a later look can question
 * a median.
 */
export function httpJson(run: BenchRun, summary: Summary): Record<string, unknown> {
  return {
    startedAt: run.startedAt.toISOString(),
    finishedAt: run.finishedAt.toISOString(),
    machine: { cpus: os.cpus().length, node: process.version, platform: process.platform },
    options: run.options,
    database: run.database,
    seed: { ...run.seed, firstAt: run.seed.firstAt.toISOString() },
    balanceCheck: run.balance,
    violations: run.violations ?? null,
    stoppedEarly: run.stoppedEarly,
    summary,
    rounds: run.rounds.map((round) => ({
      round: round.round,
      health: round.health,
      accounts: round.accounts,
      statementMedianMs: Object.fromEntries(
        [...round.statementMs].map(([key, times]) => [key, median(times)]),
      ),
    })),
  };
}

/** The JSON summary of the whole invocation (bigints as strings). */
export async function writeJson(outPath: string, document: Record<string, unknown>) {
  await mkdir(path.dirname(outPath), { recursive: true });
  const machine = { cpus: os.cpus().length, node: process.version, platform: process.platform };
  const json = JSON.stringify(
    { machine, ...document },
    (_, value) => (typeof value === 'bigint' ? value.toString() : value),
    2,
  );
  await writeFile(outPath, `${json}\n`);
}

/** One table line: the first cell left-aligned, the others right-aligned. */
export function row(cells: readonly string[], widths: readonly number[]): string {
  return cells
    .map((cell, index) =>
      index === 0 ? cell.padEnd(widths[0] ?? 0) : cell.padStart(widths[index] ?? 0),
    )
    .join('');
}

function count(value: number): string {
  return Math.round(value).toLocaleString('en');
}

function fixed(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '-';
}

function naira(kobo: bigint): string {
  const sign = kobo < 0n ? '-' : '';
  const abs = kobo < 0n ? -kobo : kobo;
  return `${sign}${(abs / 100n).toLocaleString('en')}.${(abs % 100n).toString().padStart(2, '0')}`;
}

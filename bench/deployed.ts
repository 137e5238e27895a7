/**
 * The server as deployed beside the stripped bench server: its environment (that of `npm start`
 * with the bench's sandbox settings, or with one part turned off), and the table comparing the
 * two, and each part's cost, row by row.
 */
import { createServer } from 'node:net';
import type { Part } from './options.ts';
import { row } from './report.ts';
import { median, ratio } from './stats.ts';
import {
  type ServerTransferResult,
  summarizeTransfers,
  type TransferBenchResult,
  type TransferScenarioKey,
} from './transfers.ts';

/**
 * Rate limits as deployed count every request, but the bench is one client sending thousands a
 * second, past the defaults (60,000 a minute per client): so each limit is set as high as the
 * configuration allows. The limiter does all its work and never answers 429.
 */
const UNREACHED_LIMIT = '10000000';
const RATE_LIMITS = [
  'RATE_LIMIT_TOKEN_PER_MINUTE_PER_IP',
  'RATE_LIMIT_ADMIN_PER_MINUTE_PER_IP',
  'RATE_LIMIT_ADMIN_FAILURES_PER_MINUTE_PER_IP',
  'RATE_LIMIT_API_PER_MINUTE_PER_CLIENT',
  'RATE_LIMIT_NAME_ENQUIRY_PER_MINUTE_PER_CLIENT',
  'RATE_LIMIT_NAME_ENQUIRY_MISSES_PER_HOUR_PER_CLIENT',
  'RATE_LIMIT_STATEMENT_EXPORTS_PER_MINUTE_PER_CLIENT',
];
/** Every background worker the server runs, each switched off by its own setting. */
const WORKER_SWITCHES = [
  'STATUS_QUERY_WORKER_ENABLED',
  'WEBHOOK_WORKER_ENABLED',
  'ALERTS_WORKER_ENABLED',
  'MONTHLY_STATEMENTS_WORKER_ENABLED',
  'RETENTION_WORKER_ENABLED',
];

/** A deployed server's difference: one part off, or one setting (NAME=VALUE). */
export type Variation = { readonly part: Part } | { readonly setting: string } | undefined;

/** The name a server goes by: `deployed`, `no-<part>`, or `deployed+NAME=VALUE`. */
export function deployedName(variation: Variation): string {
  if (variation === undefined) {
    return 'deployed';
  }
  return 'part' in variation ? `no-${variation.part}` : `deployed+${variation.setting}`;
}

/**
 * The deployed server's environment: the stripped server's (sandbox, fresh secrets, simulators
 * without latency) with the defaults of `npm start` for logging, metrics and workers, the
 * limits on (UNREACHED_LIMIT), and the variation's part off or its setting set.
 */
export function deployedEnv(
  strippedEnv: NodeJS.ProcessEnv,
  options: { variation: Variation; port: number; dataDir: string },
): NodeJS.ProcessEnv {
  const part =
    options.variation !== undefined && 'part' in options.variation
      ? options.variation.part
      : undefined;
  const env: NodeJS.ProcessEnv = { ...strippedEnv, PORT: String(options.port) };
  // The demo client's files; the request log goes to a file beside them.
  env.DATA_DIR = options.dataDir;
  delete env.LOG_LEVEL;
  delete env.METRICS_ENABLED;
  for (const name of [...RATE_LIMITS, ...WORKER_SWITCHES]) {
    delete env[name];
  }
  for (const name of RATE_LIMITS) {
    env[name] = part === 'limits' ? '0' : UNREACHED_LIMIT;
  }
  if (part === 'logging') {
    env.LOG_LEVEL = 'silent';
  } else if (part === 'metrics') {
    env.METRICS_ENABLED = 'false';
  } else if (part === 'workers') {
    for (const name of WORKER_SWITCHES) {
      env[name] = 'false';
    }
  }
  if (options.variation !== undefined && 'setting' in options.variation) {
    const [name = '', ...value] = options.variation.setting.split('=');
    env[name] = value.join('=');
  }
  return env;
}

/** A port free now, for a server that does not report the one it listens on. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

const COMPARE_COLUMNS = [44, 9, 9, 8, 8, 8, 8, 8, 9, 9, 8, 8, 10];

/**
 * Per HTTP row, the stripped server against the deployed one in the same rounds: each rate, the
 * deployed one as a share of the stripped one (per round, then the median), each against (L),
 * p99, CPU per operation of the server and of PostgreSQL (the run and what its requests left
 * to the workers), and how long the deployed server took to finish that; then each part's cost: the
 * deployed server's rate with that part off, as a multiple of the deployed rate.
 */
export function renderServerComparison(result: TransferBenchResult): string {
  const [stripped, deployed, ...parts] = result.servers;
  if (stripped === undefined || deployed === undefined) {
    return '';
  }
  const summaries = new Map(
    result.servers.map((server) => [server.name, summarizeTransfers(result, server)]),
  );
  const of = (server: ServerTransferResult, key: TransferScenarioKey) =>
    summaries.get(server.name)?.scenarios.find((item) => item.key === key);
  const keys = (summaries.get(deployed.name)?.scenarios ?? []).map((item) => item.key);
  const header = [
    `Stripped (s) and as deployed (d), same rounds`,
    's /s',
    'd /s',
    'd / s',
    's x(L)',
    'd x(L)',
    's p99',
    'd p99',
    's srv us',
    'd srv us',
    's PG us',
    'd PG us',
    'd drain s',
  ];
  const lines = [row(header, COMPARE_COLUMNS)];
  for (const key of keys) {
    const s = of(stripped, key);
    const d = of(deployed, key);
    lines.push(
      row(
        [
          d?.label ?? key,
          count(s?.rate),
          count(d?.rate),
          fixed(roundRatio(deployed, stripped, key), 3),
          fixed(s?.ratioToCeiling, 3),
          fixed(d?.ratioToCeiling, 3),
          fixed(s?.p99Ms, 0),
          fixed(d?.p99Ms, 0),
          count(s?.perOperation.serverCpuUs),
          count(d?.perOperation.serverCpuUs),
          count(s?.perOperation.postgresCpuUs),
          count(d?.perOperation.postgresCpuUs),
          fixed(d?.drainSeconds, 1),
        ],
        COMPARE_COLUMNS,
      ),
    );
  }
  return `${[...lines, ...partLines(deployed, parts, summaries)].join('\n')}\n`;
}

function partLines(
  deployed: ServerTransferResult,
  parts: readonly ServerTransferResult[],
  summaries: ReadonlyMap<string, ReturnType<typeof summarizeTransfers>>,
): string[] {
  if (parts.length === 0) {
    return [];
  }
  const columns = [44, ...parts.map(() => 25)];
  const keys = (summaries.get(deployed.name)?.scenarios ?? []).map((item) => item.key);
  const label = (key: TransferScenarioKey) =>
    summaries.get(deployed.name)?.scenarios.find((item) => item.key === key)?.label ?? key;
  return [
    '',
    'One part off, or one setting: rate x deployed (same round, median) / server us per op',
    row(['', ...parts.map((part) => part.name)], columns),
    ...keys.map((key) =>
      row(
        [
          label(key),
          ...parts.map((part) => {
            const item = summaries.get(part.name)?.scenarios.find((one) => one.key === key);
            return item === undefined
              ? '-'
              : `${fixed(roundRatio(part, deployed, key), 3)} / ${count(item.perOperation.serverCpuUs)}`;
          }),
        ],
        columns,
      ),
    ),
  ];
}

/** One server's rate of a row over another's, per round, then the median. */
export function roundRatio(
  server: ServerTransferResult,
  other: ServerTransferResult,
  key: TransferScenarioKey,
): number {
  const ratios = server.rounds.flatMap((round, index) => {
    const mine = round.runs[key]?.rate;
    const theirs = other.rounds[index]?.runs[key]?.rate;
    return mine === undefined || theirs === undefined ? [] : [ratio(mine, theirs)];
  });
  return median(ratios);
}

function count(value: number | undefined): string {
  return value !== undefined && Number.isFinite(value)
    ? Math.round(value).toLocaleString('en')
    : '-';
}

function fixed(value: number | undefined, digits: number): string {
  return value !== undefined && Number.isFinite(value) ? value.toFixed(digits) : '-';
}

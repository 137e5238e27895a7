import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

export interface BenchOptions {
  readonly quick: boolean;
  readonly rounds: number;
  /** Seconds per autocannon run. */
  readonly durationSeconds: number;
  readonly connections: number;
  /** Journals seeded into the big account (each one entry on it). */
  readonly entries: number;
  /** Timed requests per statement scenario per round. */
  readonly samples: number;
  /** Check every ledger invariant after seeding (reads every entry: seconds per million). */
  readonly verify: boolean;
  readonly outPath: string;
  /** No new round starts after this many minutes; what was measured is still reported. */
  readonly maxMinutes: number;
}

// Outside the repository: a results file under bench/ would show in git status and fail
// `biome check`, which formats every JSON file under bench/.
const DEFAULT_OUT = path.join(os.tmpdir(), 'openibs-bench', 'latest.json');

const USAGE = `Usage: npm run bench -- [options]

  --quick            short run: 3 rounds of 3 s, 100,000 entries, 20 samples
  --rounds N         rounds to take the median of (default 5)
  --duration S       seconds per load run (default 8)
  --connections N    concurrent connections for the load runs (default 50)
  --entries N        entries in the big account (default 1,000,000)
  --samples N        timed requests per statement page per round (default 40)
  --verify           check every ledger invariant after seeding
  --out PATH         JSON summary (default $TMPDIR/openibs-bench/latest.json)
  --max-minutes M    start no round after M minutes (default 8)

Database: PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL is set (a fresh
openibs_bench_<random> database, dropped at the end), embedded PGlite otherwise.`;

/** A bad command line: reported as one line and a pointer to --help, without a stack. */
export class OptionsError extends Error {
  override readonly name = 'OptionsError';
}

export function parseOptions(argv: readonly string[]): BenchOptions {
  const { values } = parseArgsOrExplain(argv);
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const quick = values.quick;
  return {
    quick,
    rounds: integer('rounds', values.rounds, quick ? 3 : 5, 1, 50),
    durationSeconds: integer('duration', values.duration, quick ? 3 : 8, 1, 60),
    connections: integer('connections', values.connections, 50, 1, 1000),
    entries: integer('entries', values.entries, quick ? 100_000 : 1_000_000, 1_000, 20_000_000),
    samples: integer('samples', values.samples, quick ? 20 : 40, 1, 1000),
    verify: values.verify,
    outPath: values.out ?? DEFAULT_OUT,
    maxMinutes: integer('max-minutes', values['max-minutes'], 8, 1, 120),
  };
}

function parseArgsOrExplain(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      options: {
        quick: { type: 'boolean', default: false },
        rounds: { type: 'string' },
        duration: { type: 'string' },
        connections: { type: 'string' },
        entries: { type: 'string' },
        samples: { type: 'string' },
        verify: { type: 'boolean', default: false },
        out: { type: 'string' },
        'max-minutes': { type: 'string' },
        help: { type: 'boolean', default: false },
      },
      strict: true,
    });
  } catch (error) {
    throw new OptionsError(error instanceof Error ? error.message : String(error));
  }
}

function integer(
  name: string,
  text: string | undefined,
  fallback: number,
  min: number,
  max: number,
) {
  if (text === undefined) {
    return fallback;
  }
  const value = Number(text.replaceAll('_', ''));
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new OptionsError(`--${name} must be an integer from ${min} to ${max}, got "${text}"`);
  }
  return value;
}

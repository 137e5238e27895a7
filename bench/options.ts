import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

/**
 * The parts of the bench: `http` (health, accounts, statements), `transfers`, `webhooks`,
 * `start` (an in-memory start to its first /health 200), and `exports` (the big account's
 * statement as CSV and PDF: the server's memory growth beside JSON pages').
 */
export const SECTIONS = ['http', 'transfers', 'webhooks', 'start', 'exports'] as const;
export type Section = (typeof SECTIONS)[number];

/**
 * The parts of the server as deployed that `--parts` turns off one at a time, each on a server
 * of its own: request logging, rate limits, metrics, background workers.
 */
export const PARTS = ['logging', 'limits', 'metrics', 'workers'] as const;
export type Part = (typeof PARTS)[number];

export interface BenchOptions {
  readonly quick: boolean;
  /** The parts to run (all by default). */
  readonly only: readonly Section[];
  readonly rounds: number;
  /** Seconds per load run (autocannon, and each transfer run). */
  readonly durationSeconds: number;
  readonly connections: number;
  /** Journals seeded into the big account (each one entry on it). */
  readonly entries: number;
  /** Timed requests per statement scenario per round. */
  readonly samples: number;
  /** Check every ledger invariant after seeding (reads every entry: seconds per million). */
  readonly verify: boolean;
  readonly outPath: string;
  /**
   * No new round starts after this many minutes (http: from the start of the run; transfers:
   * from the start of their part); what was measured is still reported.
   */
  readonly maxMinutes: number;
  /** The transfer part's rows (keys of TRANSFER_SCENARIOS); undefined: all. */
  readonly rows: readonly string[] | undefined;
  /** Also run the transfer part's rows on the server as deployed (PostgreSQL only). */
  readonly deployed: boolean;
  /** Parts of the deployed server to measure by turning each off alone, each a server. */
  readonly parts: readonly Part[];
  /** NAME=VALUE settings, each a deployed server of its own with that setting: before/after. */
  readonly variants: readonly string[];
  /** Where to write a CPU profile of each HTTP row on each server; undefined: none. */
  readonly profileDir: string | undefined;
  /**
   * With profileDir: profile each round's run of every HTTP row instead of one extra run after
   * the rounds (a round-to-round difference shows in the profiles of the same run).
   */
  readonly profileRounds: boolean;
  /**
   * VACUUM (ANALYZE) each server's database before every transfer run when the PostgreSQL
   * server's autovacuum is off (bench/vacuum.ts); --no-vacuum: never.
   */
  readonly vacuum: boolean;
}

// Outside the repository: a results file under bench/ would show in git status and fail
// `biome check`, which formats every JSON file under bench/.
const DEFAULT_OUT = path.join(os.tmpdir(), 'openibs-bench', 'latest.json');

const USAGE = `Usage: npm run bench -- [options]

  --quick            short run: 3 rounds of 3 s, 100,000 entries, 20 samples
  --only PARTS       comma-separated parts to run: http (health, accounts, statements; seeds
                     the big account), transfers, webhooks, start (10 in-memory starts,
                     3 with --quick), exports (the big account's statement as CSV
                     and PDF, memory growth; seeds the big account) (default: all)
  --rounds N         rounds to take the median of (default 5)
  --duration S       seconds per load run, transfer runs too (default 8)
  --connections N    concurrent connections (transfer lanes too) per load run (default 50)
  --entries N        entries in the big account (default 1,000,000)
  --samples N        timed requests per statement page per round (default 40)
  --verify           check every ledger invariant after seeding
  --out PATH         JSON summary (default $TMPDIR/openibs-bench/latest.json)
  --max-minutes M    start no round after M minutes (default 8; transfers count
                     from their own start)
  --rows KEYS        the transfer part's rows, comma-separated: ceiling, ledger, intra,
                     intraHot, nip, inbound, virtualAccount, vasAirtime, bulk, health,
                     accountRead, ledgerHot, ledgerHotTail, ledgerNip (default: all;
                     ceiling, the (L) baseline, always runs)
  --stripped-only    the transfer rows on the stripped bench server alone (PostgreSQL
                     runs them on the server as deployed too, by default)
  --parts PARTS      also run the deployed server's rows with one part off, each on a
                     server of its own: logging, limits, metrics, workers, or all
 --variant N=V      also a deployed server with setting N=V (repeatable): a change
                     behind a setting, before and after in the same rounds
  --profile DIR      after the rounds, one more run of each HTTP row on every server
                     with V8's CPU profiler on; DIR/<server>-<row>.cpuprofile
                     (summarize with: npx tsx bench/cpu-profile-top.ts FILE)
  --profile-rounds   with --profile: profile every round's run of each HTTP row instead
                     (DIR/<server>-<row>-r<round>.cpuprofile), no extra run
  --no-vacuum        do not VACUUM (ANALYZE) each server's database before every transfer
                     run (by default the bench does, outside the timed part, when the
                     PostgreSQL server runs without autovacuum, as a deployment does not)

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
    only: sections(values.only),
    rounds: integer('rounds', values.rounds, quick ? 3 : 5, 1, 50),
    durationSeconds: integer('duration', values.duration, quick ? 3 : 8, 1, 60),
    connections: integer('connections', values.connections, 50, 1, 1000),
    entries: integer('entries', values.entries, quick ? 100_000 : 1_000_000, 1_000, 20_000_000),
    samples: integer('samples', values.samples, quick ? 20 : 40, 1, 1000),
    verify: values.verify,
    outPath: values.out ?? DEFAULT_OUT,
    maxMinutes: integer('max-minutes', values['max-minutes'], 8, 1, 120),
    rows: values.rows?.split(',').map((key) => key.trim()),
    deployed: !values['stripped-only'],
    parts: parts(values.parts),
    variants: variants(values.variant ?? []),
    profileDir: values.profile,
    profileRounds: values['profile-rounds'],
    vacuum: !values['no-vacuum'],
  };
}

function parseArgsOrExplain(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      options: {
        quick: { type: 'boolean', default: false },
        only: { type: 'string' },
        rounds: { type: 'string' },
        duration: { type: 'string' },
        connections: { type: 'string' },
        entries: { type: 'string' },
        samples: { type: 'string' },
        verify: { type: 'boolean', default: false },
        out: { type: 'string' },
        'max-minutes': { type: 'string' },
        rows: { type: 'string' },
        'stripped-only': { type: 'boolean', default: false },
        parts: { type: 'string' },
        variant: { type: 'string', multiple: true },
        profile: { type: 'string' },
        'profile-rounds': { type: 'boolean', default: false },
        'no-vacuum': { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
      strict: true,
    });
  } catch (error) {
    throw new OptionsError(error instanceof Error ? error.message : String(error));
  }
}

function sections(text: string | undefined): Section[] {
  if (text === undefined) {
    return [...SECTIONS];
  }
  const names = text.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(SECTIONS as readonly string[]).includes(name));
  if (unknown.length > 0 || names.length === 0) {
    throw new OptionsError(`--only takes ${SECTIONS.join(', ')} (comma-separated), got "${text}"`);
  }
  return SECTIONS.filter((section) => names.includes(section));
}

function parts(text: string | undefined): Part[] {
  if (text === undefined) {
    return [];
  }
  if (text === 'all') {
    return [...PARTS];
  }
  const names = text.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(PARTS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new OptionsError(`--parts takes ${PARTS.join(', ')} or all, got "${text}"`);
  }
  return PARTS.filter((part) => names.includes(part));
}

function variants(settings: readonly string[]): string[] {
  const bad = settings.filter((setting) => !/^[A-Z][A-Z0-9_]*=/.test(setting));
  if (bad.length > 0) {
    throw new OptionsError(`--variant takes NAME=VALUE, got "${bad.join('", "')}"`);
  }
  return [...settings];
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

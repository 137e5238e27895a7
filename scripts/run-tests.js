#!/usr/bin/env node
// Runs every *.test.ts with node's test runner. Files under test/pg-only/ need real
// PostgreSQL concurrency and run only when TEST_DATABASE_URL is set. Files under test/faults/
// start PostgreSQL servers of their own and break them: only `npm run test:faults` runs them.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

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
const filters = process.argv.slice(2);
const files = ['src', 'test']
  .flatMap(findTests)
  .filter((file) => onPostgres || !file.includes(`${path.sep}pg-only${path.sep}`))
  .filter((file) => !file.includes(`${path.sep}faults${path.sep}`))
  .filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)))
  .sort();

console.log(
  `Running ${files.length} test files on ${onPostgres ? 'PostgreSQL' : 'embedded PGlite'}`,
);
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);

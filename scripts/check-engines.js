#!/usr/bin/env node
// Every installed package must run on every Node.js version OpenIBS's `engines` promises: the
// promise is only true when each dependency's own `engines.node` covers the whole range.
import { readFileSync } from 'node:fs';
import semver from 'semver';

const root = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8'));
const promised = root.engines.node;
const includeDev = process.argv.includes('--dev');

const problems = Object.entries(lock.packages)
  .filter(([name, entry]) => name !== '' && (includeDev || entry.dev !== true))
  .filter(([, entry]) => entry.engines?.node !== undefined)
  .filter(([, entry]) => !semver.subset(promised, entry.engines.node, { loose: true }))
  .map(
    ([name, entry]) =>
      `${name.replace(/^.*node_modules\//, '')}@${entry.version} needs node ${entry.engines.node}`,
  );

if (problems.length > 0) {
  console.error(`engines.node is "${promised}", but:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`engines: every runtime dependency runs on node ${promised}`);

#!/usr/bin/env node
// Builds what the package runs: JavaScript and type declarations from src/ (tsc), the files the
// code reads at run time (migrations, SQL functions, page assets), and the migrated
// embedded-database image an in-memory start loads instead of replaying every migration.
import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const started = Date.now();

rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], {
  stdio: 'inherit',
});
// The database's functions: each owner keeps its own in a sql/ folder (src/db/sql-functions.ts).
const sqlFolders = readdirSync(path.join(root, 'src'), { recursive: true }).filter(
  (entry) => path.basename(entry) === 'sql',
);
for (const file of [
  'db/migrations',
  ...sqlFolders,
  'modules/checkout/assets',
  'dashboard/assets',
  'testing/index.cjs',
  'testing/index.d.cts',
]) {
  cpSync(path.join(root, 'src', file), path.join(dist, file), { recursive: true });
}
const { writeShippedImage } = await import(path.join(dist, 'db/pglite-image.js'));
const image = await writeShippedImage(path.join(dist, 'db'));
console.log(
  `built dist/ in ${Date.now() - started} ms (database image ${image.fingerprint.slice(0, 12)})`,
);

#!/usr/bin/env node
// Builds what the package runs: type declarations from src/ (tsc), the code bundled into a few
// files (esbuild), the files the code reads at run time (migrations, SQL functions, page assets),
// and the migrated embedded-database image an in-memory start loads instead of replaying every
// migration.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUNDLE_OPTIONS } from './bundle-externals.js';

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
  'modules/alerts/templates',
  'dashboard/assets',
  'testing/index.cjs',
  'testing/index.d.cts',
]) {
  cpSync(path.join(root, 'src', file), path.join(dist, file), { recursive: true });
}
await bundle();
const { writeShippedImage } = await import(path.join(dist, 'db/pglite-image.js'));
const image = await writeShippedImage(path.join(dist, 'db'));
console.log(
  `built dist/ in ${Date.now() - started} ms (database image ${image.fingerprint.slice(0, 12)})`,
);

/**
 * Loading several hundred small modules (ours, and libraries of many files such as TypeBox) was
 * most of a start; a bundle is read and compiled at once. The entry points are the package's
 * public files and its process entries; what they share goes to chunks. Libraries that read
 * files of their own folder at run time stay outside (scripts/bundle-externals.js), installed as
 * usual from `dependencies`.
 */
async function bundle() {
  const { build } = await import('esbuild');
  const entries = ['index', 'testing/index', 'cli/main', 'server', 'worker', 'db/pglite-image'];
  await build({
    entryPoints: entries.map((entry) => ({ in: path.join(dist, `${entry}.js`), out: entry })),
    outdir: dist,
    ...BUNDLE_OPTIONS,
    allowOverwrite: true,
    legalComments: 'eof',
    logLevel: 'warning',
  });
  removeUnbundledFiles(dist, new Set(entries.map((entry) => path.join(dist, `${entry}.js`))));
}

/**
 * tsc's per-file JavaScript (each beside its declaration) is in the bundle now; declarations,
 * the bundle and the run-time assets (page scripts have no declaration) stay.
 */
function removeUnbundledFiles(folder, keep) {
  for (const name of readdirSync(folder)) {
    const full = path.join(folder, name);
    if (statSync(full).isDirectory()) {
      if (name !== 'chunks') {
        removeUnbundledFiles(full, keep);
      }
    } else if (
      name.endsWith('.js') &&
      !keep.has(full) &&
      existsSync(full.replace(/\.js$/, '.d.ts'))
    ) {
      rmSync(full);
    }
  }
}

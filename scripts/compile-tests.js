// Compiles the test files of one `npm test` run (scripts/run-tests.js) into bundles that node runs
// without tsx. Under tsx every test process passed each of the app's several hundred modules,
// and every library module, through tsx's loader thread: some 2.4 s of CPU per file before its
// first test, where importing a bundle takes about 0.4 s. A test file still runs alone with
// `node --import tsx --test <file>`; this only changes how the whole suite loads them.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, stop } from 'esbuild';
import { BUNDLE_OPTIONS } from './bundle-externals.js';

/**
 * The server as `npm start` runs it, bundled beside the tests: test files that start servers as
 * child processes (test/server-process.ts) start this bundle instead of src/server.ts through
 * tsx, some 2 s of CPU less for every server a test starts and restarts.
 */
export const SERVER_ENTRY = 'src/server.ts';
/** `npm run worker`, bundled the same way for the fault suite's worker processes. */
export const WORKER_ENTRY = 'src/worker.ts';
/** Makes the migrated PGlite image once before a PGlite suite's files start (run-tests.js). */
export const WARM_IMAGE_ENTRY = 'test/warm-pglite-image.ts';

/**
 * Bundles `files` (absolute paths of *.test.ts under `root`), the server and the worker into
 * `outdir`, the code they share in chunks, and returns each file's bundle, in the same order,
 * the server's, the worker's and the image warmer's.
 */
export async function compileTests(root, files, outdir) {
  const manifest = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
  await build({
    absWorkingDir: root,
    entryPoints: [
      ...files,
      ...[SERVER_ENTRY, WORKER_ENTRY, WARM_IMAGE_ENTRY].map((entry) => path.join(root, entry)),
    ],
    outdir,
    outbase: root,
    ...BUNDLE_OPTIONS,
    // Errors and classes keep the names they were written with: tests compare them.
    keepNames: true,
    // Stack traces name the .ts files and lines (run with --enable-source-maps); the sources
    // themselves are on disk, so the maps need not carry them.
    sourcemap: 'linked',
    sourcesContent: false,
    // The package's libraries are bundled as the package bundles them (scripts/build.js); the
    // test-only ones load as installed.
    external: [...BUNDLE_OPTIONS.external, ...Object.keys(manifest.devDependencies ?? {})],
    plugins: [keepSourceLocations()],
    logLevel: 'warning',
  });
  // esbuild's service process would otherwise idle beside the whole run.
  await stop();
  const bundleOf = (file) => path.join(outdir, path.relative(root, file)).replace(/\.ts$/, '.js');
  return {
    tests: files.map(bundleOf),
    server: bundleOf(path.join(root, SERVER_ENTRY)),
    worker: bundleOf(path.join(root, WORKER_ENTRY)),
    warmImage: bundleOf(path.join(root, WARM_IMAGE_ENTRY)),
  };
}

/**
 * Each module keeps its own place: `import.meta.url`, `dirname` and `filename` are those of its
 * .ts file, not of the bundle. Migrations, SQL function files, page assets, fixtures and the
 * scripts tests start are found where they are, exactly as under tsx.
 */
function keepSourceLocations() {
  return {
    name: 'keep-source-locations',
    setup(esbuild) {
      esbuild.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) {
          return undefined;
        }
        const source = await readFile(args.path, 'utf8');
        const contents = source
          .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
          .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
          .replaceAll('import.meta.filename', JSON.stringify(args.path));
        return { contents, loader: 'ts' };
      });
    },
  };
}

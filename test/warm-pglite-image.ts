// Run once by scripts/run-tests.js before an embedded-PGlite suite's test files: the migrated
// image for these migrations (src/db/pglite-image.ts) is found or made here, once, instead of by
// each of the first test files at the same time (each a fresh initdb and every migration, all
// competing for the same two cores) whenever the migrations have changed since the last run.
import { migratedImage } from '../src/db/pglite-image.ts';

await migratedImage();

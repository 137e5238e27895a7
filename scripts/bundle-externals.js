// The libraries that read files of their own folder at run time, so a bundle leaves them to be
// loaded as installed (scripts/build.js for the package, scripts/compile-tests.js for the suite):
// the embedded database's WebAssembly, the API explorer's pages, pino's worker-thread transports,
// pg's optional native binding, static file serving, pdfkit's standard-font metrics (loaded
// through its own package.json `imports` and its data folder).
const UNBUNDLED_LIBRARIES = [
  '@electric-sql/pglite',
  '@fastify/swagger-ui',
  '@fastify/static',
  'pino',
  'pg',
  'ioredis',
  'pdfkit',
];

// Libraries written as CommonJS call require(); an ES module bundle provides one.
const REQUIRE_BANNER =
  "import { createRequire as __openibsRequire } from 'node:module'; const require = __openibsRequire(import.meta.url);";

// How the package's code is bundled, shared by the package build and the test suite's compile so
// the suite runs what the package ships: ES modules with shared chunks, for Node 20, the
// libraries above left as installed.
export const BUNDLE_OPTIONS = {
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  external: UNBUNDLED_LIBRARIES,
  banner: { js: REQUIRE_BANNER },
};

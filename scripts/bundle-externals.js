// The libraries that read files of their own folder at run time, so a bundle leaves them to be
// loaded as installed (scripts/build.js for the package, scripts/compile-tests.js for the suite):
// the embedded database's WebAssembly, the API explorer's pages, pino's worker-thread transports,
// pg's optional native binding, static file serving, pdfkit's standard-font metrics (loaded
// through its own package.json `imports` and its data folder).
export const UNBUNDLED_LIBRARIES = [
  '@electric-sql/pglite',
  '@fastify/swagger-ui',
  '@fastify/static',
  'pino',
  'pg',
  'ioredis',
  'pdfkit',
];

// Libraries written as CommonJS call require(); an ES module bundle provides one.
export const REQUIRE_BANNER =
  "import { createRequire as __openibsRequire } from 'node:module'; const require = __openibsRequire(import.meta.url);";

/**
 * The house rules on imports (docs/architecture.md), checked by `npm run lint`:
 * no cycles; a module is reached only through its public `index.ts`; the layers under the
 * modules never import a module or the composition root. scripts/check-sql.ts applies the
 * path rules to the calls between the database functions (`<folder>/sql/<name>.sql`) too.
 */
const NOT_TESTS = ['\\.test\\.ts$', '\\.contract\\.ts$'];

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'Files import each other in one direction only.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'module-public-file-only',
      comment:
        "A module imports another module only through that module's index.ts (its public file); its database functions (sql/, scripts/check-sql.ts) are public too.",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/', pathNot: NOT_TESTS },
      to: {
        path: '^src/modules/[^/]+/',
        pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/index\\.ts$', '^src/modules/[^/]+/sql/'],
      },
    },
    {
      name: 'outside-reaches-modules-through-index',
      comment:
        'The app, the composition root, the admin API and the CLI use a module only through its index.ts.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/modules/', ...NOT_TESTS] },
      to: {
        path: '^src/modules/[^/]+/',
        pathNot: ['^src/modules/[^/]+/index\\.ts$', '^src/modules/[^/]+/sql/'],
      },
    },
    {
      name: 'sandbox-fixtures-public-file-only',
      comment:
        'Sandbox fixtures and resets are reached only through src/sandbox/fixtures/index.ts (their public file).',
      severity: 'error',
      from: { pathNot: ['^src/sandbox/fixtures/', ...NOT_TESTS] },
      to: { path: '^src/sandbox/fixtures/', pathNot: '^src/sandbox/fixtures/index\\.ts$' },
    },
    {
      name: 'layers-below-modules',
      comment:
        'Shared layers (ledger, db, http, auth, audit, rails, webhooks, idempotency, config, errors, shared) never import a module, the admin API or the composition root.',
      severity: 'error',
      from: {
        path: '^src/(ledger|db|http|auth|audit|rails|webhooks|idempotency|config|errors|shared)/',
        pathNot: NOT_TESTS,
      },
      to: {
        path: '^src/(modules|admin|dashboard|cli|sandbox)/|^src/(app|services|server|worker|background-workers)\\.ts$',
      },
    },
    {
      name: 'dashboard-over-the-admin-api',
      comment:
        "The dashboard reads and acts only through the admin API (in-process calls by URL, typed by the admin contract): of admin/ it imports the contract's public file alone, and never a module, an admin route, the database, the ledger or webhooks.",
      severity: 'error',
      from: { path: '^src/dashboard/', pathNot: NOT_TESTS },
      to: {
        path: '^src/(modules|admin|db|ledger|webhooks|idempotency|rails)/|^src/(app|services)\\.ts$',
        pathNot: '^src/admin/contract/index\\.ts$',
      },
    },
    {
      name: 'admin-contract-public-file-only',
      comment:
        'The admin contract is reached only through src/admin/contract/index.ts (its public file).',
      severity: 'error',
      from: { pathNot: ['^src/admin/contract/', ...NOT_TESTS] },
      to: { path: '^src/admin/contract/', pathNot: '^src/admin/contract/index\\.ts$' },
    },
    {
      name: 'admin-under-the-dashboard',
      comment:
        'The dashboard is built on the admin API, never the other way round: admin/ does not import the dashboard.',
      severity: 'error',
      from: { path: '^src/admin/', pathNot: NOT_TESTS },
      to: { path: '^src/dashboard/' },
    },
    {
      name: 'no-test-support-in-src',
      comment: 'Production code never imports a test or a contract suite.',
      severity: 'error',
      from: { path: '^src/', pathNot: NOT_TESTS },
      to: { path: ['\\.test\\.ts$', '\\.contract\\.ts$', '^test/'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^node_modules', '^dist'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};

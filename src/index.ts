/**
 * OpenIBS as a library: start the server from your own code, as `npx openibs start` does. For
 * tests, `openibs/testing` (startSandbox) adds fixtures, reset, the clock, faults and the
 * webhook inbox (docs/testing-with-openibs.md).
 */
export type { Config } from './config/config.ts';
export {
  type StartedDemoClient,
  type StartedServer,
  type StartOptions,
  startServer,
} from './start.ts';

/** Placeholder until the testing entry point lands (docs/testing-with-openibs.md). */
export { startServer } from '../start.ts';

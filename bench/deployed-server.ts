/**
 * The server as deployed: src/server.ts itself, what `npm start` runs (request logging at the
 * configured level to stdout, which the bench sends to a file; rate limits; /metrics and its
 * request series; the background workers), started by run.ts with an IPC channel. Beside it,
 * on a small pool of its own, this process answers the bench's commands (its CPU, counts, the
 * checks, CPU profiles), as bench-server.ts does; none of them runs while a row is measured but
 * the CPU profiler. PostgreSQL only: PGlite cannot be opened twice. The port is chosen by the
 * bench (PORT), since src/server.ts does not report the one it was given.
 */
import { loadConfig } from '../src/config/config.ts';
import { createDb } from '../src/db/create-db.ts';
import { sendReady, serveCommands } from './server-commands.ts';

const COMMAND_POOL_SIZE = 2;

async function main(): Promise<void> {
  const config = loadConfig();
  if (config.databaseUrl === undefined || config.port === 0) {
    throw new Error('deployed-server needs DATABASE_URL (PostgreSQL) and a PORT other than 0');
  }
  if (config.host !== '127.0.0.1') {
    throw new Error(`deployed-server listens on 127.0.0.1 only, HOST is ${config.host}`);
  }
  // src/server.ts migrates the database first; the command pool connects once it has.
  await import('../src/server.ts');
  const db = await createDb({ ...config, databasePoolSize: COMMAND_POOL_SIZE });
  // src/server.ts closes itself on SIGTERM (close-with-grace); the command pool goes with it.
  process.once('SIGTERM', () => void db.close());
  if (process.send !== undefined) {
    // The bench going away (even killed) closes the channel: do not outlive it.
    process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
    serveCommands(db);
    await sendReady(db, config.port, config.publicBaseUrl);
  }
}

await main();

import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runAdminStatement, withDatabase } from '../src/db/pg-admin.ts';

/** Where the server under test keeps its data, and how to remove it afterwards. */
export interface BenchDatabase {
  readonly kind: 'postgres' | 'pglite';
  /** Printed in the report; the PostgreSQL URL without any password. */
  readonly description: string;
  /** Environment for the server: DATABASE_URL (PostgreSQL) or DATA_DIR (PGlite). */
  readonly serverEnv: Readonly<Record<string, string>>;
  drop(): Promise<void>;
}

/**
 * PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL is set: a fresh database
 * openibs_bench_<random> beside the one named, dropped at the end. Otherwise embedded PGlite
 * in a new temporary folder, removed at the end.
 */
export async function createBenchDatabase(): Promise<BenchDatabase> {
  const adminUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  return adminUrl ? createPostgresDatabase(adminUrl) : createPgliteFolder();
}

async function createPostgresDatabase(adminUrl: string): Promise<BenchDatabase> {
  const name = `openibs_bench_${randomBytes(6).toString('hex')}`;
  await runAdminStatement(adminUrl, `CREATE DATABASE ${name}`);
  const url = withDatabase(adminUrl, name);
  return {
    kind: 'postgres',
    description: `PostgreSQL ${redact(url)}`,
    serverEnv: { DATABASE_URL: url },
    // FORCE: a server killed mid-run may leave connections behind.
    drop: () => runAdminStatement(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

async function createPgliteFolder(): Promise<BenchDatabase> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'openibs-bench-'));
  return {
    kind: 'pglite',
    description: `PGlite (embedded) in ${dataDir}`,
    serverEnv: { DATA_DIR: dataDir },
    drop: () => rm(dataDir, { recursive: true, force: true }),
  };
}

function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password !== '') {
    parsed.password = '***';
  }
  return parsed.toString();
}

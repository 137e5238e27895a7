import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { codeFile } from '../shared/code-files.ts';
import type { Db, Tx } from './db.ts';
import { adoptLegacyLayout } from './legacy-layout.ts';
import { applyFunctionFiles, type FunctionFile, loadFunctionFiles } from './sql-functions.ts';

const MIGRATIONS_DIR = codeFile('db/migrations/');
// Any constant works; it only has to be the same for every OpenIBS instance.
const MIGRATION_LOCK_KEY = 4_242_001;

interface Migration {
  readonly name: string;
  readonly sql: string;
  readonly checksum: string;
}

/** What the migrator applies: the migrations (tables) and the function files. */
export interface SqlSource {
  readonly migrations: readonly Migration[];
  readonly functions: readonly FunctionFile[];
}

/** What one run applied: migrations by file name, functions by name. */
export interface Migrated {
  readonly migrations: string[];
  readonly functions: string[];
}

export async function loadMigrations(): Promise<Migration[]> {
  const names = (await readdir(MIGRATIONS_DIR)).filter((name) => name.endsWith('.sql')).sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(new URL(name, MIGRATIONS_DIR), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

export async function loadSqlSource(): Promise<SqlSource> {
  const [migrations, functions] = await Promise.all([loadMigrations(), loadFunctionFiles()]);
  return { migrations, functions };
}

/**
 * Applies pending migrations, forward only, then the function files that changed
 * (sql-functions.ts), in one transaction under an advisory lock, so two instances starting
 * together apply each file once. A changed applied migration is refused. A database made by the
 * migrations from before the baseline is recorded as at the baseline (legacy-layout.ts).
 */
export async function migrate(db: Db, source?: SqlSource): Promise<Migrated> {
  const { migrations, functions } = source ?? (await loadSqlSource());
  return db.transaction(async (tx) => {
    // The lock comes first: even creating the bookkeeping tables races between instances.
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now());
    CREATE TABLE IF NOT EXISTS schema_functions (
      name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const appliedMigrations = await applyMigrations(tx, migrations);
    const appliedFunctions = await applyFunctionFiles(tx, functions);
    return { migrations: appliedMigrations, functions: appliedFunctions };
  });
}

async function applyMigrations(tx: Tx, migrations: readonly Migration[]): Promise<string[]> {
  const rows = await tx.query<{ name: string; checksum: string }>(
    'SELECT name, checksum FROM schema_migrations',
  );
  let applied = new Map(rows.map((row) => [row.name, row.checksum]));
  const [baseline] = migrations;
  if (baseline !== undefined && (await adoptLegacyLayout(tx, applied, baseline))) {
    applied = new Map([[baseline.name, baseline.checksum]]);
  }
  const appliedNow: string[] = [];
  for (const migration of migrations) {
    const checksum = applied.get(migration.name);
    if (checksum !== undefined) {
      if (checksum !== migration.checksum) {
        throw new Error(`migration ${migration.name} changed after it was applied`);
      }
      continue;
    }
    await tx.exec(migration.sql);
    await tx.query('INSERT INTO schema_migrations (name, checksum) VALUES ($1, $2)', [
      migration.name,
      migration.checksum,
    ]);
    appliedNow.push(migration.name);
  }
  return appliedNow;
}

import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { codeFile } from '../shared/code-files.ts';
import type { Db } from './db.ts';

const MIGRATIONS_DIR = codeFile('db/migrations/');
// Any constant works; it only has to be the same for every OpenIBS instance.
const MIGRATION_LOCK_KEY = 4_242_001;

interface Migration {
  readonly name: string;
  readonly sql: string;
  readonly checksum: string;
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

/**
 * Applies pending migrations, forward only, in one transaction under an advisory lock, so two
 * instances starting together apply each file once. A changed applied file is refused.
 */
export async function migrate(db: Db): Promise<string[]> {
  const migrations = await loadMigrations();
  return db.transaction(async (tx) => {
    // The lock comes first: even creating the bookkeeping table races between instances.
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const rows = await tx.query<{ name: string; checksum: string }>(
      'SELECT name, checksum FROM schema_migrations',
    );
    const applied = new Map(rows.map((row) => [row.name, row.checksum]));
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
  });
}

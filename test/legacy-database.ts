import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { Db } from '../src/db/db.ts';

const LEGACY_DIR = new URL('./fixtures/legacy-migrations/', import.meta.url);

/** The migrations from before the baseline, in order, as their migrator read them. */
function legacyMigrations(): { name: string; sql: string; checksum: string }[] {
  return readdirSync(LEGACY_DIR)
    .filter((name) => name.endsWith('.sql'))
    .sort()
    .map((name) => {
      const sql = readFileSync(new URL(name, LEGACY_DIR), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

/**
 * Makes an empty database what the migrator before the baseline made of it: every legacy
 * migration (or those before `stopBefore`), each recorded in schema_migrations as it recorded
 * them.
 */
export async function buildLegacyDatabase(db: Db, stopBefore?: string): Promise<void> {
  await db.exec(`CREATE TABLE schema_migrations (
    name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
  for (const migration of legacyMigrations()) {
    if (migration.name === stopBefore) {
      return;
    }
    await db.exec(migration.sql);
    await db.query('INSERT INTO schema_migrations (name, checksum) VALUES ($1, $2)', [
      migration.name,
      migration.checksum,
    ]);
  }
}

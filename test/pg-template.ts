// A migrated template database on the shared PostgreSQL server: each test file's database is a
// copy of it (CREATE DATABASE ... TEMPLATE), not a fresh database migrated from the first file.
import { createHash } from 'node:crypto';
import pg from 'pg';
import { loadSqlSource, migrate, type SqlSource } from '../src/db/migrate.ts';
import { withDatabase } from '../src/db/pg-admin.ts';
import { createPgDb } from '../src/db/pg-db.ts';

export const TEMPLATE_PREFIX = 'openibs_tpl_';
// Any constant works; it only has to be the same for every test process.
const TEMPLATE_LOCK_KEY = 4_242_013;
const UNDEFINED_DATABASE = '3D000';

/**
 * The template's name says what it was migrated from (every migration and function file, by
 * name and checksum): a changed file names another template, so a stale one is never copied.
 */
export function templateName(source: SqlSource): string {
  const hash = createHash('sha256');
  for (const file of [...source.migrations, ...source.functions]) {
    hash.update(`${file.name}:${file.checksum}\n`);
  }
  return `${TEMPLATE_PREFIX}${hash.digest('hex').slice(0, 24)}`;
}

let currentSource: Promise<SqlSource> | undefined;

/**
 * Creates `database` as a copy of the template for the current migrations (or `given`), building
 * the template first if no process has yet. Connects once when the template exists, as usual.
 */
export async function createMigratedDatabase(
  adminUrl: string,
  database: string,
  given?: SqlSource,
): Promise<void> {
  currentSource ??= loadSqlSource();
  const source = given ?? (await currentSource);
  const name = templateName(source);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    try {
      await admin.query(`CREATE DATABASE ${database} TEMPLATE ${name}`);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== UNDEFINED_DATABASE) {
        throw error;
      }
    }
    await ensureTemplate(admin, adminUrl, name, source);
    await admin.query(`CREATE DATABASE ${database} TEMPLATE ${name}`);
  } finally {
    await admin.end();
  }
}

/**
 * Builds the template under a session advisory lock, so processes starting together build it
 * once: the others wait for the lock, then find it. Built under another name and renamed when
 * complete, so no process copies half a template; a build a killed process left is dropped.
 */
async function ensureTemplate(
  admin: pg.Client,
  adminUrl: string,
  name: string,
  source: SqlSource,
): Promise<void> {
  await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY]);
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount !== 0) {
      return;
    }
    const building = `${name}_building`;
    await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${building}`);
    const db = createPgDb({ connectionString: withDatabase(adminUrl, building), poolSize: 1 });
    try {
      await migrate(db, source);
    } finally {
      await db.close();
    }
    // A template with a connection cannot be copied: none is allowed from here on. (RENAME waits
    // for the migration's own connection to finish closing.)
    await admin.query(`ALTER DATABASE ${building} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
    await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
  } finally {
    await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK_KEY]);
  }
}

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import pg from 'pg';
import { loadSqlSource, migrate, type SqlSource } from '../src/db/migrate.ts';
import { runAdminStatement, withDatabase } from '../src/db/pg-admin.ts';
import { createPgDb } from '../src/db/pg-db.ts';
import { createMigratedDatabase, TEMPLATE_PREFIX, templateName } from './pg-template.ts';
import { createTestDb, onPostgres, TEST_DATABASE_URL } from './test-db.ts';

/** The real source with one migration changed, added or a function file changed. */
function variants(real: SqlSource): Record<string, SqlSource> {
  const [first, ...rest] = real.migrations;
  const [firstFunction, ...otherFunctions] = real.functions;
  assert.ok(first !== undefined && firstFunction !== undefined);
  return {
    'a migration changed': {
      ...real,
      migrations: [{ ...first, checksum: `${first.checksum}0` }, ...rest],
    },
    'a migration added': {
      ...real,
      migrations: [...real.migrations, { name: '9999_later.sql', sql: '', checksum: 'ab' }],
    },
    'a function file changed': {
      ...real,
      functions: [{ ...firstFunction, checksum: `${firstFunction.checksum}0` }, ...otherFunctions],
    },
  };
}

describe('the template database is named by what it was migrated from', () => {
  it('keeps its name while the migrations and function files are the same', async () => {
    assert.equal(templateName(await loadSqlSource()), templateName(await loadSqlSource()));
    assert.match(
      templateName(await loadSqlSource()),
      new RegExp(`^${TEMPLATE_PREFIX}[0-9a-f]{24}$`),
    );
  });

  it('names another template when any checksum changes or a file is added', async () => {
    const real = await loadSqlSource();
    const names = new Set([templateName(real)]);
    for (const [change, source] of Object.entries(variants(real))) {
      const name = templateName(source);
      assert.ok(!names.has(name), `${change}: a new name, never a stale template`);
      names.add(name);
    }
  });
});

async function templateRow(adminUrl: string, name: string) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{
      template: boolean;
      connectable: boolean;
      sessions: number;
    }>(
      `SELECT datistemplate AS template, datallowconn AS connectable,
         (SELECT count(*)::int FROM pg_stat_activity WHERE datname = $1) AS sessions
       FROM pg_database WHERE datname = $1`,
      [name],
    );
    return rows[0];
  } finally {
    await admin.end();
  }
}

describe('test databases copied from the template (PostgreSQL)', { skip: !onPostgres }, () => {
  const adminUrl = TEST_DATABASE_URL ?? '';

  it('a copy is migrated: the migrator finds nothing to apply', async () => {
    const testDb = await createTestDb();
    try {
      assert.deepEqual(await migrate(testDb.db), { migrations: [], functions: [] });
      const row = await templateRow(adminUrl, templateName(await loadSqlSource()));
      assert.deepEqual(row, { template: true, connectable: false, sessions: 0 });
    } finally {
      await testDb.close();
    }
  });

  it('an empty database is not a copy', async () => {
    const testDb = await createTestDb({ empty: true });
    try {
      const applied = await migrate(testDb.db);
      assert.equal(applied.migrations.length, (await loadSqlSource()).migrations.length);
    } finally {
      await testDb.close();
    }
  });

  it('processes starting together on changed migrations build one template and all copy it', async () => {
    const real = await loadSqlSource();
    // A migration no real template has, so this test builds its own template from scratch.
    const probe = `template_probe_${randomBytes(4).toString('hex')}`;
    const source: SqlSource = {
      ...real,
      migrations: [
        ...real.migrations,
        { name: '9999_probe.sql', sql: `CREATE TABLE ${probe} (id int)`, checksum: probe },
      ],
    };
    const name = templateName(source);
    const copies = ['a', 'b', 'c'].map((suffix) => `openibs_test_${probe}_${suffix}`);
    try {
      await Promise.all(copies.map((copy) => createMigratedDatabase(adminUrl, copy, source)));
      for (const copy of copies) {
        const db = createPgDb({ connectionString: withDatabase(adminUrl, copy), poolSize: 1 });
        try {
          const rows = await db.query<{ name: string }>(
            "SELECT name FROM schema_migrations WHERE name = '9999_probe.sql'",
          );
          assert.equal(rows.length, 1, `${copy} has the changed migrations`);
          await db.query(`SELECT count(*) FROM ${probe}`);
        } finally {
          await db.close();
        }
      }
      assert.deepEqual(await templateRow(adminUrl, name), {
        template: true,
        connectable: false,
        sessions: 0,
      });
      assert.equal(await templateRow(adminUrl, `${name}_building`), undefined);
    } finally {
      for (const copy of copies) {
        await runAdminStatement(adminUrl, `DROP DATABASE IF EXISTS ${copy} WITH (FORCE)`);
      }
      await runAdminStatement(adminUrl, `ALTER DATABASE ${name} WITH IS_TEMPLATE false`).catch(
        () => undefined,
      );
      await runAdminStatement(adminUrl, `DROP DATABASE IF EXISTS ${name}`);
    }
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { loadMigrations, migrate } from './migrate.ts';

describe(`database driver (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  let testDb: TestDb;
  before(async () => {
    testDb = await createTestDb();
  });
  after(() => testDb.close());

  it('returns int8 as bigint, timestamptz as Date, numeric as string, jsonb as values', async () => {
    const rows = await testDb.db.query<Record<string, unknown>>(
      `SELECT 9007199254740993::int8 AS big, $1::int8 AS param, now() AS at, 1.50::numeric AS n,
              '{"a":1}'::jsonb AS doc, ARRAY[1, 2]::int8[] AS list, count(*) AS total
         FROM (VALUES (1)) v`,
      [12345678901234567n],
    );
    const row = rows[0] ?? {};
    assert.equal(row.big, 9007199254740993n);
    assert.equal(row.param, 12345678901234567n);
    assert.ok(row.at instanceof Date);
    assert.equal(row.n, '1.50');
    assert.deepEqual(row.doc, { a: 1 });
    assert.deepEqual(row.list, [1n, 2n]);
    assert.equal(row.total, 1n);
  });

  it('rolls a failed transaction back entirely', async () => {
    await testDb.db.exec('CREATE TABLE rollback_probe (id int PRIMARY KEY)');
    await assert.rejects(
      testDb.db.transaction(async (tx) => {
        await tx.query('INSERT INTO rollback_probe VALUES (1)');
        await tx.query('INSERT INTO rollback_probe VALUES (1)');
      }),
      (error: { code?: string }) => error.code === '23505',
    );
    const rows = await testDb.db.query('SELECT * FROM rollback_probe');
    assert.equal(rows.length, 0);
  });

  it('applies migrations once: a second run applies nothing', async () => {
    assert.deepEqual(await migrate(testDb.db), { migrations: [], functions: [] });
    const applied = await testDb.db.query<{ name: string }>(
      'SELECT name FROM schema_migrations ORDER BY name',
    );
    assert.deepEqual(
      applied.map((row) => row.name),
      (await loadMigrations()).map((migration) => migration.name),
    );
  });

  it('refuses a migration whose file changed after it was applied', async () => {
    await testDb.db.query(
      "UPDATE schema_migrations SET checksum = 'tampered' WHERE name LIKE '0001%'",
    );
    await assert.rejects(migrate(testDb.db), /changed after it was applied/);
  });
});

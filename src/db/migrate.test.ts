import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { createTestDb, onPostgres, type TestDb } from '../../test/test-db.ts';
import { loadMigrations, loadSqlSource, migrate, type SqlSource } from './migrate.ts';
import { applicationOrder, type FunctionFile } from './sql-functions.ts';

const driver = onPostgres ? 'PostgreSQL' : 'PGlite';

/** A function file of the test's own, beside the real ones. */
function probe(name: string, sql: string): FunctionFile {
  return {
    name,
    path: `test/sql/${name}.sql`,
    sql,
    checksum: createHash('sha256').update(sql).digest('hex'),
  };
}

describe('the merged migrations', () => {
  it('each keeps the checksum committed in migrations/checksums.json', async () => {
    const committed = JSON.parse(
      await readFile(new URL('./migrations/checksums.json', import.meta.url), 'utf8'),
    );
    const files = Object.fromEntries(
      (await loadMigrations()).map((migration) => [migration.name, migration.checksum]),
    );
    assert.deepEqual(
      files,
      committed,
      'a merged migration never changes (write a new one); a new one adds its checksum',
    );
  });
});

describe('the order function files are applied in', () => {
  it('puts a file after the files whose functions it calls, else by name', () => {
    const files = [
      probe('b_plain', 'CREATE OR REPLACE FUNCTION b_plain() RETURNS int ...'),
      probe('a_caller', 'CREATE OR REPLACE FUNCTION a_caller() ... SELECT z_callee() ...'),
      probe('z_callee', 'CREATE OR REPLACE FUNCTION z_callee() ... -- unlike a_caller'),
    ];
    assert.deepEqual(
      applicationOrder(files).map((file) => file.name),
      ['z_callee', 'a_caller', 'b_plain'],
    );
  });
});

describe(`function files applied by the migrator (${driver})`, () => {
  let testDb: TestDb;
  let real: SqlSource;
  const withFiles = (...files: FunctionFile[]): SqlSource => ({
    ...real,
    functions: [...real.functions, ...files],
  });
  const signatures = async (name: string) =>
    (
      await testDb.db.query<{ signature: string }>(
        `SELECT oid::regprocedure::text AS signature FROM pg_proc WHERE proname = $1`,
        [name],
      )
    ).map((row) => row.signature);
  const triggersOn = async (table: string) =>
    (
      await testDb.db.query<{ tgname: string }>(
        'SELECT tgname FROM pg_trigger WHERE tgrelid = $1::regclass ORDER BY 1',
        [table],
      )
    ).map((row) => row.tgname);
  before(async () => {
    testDb = await createTestDb();
    real = await loadSqlSource();
  });
  after(() => testDb.close());

  const plusOne = probe(
    'migrate_probe',
    'CREATE OR REPLACE FUNCTION migrate_probe(p_value int) RETURNS int LANGUAGE sql AS $$ SELECT p_value + 1 $$;',
  );

  it('applies a new file once, and not again while it is unchanged', async () => {
    assert.deepEqual(await migrate(testDb.db, withFiles(plusOne)), {
      migrations: [],
      functions: ['migrate_probe'],
    });
    assert.deepEqual(await migrate(testDb.db, withFiles(plusOne)), {
      migrations: [],
      functions: [],
    });
    const [row] = await testDb.db.query<{ value: number }>('SELECT migrate_probe(1) AS value');
    assert.equal(row?.value, 2);
  });

  it('applies a changed file again', async () => {
    const plusTwo = probe('migrate_probe', plusOne.sql.replace('p_value + 1', 'p_value + 2'));
    assert.deepEqual((await migrate(testDb.db, withFiles(plusTwo))).functions, ['migrate_probe']);
    const [row] = await testDb.db.query<{ value: number }>('SELECT migrate_probe(1) AS value');
    assert.equal(row?.value, 3);
  });

  const twoArguments = probe(
    'migrate_probe',
    'CREATE OR REPLACE FUNCTION migrate_probe(p_value int, p_step int) RETURNS int LANGUAGE sql AS $$ SELECT p_value + p_step $$;',
  );

  it('drops the older function when a file changes its arguments', async () => {
    await migrate(testDb.db, withFiles(twoArguments));
    assert.deepEqual(await signatures('migrate_probe'), ['migrate_probe(integer,integer)']);
  });

  it('makes a function again when it is missing, its file unchanged', async () => {
    await testDb.db.exec('DROP FUNCTION migrate_probe(int, int)');
    assert.deepEqual((await migrate(testDb.db, withFiles(twoArguments))).functions, [
      'migrate_probe',
    ]);
    assert.deepEqual(await signatures('migrate_probe'), ['migrate_probe(integer,integer)']);
  });

  const guard = (triggers: string[]) =>
    probe(
      'migrate_probe_guard',
      `CREATE OR REPLACE FUNCTION migrate_probe_guard() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION 'append-only'; END $$;
       ${triggers
         .map(
           (trigger) => `CREATE OR REPLACE TRIGGER ${trigger} BEFORE UPDATE ON migrate_probe_rows
             FOR EACH ROW EXECUTE FUNCTION migrate_probe_guard();`,
         )
         .join('\n')}`,
    );

  it('keeps the triggers a file makes, and only those', async () => {
    await testDb.db.exec('CREATE TABLE migrate_probe_rows (id int)');
    await migrate(
      testDb.db,
      withFiles(twoArguments, guard(['probe_no_update', 'probe_no_update_either'])),
    );
    assert.deepEqual(await triggersOn('migrate_probe_rows'), [
      'probe_no_update',
      'probe_no_update_either',
    ]);
    await migrate(testDb.db, withFiles(twoArguments, guard(['probe_no_update'])));
    assert.deepEqual(await triggersOn('migrate_probe_rows'), ['probe_no_update']);
  });

  it('drops the function of a file that is gone, with its triggers', async () => {
    const applied = await migrate(testDb.db, real);
    assert.deepEqual(applied.functions.sort(), ['migrate_probe', 'migrate_probe_guard']);
    assert.deepEqual(await signatures('migrate_probe'), []);
    assert.deepEqual(await signatures('migrate_probe_guard'), []);
    assert.deepEqual(await triggersOn('migrate_probe_rows'), []);
    const recorded = await testDb.db.query<{ name: string }>(
      "SELECT name FROM schema_functions WHERE name LIKE 'migrate_probe%'",
    );
    assert.deepEqual(recorded, []);
  });

  it('applies a function after those it calls, whatever their names', async () => {
    // An SQL-language function's body is checked when it is made: what it calls must exist.
    const caller = probe(
      'a_migrate_probe',
      'CREATE OR REPLACE FUNCTION a_migrate_probe() RETURNS int LANGUAGE sql AS $$ SELECT z_migrate_probe() $$;',
    );
    const callee = probe(
      'z_migrate_probe',
      'CREATE OR REPLACE FUNCTION z_migrate_probe() RETURNS int LANGUAGE sql AS $$ SELECT 7 $$;',
    );
    await migrate(testDb.db, withFiles(caller, callee));
    const [row] = await testDb.db.query<{ value: number }>('SELECT a_migrate_probe() AS value');
    assert.equal(row?.value, 7);
    await migrate(testDb.db, real);
  });

  it('names the file whose SQL fails, and applies nothing', async () => {
    const broken = probe(
      'migrate_probe_broken',
      'CREATE OR REPLACE FUNCTION migrate_probe_broken() RETURNS int LANGUAGE sql AS $$ SELECT FROM nowhere $$;',
    );
    await assert.rejects(
      migrate(testDb.db, withFiles(plusOne, broken)),
      /test\/sql\/migrate_probe_broken\.sql: .*nowhere/,
    );
    assert.deepEqual(await signatures('migrate_probe'), []);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildLegacyDatabase } from '../../test/legacy-database.ts';
import { schemaSnapshot } from '../../test/schema-snapshot.ts';
import { createTestDb, onPostgres, type TestDb } from '../../test/test-db.ts';
import type { Queryable } from './db.ts';
import { listTables } from './empty-tables.ts';
import { loadSqlSource, migrate } from './migrate.ts';

const driver = onPostgres ? 'PostgreSQL' : 'PGlite';

/** Rows of every kind the bank keeps, written as the legacy code wrote them (its functions). */
const LEGACY_ROWS = `
  INSERT INTO clients (id, name, created_at, updated_at)
    VALUES ('cli_legacy', 'Legacy Traders Ltd', now(), now());
  INSERT INTO ledger_accounts (id, kind, name, created_at) VALUES
    ('acc_legacy_1', 'customer', 'Legacy Traders Ltd', now()),
    ('acc_legacy_2', 'customer', 'Legacy Traders Ltd Savings', now());
  INSERT INTO accounts (id, client_id, account_number, account_name, account_type,
      notification_settings, created_at, updated_at) VALUES
    ('acc_legacy_1', 'cli_legacy', '1000000017', 'Legacy Traders Ltd', 'Current', '{}', now(), now()),
    ('acc_legacy_2', 'cli_legacy', '1000000024', 'Legacy Traders Ltd', 'Savings', '{}', now(), now());
  UPDATE clients SET main_account_id = 'acc_legacy_1' WHERE id = 'cli_legacy';
  SELECT ledger_post('jnl_legacy_1', 'inbound', 'Opening credit', NULL, NULL, now(),
    ARRAY['gl.sandbox_external_float', 'acc_legacy_1'], ARRAY[-500000, 500000]::bigint[],
    ARRAY[NULL, NULL]::text[], NULL);
  SELECT ledger_hold('hold_legacy_1', 'acc_legacy_1', 12500, 'nip', now());
  INSERT INTO daily_outbound_totals (limit_key, day, total_kobo)
    VALUES ('acc_legacy_1', '2026-11-30', 12500);
  SELECT webhook_enqueue('[{"id": "evt_legacy_1", "clientId": "cli_legacy", "type": "transfer",
    "payload": "{\\"amount\\": \\"125.00\\"}"}]', now());
  INSERT INTO audit_events (at, actor, action, outcome)
    VALUES (now(), 'operator', 'client.disable', 'ok');`;

/**
 * Every row of every table but the migrator's own, as text: what an upgrade must not touch. With
 * `like`, the tables and columns of an earlier read only (a later migration may add columns, as
 * 0004 added ledger_accounts.lien_kobo).
 */
async function allRows(
  db: Queryable,
  like?: Record<string, string[]>,
): Promise<Record<string, string[]>> {
  const rows: Record<string, string[]> = {};
  for (const table of like === undefined ? await listTables(db) : Object.keys(like)) {
    if (!table.startsWith('schema_')) {
      const columns = like === undefined ? 't' : await columnsBefore(db, table);
      const found = await db.query<{ row: string }>(
        `SELECT ${columns}::text AS row FROM ${table} t`,
      );
      rows[table] = found.map((one) => one.row).sort();
    }
  }
  return rows;
}

/** The columns the table had before the upgrade, as a row (read as `t` alone reads them). */
async function columnsBefore(db: Queryable, table: string): Promise<string> {
  const before = await db.query<{ name: string }>(
    `SELECT column_name AS name FROM information_schema.columns
      WHERE table_name = $1 AND ordinal_position <= $2 ORDER BY ordinal_position`,
    [table, columnCounts.get(table) ?? 0],
  );
  return `ROW(${before.map((column) => `t.${column.name}`).join(', ')})`;
}

/** How many columns each table had before the upgrade (columns are only ever added at the end). */
const columnCounts = new Map<string, number>();

async function countColumns(db: Queryable): Promise<void> {
  const rows = await db.query<{ table_name: string; n: bigint }>(
    `SELECT table_name, count(*) AS n FROM information_schema.columns
      WHERE table_schema = current_schema() GROUP BY table_name`,
  );
  for (const row of rows) {
    columnCounts.set(row.table_name, Number(row.n));
  }
}

describe(`a database at the last migration from before the baseline (${driver})`, () => {
  let legacy: TestDb;
  let fresh: TestDb;
  let rowsBefore: Record<string, string[]>;
  let upgraded: Awaited<ReturnType<typeof migrate>>;
  before(async () => {
    [legacy, fresh] = await Promise.all([createTestDb({ empty: true }), createTestDb()]);
    await buildLegacyDatabase(legacy.db);
    await legacy.db.exec(LEGACY_ROWS);
    rowsBefore = await allRows(legacy.db);
    await countColumns(legacy.db);
    upgraded = await migrate(legacy.db);
  });
  after(() => Promise.all([legacy.close(), fresh.close()]));

  it('is recorded as at the baseline, with every function made again from its file', async () => {
    // The baseline is not run; only the migrations written after it are.
    const { migrations: files } = await loadSqlSource();
    assert.deepEqual(
      upgraded.migrations,
      files.slice(1).map((file) => file.name),
    );
    const migrations = await legacy.db.query<{ name: string }>(
      'SELECT name FROM schema_migrations',
    );
    const freshMigrations = await fresh.db.query<{ name: string }>(
      'SELECT name FROM schema_migrations',
    );
    assert.deepEqual(migrations, freshMigrations);
    const functions = await fresh.db.query<{ name: string }>('SELECT name FROM schema_functions');
    // Every function made again from its file, and those the legacy layout had whose file is
    // gone (the per-module batch runners and refusals that apply_batch replaced) dropped.
    const gone = [
      'apply_transfer_batch',
      'apply_vas_batch',
      'transfer_item_failure',
      'transfer_refuse',
      'vas_refuse',
    ];
    assert.deepEqual(
      [...upgraded.functions].sort(),
      [...functions.map((row) => row.name), ...gone].sort(),
    );
  });

  it("has a fresh database's schema: tables, columns, constraints, indexes, triggers, functions", async () => {
    const [got, expected] = await Promise.all([
      schemaSnapshot(legacy.db),
      schemaSnapshot(fresh.db),
    ]);
    // Compared as lines, so that a difference shows alone rather than in two whole catalogs.
    const lines = (rows: unknown[] = []) =>
      rows.map((row) =>
        JSON.stringify(row, (_, value) => (typeof value === 'bigint' ? `${value}` : value)),
      );
    for (const part of Object.keys(expected)) {
      const [gotLines, expectedLines] = [lines(got[part]), lines(expected[part])];
      assert.deepEqual(
        {
          onlyUpgraded: gotLines.filter((line) => !expectedLines.includes(line)),
          onlyFresh: expectedLines.filter((line) => !gotLines.includes(line)),
        },
        { onlyUpgraded: [], onlyFresh: [] },
        part,
      );
      assert.deepEqual(gotLines, expectedLines, `${part} in another order`);
    }
  });

  it('keeps every row it had; the tables later migrations add are empty', async () => {
    const rowsAfter = await allRows(legacy.db, rowsBefore);
    // 0004 seeds the lien GL accounts; every other row is as it was.
    const ledgerAccounts = rowsAfter.ledger_accounts ?? [];
    assert.deepEqual(
      ledgerAccounts.filter((row) => row.includes('gl.lien_')).map((row) => row.split(',')[0]),
      ['(gl.lien_receivable', '(gl.lien_write_off'],
    );
    rowsAfter.ledger_accounts = ledgerAccounts.filter((row) => !row.includes('gl.lien_'));
    const added = (await listTables(legacy.db)).filter(
      (table) => !(table in rowsBefore) && !table.startsWith('schema_'),
    );
    for (const table of added.filter((name) => name !== 'audit_chain_head')) {
      const found = await legacy.db.query(`SELECT 1 FROM ${table} LIMIT 1`);
      assert.deepEqual(found, [], table);
    }
    // 0009 chains the audit rows there were: its head names the last of them.
    const head = await legacy.db.query<{ chained: boolean }>(
      `SELECT h.hash = e.hash AND h.last_id = e.id AS chained
         FROM audit_chain_head h, audit_events e WHERE e.action = 'client.disable'`,
    );
    assert.deepEqual(head, [{ chained: true }]);
    assert.deepEqual(rowsAfter, rowsBefore);
    assert.equal(rowsAfter.ledger_entries?.length, 2);
  });

  it('moves money with the functions from the files afterwards', async () => {
    await legacy.db.query(`SELECT ledger_void_hold('hold_legacy_1', now())`);
    const journal = {
      id: 'jnl_legacy_2',
      kind: 'intra',
      narration: 'To savings',
      createdAt: new Date().toISOString(),
      accountIds: ['acc_legacy_1', 'acc_legacy_2'],
      amounts: ['-500000', '500000'],
      narrations: [null, null],
    };
    await legacy.db.query('SELECT ledger_post_json($1)', [JSON.stringify(journal)]);
    const balances = await legacy.db.query<{ account_id: string; balance_kobo: bigint }>(
      `SELECT account_id, balance_kobo FROM ledger_account_balances
        WHERE account_id LIKE 'acc_legacy_%' ORDER BY 1`,
    );
    assert.deepEqual(
      balances.map((row) => row.balance_kobo),
      [0n, 500000n],
    );
  });

  it('is left as it is by the next start', async () => {
    assert.deepEqual(await migrate(legacy.db), { migrations: [], functions: [] });
  });
});

describe(`a database the migrations from before the baseline left elsewhere (${driver})`, () => {
  let legacy: TestDb;
  before(async () => {
    legacy = await createTestDb({ empty: true });
    await buildLegacyDatabase(legacy.db, '0031_sandbox_inbox_and_lagos_day.sql');
  });
  after(() => legacy.close());

  it('is refused before the last one, saying what is missing, and left as it was', async () => {
    await assert.rejects(
      migrate(legacy.db),
      /not at the last of them.*0031_sandbox_inbox_and_lagos_day\.sql not applied/,
    );
    const migrations = await legacy.db.query('SELECT name FROM schema_migrations');
    assert.equal(migrations.length, 28);
    const tables = await listTables(legacy.db);
    assert.ok(!tables.includes('schema_functions') && !tables.includes('webhook_inbox'));
  });

  it('is refused when a migration was applied from another version of its file', async () => {
    await legacy.db.query(
      "UPDATE schema_migrations SET checksum = 'earlier' WHERE name = '0019_ussd.sql'",
    );
    await assert.rejects(
      migrate(legacy.db),
      /0019_ussd\.sql applied from another version of the file/,
    );
  });
});

describe(`a database from before the baseline, a function of which has no file now (${driver})`, () => {
  let legacy: TestDb;
  before(async () => {
    legacy = await createTestDb({ empty: true });
    await buildLegacyDatabase(legacy.db);
  });
  after(() => legacy.close());

  it('loses that function when it is recorded as at the baseline', async () => {
    const source = await loadSqlSource();
    const withoutOne = {
      ...source,
      functions: source.functions.filter((file) => file.name !== 'transfer_item_failure'),
    };
    const applied = await migrate(legacy.db, withoutOne);
    assert.ok(applied.functions.includes('transfer_item_failure'), 'reported as dropped');
    const left = await legacy.db.query(
      "SELECT 1 FROM pg_proc WHERE proname = 'transfer_item_failure'",
    );
    assert.deepEqual(left, []);
    const recorded = await legacy.db.query<{ name: string }>('SELECT name FROM schema_functions');
    assert.deepEqual(
      recorded.map((row) => row.name).sort(),
      withoutOne.functions.map((file) => file.name).sort(),
    );
  });
});

import type { Queryable, Tx } from './db.ts';

const TABLE_NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * Empties the named tables in one TRUNCATE, in the caller's transaction, and restarts every
 * sequence that belongs to no column (the account number serial) with the identity columns of
 * the tables: one round trip, whatever the tables hold. TRUNCATE takes each table's exclusive
 * lock, so it waits for transactions using them to end, and queries that come after wait for
 * the caller's commit; all of it rolls back with the transaction.
 */
export async function truncateTables(tx: Tx, tables: readonly string[]): Promise<void> {
  for (const table of tables) {
    if (!TABLE_NAME.test(table)) {
      throw new RangeError(`not a table name: ${table}`);
    }
  }
  // The names are the code's own constants (checked above): no parameter can carry them.
  await tx.exec(`DO $$
DECLARE
  v_sequence record;
BEGIN
  TRUNCATE TABLE ${tables.join(', ')} RESTART IDENTITY;
  FOR v_sequence IN
    SELECT c.relname FROM pg_class c
     WHERE c.relkind = 'S' AND c.relnamespace = current_schema()::regnamespace
       AND NOT EXISTS (SELECT 1 FROM pg_depend d
                        WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid
                          AND d.deptype IN ('a', 'i'))
  LOOP
    EXECUTE format('ALTER SEQUENCE %I RESTART', v_sequence.relname);
  END LOOP;
END $$`);
}

/**
 * The tables in the order a TRUNCATE should lock them: each before the tables its foreign keys
 * refer to (a cycle is broken anywhere). A statement in flight takes its own table first and the
 * tables it refers to after (to check its keys), so locking in this order never waits for it
 * while holding what it waits for: fewer deadlocks between a reset and the requests it meets.
 */
export async function referrersFirst(db: Queryable, tables: readonly string[]): Promise<string[]> {
  const edges = await db.query<{ referrer: string; referred: string }>(
    `SELECT conrelid::regclass::text AS referrer, confrelid::regclass::text AS referred
       FROM pg_constraint WHERE contype = 'f' AND conrelid <> confrelid`,
  );
  const referrers = new Map<string, string[]>();
  for (const { referrer, referred } of edges) {
    referrers.set(referred, [...(referrers.get(referred) ?? []), referrer]);
  }
  const wanted = new Set(tables);
  const ordered: string[] = [];
  const visiting = new Set<string>();
  // Depth first over "who refers to me": every referrer is placed before the table it refers to.
  const place = (table: string) => {
    if (ordered.includes(table) || visiting.has(table) || !wanted.has(table)) {
      return;
    }
    visiting.add(table);
    for (const referrer of referrers.get(table) ?? []) {
      place(referrer);
    }
    ordered.push(table);
  };
  for (const table of tables) {
    place(table);
  }
  return ordered;
}

/** The tables of the current schema, as the migrations left them (for the reset's own check). */
export async function listTables(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  return rows.map((row) => row.table_name);
}

import type { Queryable, Tx } from './db.ts';

const TABLE_NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * Past this many rows a table is emptied by TRUNCATE, whose cost is fixed (a new file per table
 * and index: about 3.5 ms per table on PostgreSQL, 1 ms on PGlite, whatever it holds); up to it,
 * by DELETE, whose cost is per row. Truncating every table of the bank costs about 100 ms on
 * PostgreSQL even when they are all empty; deleting the few rows a test made costs a few.
 */
const TRUNCATE_ABOVE_ROWS = 500;
/**
 * A table this large is truncated whatever its live rows: deletes and updates leave dead rows
 * behind, which nothing vacuums in PGlite, and only a TRUNCATE gives the space back.
 */
const TRUNCATE_FROM_BYTES = 8 * 1024 * 1024;

/** The tables to empty, and which tables refer to each (their foreign keys). */
export interface TableGraph {
  /** Each table before the tables it refers to (a cycle is broken anywhere). */
  readonly order: readonly string[];
  readonly referrers: ReadonlyMap<string, readonly string[]>;
}

/**
 * The foreign keys between the tables, read from the catalogue once (they change only with a
 * migration). Ordered so each table comes before the tables it refers to: a statement in flight
 * takes its own table first and the tables it refers to after (to check its keys), so locking in
 * this order never waits for it while holding what it waits for.
 */
export async function tableGraph(db: Queryable, tables: readonly string[]): Promise<TableGraph> {
  for (const table of tables) {
    if (!TABLE_NAME.test(table)) {
      throw new RangeError(`not a table name: ${table}`);
    }
  }
  const edges = await db.query<{ referrer: string; referred: string }>(
    `SELECT conrelid::regclass::text AS referrer, confrelid::regclass::text AS referred
       FROM pg_constraint WHERE contype = 'f' AND conrelid <> confrelid`,
  );
  const referrers = new Map<string, string[]>();
  for (const { referrer, referred } of edges) {
    referrers.set(referred, [...(referrers.get(referred) ?? []), referrer]);
  }
  const wanted = new Set(tables);
  const order: string[] = [];
  const visiting = new Set<string>();
  // Depth first over "who refers to me": every referrer is placed before the table it refers to.
  const place = (table: string) => {
    if (order.includes(table) || visiting.has(table) || !wanted.has(table)) {
      return;
    }
    visiting.add(table);
    for (const referrer of referrers.get(table) ?? []) {
      place(referrer);
    }
    order.push(table);
  };
  for (const table of tables) {
    place(table);
  }
  return { order, referrers };
}

/**
 * Locks every table in the caller's transaction (in the graph's order), so what follows is all
 * or nothing for everyone else: transactions using the tables end first, and queries that come
 * after wait for the caller's commit.
 */
export async function lockTables(tx: Tx, graph: TableGraph): Promise<void> {
  await tx.exec(`LOCK TABLE ${graph.order.join(', ')} IN ACCESS EXCLUSIVE MODE`);
}

/**
 * Empties the tables (locked first: lockTables) in the caller's transaction and restarts their
 * sequences, and every sequence that belongs to no column (the account number serial). The
 * large tables (and every table that refers to one: TRUNCATE takes them together) are truncated
 * and the others' rows deleted, in one statement: their foreign keys are checked at its end, so
 * rows that refer to each other in a circle (a client and its main account) go together.
 */
export async function emptyTables(tx: Tx, graph: TableGraph): Promise<void> {
  // How many rows (counted no further than the threshold) and bytes each table holds.
  const sizes = await tx.query<{ name: string; rows: bigint; bytes: bigint }>(
    graph.order
      .map(
        (table) =>
          `SELECT '${table}' AS name, (SELECT count(*) FROM (SELECT FROM ${table}
             LIMIT ${TRUNCATE_ABOVE_ROWS + 1}) r) AS rows, pg_relation_size('${table}') AS bytes`,
      )
      .join(' UNION ALL '),
  );
  const truncated = new Set<string>();
  const truncate = (table: string) => {
    if (!truncated.has(table)) {
      truncated.add(table);
      for (const referrer of graph.referrers.get(table) ?? []) {
        truncate(referrer);
      }
    }
  };
  for (const { name, rows, bytes } of sizes) {
    if (Number(rows) > TRUNCATE_ABOVE_ROWS || Number(bytes) >= TRUNCATE_FROM_BYTES) {
      truncate(name);
    }
  }
  await tx.exec(emptyingScript(graph, truncated));
}

/** The one statement (a DO block) that empties the tables and restarts the sequences. */
function emptyingScript(graph: TableGraph, truncated: ReadonlySet<string>): string {
  const truncating = graph.order.filter((table) => truncated.has(table));
  const deleting = graph.order.filter((table) => !truncated.has(table));
  const deletes = deleting.map((table, index) =>
    index === deleting.length - 1 ? `DELETE FROM ${table}` : `d${index} AS (DELETE FROM ${table})`,
  );
  const tables = graph.order.map((table) => `'${table}'`).join(', ');
  // The names are the code's own constants (checked by tableGraph): no parameter can carry them.
  return `DO $$
DECLARE
  v_sequence record;
BEGIN
  ${truncating.length === 0 ? '' : `TRUNCATE TABLE ${truncating.join(', ')} RESTART IDENTITY;`}
  ${deleting.length === 0 ? '' : `${deletes.length > 1 ? `WITH ${deletes.slice(0, -1).join(', ')} ` : ''}${deletes.at(-1)};`}
  FOR v_sequence IN
    SELECT s.relname FROM pg_class s
      LEFT JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = s.oid
           AND d.deptype IN ('a', 'i')
      LEFT JOIN pg_class t ON t.oid = d.refobjid
     WHERE s.relkind = 'S' AND s.relnamespace = current_schema()::regnamespace
       AND (t.relname IS NULL OR t.relname = ANY (ARRAY[${tables}]::text[]))
  LOOP
    EXECUTE format('ALTER SEQUENCE %I RESTART', v_sequence.relname);
  END LOOP;
END $$`;
}

/** The tables of the current schema, as the migrations left them (for the reset's own check). */
export async function listTables(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  return rows.map((row) => row.table_name);
}

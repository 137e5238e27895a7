import type { Queryable } from '../src/db/db.ts';

/**
 * The current schema as the catalogs describe it, in a stable order: what two databases must
 * share to be the same bank. Each part is a list of plain rows, so a difference names itself in
 * an assertion's diff. NOT NULL is compared as the columns' is_nullable: PostgreSQL 17 (PGlite)
 * also lists it as a named constraint, whose name keeps a column's name from before a rename.
 */
export async function schemaSnapshot(db: Queryable): Promise<Record<string, unknown[]>> {
  const parts: Record<string, string> = {
    columns: `SELECT table_name, ordinal_position, column_name, data_type, udt_name, is_nullable,
                     column_default, is_identity, identity_generation
                FROM information_schema.columns WHERE table_schema = current_schema()
               ORDER BY table_name, ordinal_position`,
    constraints: `SELECT conrelid::regclass::text AS on_table, conname,
                         pg_get_constraintdef(oid) AS definition
                    FROM pg_constraint
                   WHERE connamespace = current_schema()::regnamespace AND contype <> 'n'
                   ORDER BY 1, 2`,
    indexes: `SELECT tablename, indexname, indexdef FROM pg_indexes
               WHERE schemaname = current_schema() ORDER BY 1, 2`,
    views: `SELECT viewname, definition FROM pg_views
             WHERE schemaname = current_schema() ORDER BY 1`,
    sequences: `SELECT sequencename, data_type::text, start_value, min_value, max_value,
                       increment_by, cycle FROM pg_sequences
                 WHERE schemaname = current_schema() ORDER BY 1`,
    triggers: `SELECT tgrelid::regclass::text AS on_table, tgname,
                      pg_get_triggerdef(oid) AS definition
                 FROM pg_trigger
                WHERE NOT tgisinternal
                  AND tgrelid IN (SELECT oid FROM pg_class
                                   WHERE relnamespace = current_schema()::regnamespace)
                ORDER BY 1, 2`,
    functions: `SELECT oid::regprocedure::text AS signature, pg_get_functiondef(oid) AS definition
                  FROM pg_proc WHERE pronamespace = current_schema()::regnamespace
                 ORDER BY 1`,
  };
  const snapshot: Record<string, unknown[]> = {};
  for (const [part, sql] of Object.entries(parts)) {
    snapshot[part] = await db.query(sql);
  }
  return snapshot;
}

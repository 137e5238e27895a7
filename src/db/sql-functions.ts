import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { codeFile } from '../shared/code-files.ts';
import { sqlState, type Tx } from './db.ts';

/**
 * The database's functions as code: each lives in a file of its own, `<folder>/sql/<name>.sql`,
 * in the folder that owns the tables it writes, and is written as CREATE OR REPLACE (with its
 * triggers, if any). The migrator applies a file after the migrations whenever its checksum
 * differs from the one recorded in schema_functions, and drops the function of a file that is
 * gone (docs/adr/0002-sql-as-code.md; `npm run lint` checks the files: scripts/check-sql.ts).
 */
export interface FunctionFile {
  /** The function's name, which is the file's name. */
  readonly name: string;
  /** Where it is, from the code's root (src/ or dist/), for messages. */
  readonly path: string;
  readonly sql: string;
  readonly checksum: string;
}

/** The code's root: src/ in a checkout, dist/ in the package (the build copies the files). */
const CODE_ROOT = codeFile('./');
const FUNCTION_FILE = /^(?:.+\/)?sql\/([a-z][a-z0-9_]*)\.sql$/;

/** Every function file under the code's root, by name. */
export async function loadFunctionFiles(): Promise<FunctionFile[]> {
  const entries = await readdir(CODE_ROOT, { recursive: true });
  const paths = entries
    .map((entry) => entry.split('\\').join('/'))
    .filter((path) => FUNCTION_FILE.test(path));
  const files = await Promise.all(
    paths.map(async (path) => {
      const sql = await readFile(new URL(path, CODE_ROOT), 'utf8');
      const name = FUNCTION_FILE.exec(path)?.[1] ?? '';
      return { name, path, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
  return files.sort(byFileName);
}

function byFileName(a: FunctionFile, b: FunctionFile): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * Sorted by name, except that a file comes after the files whose functions it names: an
 * SQL-language function's body is checked when it is created, so what it calls must exist
 * already. A cycle can only be between plpgsql functions, which find each other when they run.
 */
export function applicationOrder(files: readonly FunctionFile[]): FunctionFile[] {
  const sorted = [...files].sort(byFileName);
  const byName = new Map(sorted.map((file) => [file.name, file]));
  const ordered: FunctionFile[] = [];
  const seen = new Set<string>();
  const place = (file: FunctionFile) => {
    if (seen.has(file.name)) {
      return;
    }
    seen.add(file.name);
    const code = file.sql.replace(/--.*$/gm, '');
    for (const word of new Set(code.match(/\b[a-z_][a-z0-9_]*\b/g) ?? [])) {
      const called = byName.get(word);
      if (called !== undefined && called !== file) {
        place(called);
      }
    }
    ordered.push(file);
  };
  for (const file of sorted) {
    place(file);
  }
  return ordered;
}

/**
 * Applies, in the migrator's transaction and under its lock, every function file whose checksum
 * is not the one recorded (or whose function is missing), and drops the functions of files that
 * are gone. Answers the names of the functions created, replaced or dropped.
 */
export async function applyFunctionFiles(
  tx: Tx,
  files: readonly FunctionFile[],
): Promise<string[]> {
  const recorded = new Map(
    (
      await tx.query<{ name: string; checksum: string }>(
        'SELECT name, checksum FROM schema_functions',
      )
    ).map((row) => [row.name, row.checksum]),
  );
  const existing = new Set(
    (
      await tx.query<{ name: string }>(
        'SELECT DISTINCT proname AS name FROM pg_proc WHERE pronamespace = current_schema()::regnamespace',
      )
    ).map((row) => row.name),
  );
  const changed: string[] = [];
  for (const file of applicationOrder(files)) {
    if (recorded.get(file.name) !== file.checksum || !existing.has(file.name)) {
      await applyFunctionFile(tx, file);
      changed.push(file.name);
    }
  }
  const kept = new Set(files.map((file) => file.name));
  for (const name of [...recorded.keys()].sort()) {
    if (!kept.has(name)) {
      await dropFunction(tx, name);
      changed.push(name);
    }
  }
  return changed;
}

/**
 * Runs one file. Its triggers are dropped first, so a trigger taken out of the file goes too;
 * the file makes again the ones it names, in the same transaction. A file whose arguments
 * changed makes a second function of the name: the older one is dropped. (A changed return type
 * cannot be replaced: PostgreSQL refuses it, and a migration drops the function first.)
 */
async function applyFunctionFile(tx: Tx, file: FunctionFile): Promise<void> {
  await dropTriggersOf(tx, file.name);
  const before = await signaturesOf(tx, file.name);
  try {
    await tx.exec(file.sql);
  } catch (error) {
    // The SQLSTATE stays on the error: the driver retries a transaction on a deadlock by it.
    throw Object.assign(new Error(`${file.path}: ${(error as Error).message}`, { cause: error }), {
      code: sqlState(error),
    });
  }
  const after = await signaturesOf(tx, file.name);
  if (after.some((signature) => !before.includes(signature))) {
    for (const stale of before) {
      await tx.exec(`DROP FUNCTION ${stale}`);
    }
  }
  await tx.query(
    `INSERT INTO schema_functions (name, checksum) VALUES ($1, $2)
       ON CONFLICT (name) DO UPDATE SET checksum = EXCLUDED.checksum, applied_at = now()`,
    [file.name, file.checksum],
  );
}

/** A function whose file is gone: its triggers, then every function of the name. */
async function dropFunction(tx: Tx, name: string): Promise<void> {
  await dropTriggersOf(tx, name);
  for (const signature of await signaturesOf(tx, name)) {
    await tx.exec(`DROP FUNCTION ${signature}`);
  }
  await tx.query('DELETE FROM schema_functions WHERE name = $1', [name]);
}

/** The functions of a name, as `name(argument types)`, quoted where they must be. */
async function signaturesOf(tx: Tx, name: string): Promise<string[]> {
  const rows = await tx.query<{ signature: string }>(
    `SELECT oid::regprocedure::text AS signature FROM pg_proc
      WHERE proname = $1 AND pronamespace = current_schema()::regnamespace ORDER BY oid`,
    [name],
  );
  return rows.map((row) => row.signature);
}

async function dropTriggersOf(tx: Tx, name: string): Promise<void> {
  const triggers = await tx.query<{ statement: string }>(
    `SELECT format('DROP TRIGGER %I ON %s', t.tgname, t.tgrelid::regclass) AS statement
       FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
      WHERE NOT t.tgisinternal AND p.proname = $1
        AND p.pronamespace = current_schema()::regnamespace
      ORDER BY t.tgname`,
    [name],
  );
  for (const { statement } of triggers) {
    await tx.exec(statement);
  }
}

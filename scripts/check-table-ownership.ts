/**
 * Each table belongs to one folder of src/, and only that folder's code names it in SQL
 * (docs/architecture.md): its TypeScript and its function files (`<folder>/sql/<name>.sql`).
 * Part of `npm run lint`: it fails on a query of another folder's table, and on a table a
 * migration creates that has no owner in scripts/table-owners.ts.
 */
import { readFileSync } from 'node:fs';
import {
  FUNCTION_FILE,
  filesUnder,
  MIGRATIONS,
  PUBLIC_VIEWS,
  root,
  tableOwner,
  withoutComments,
} from './table-owners.ts';

/**
 * The function files that name another folder's table, and why (docs/adr/0002-sql-as-code.md).
 * A reason no longer needed is reported too, so the list only shrinks.
 */
const FUNCTION_FILE_EXCEPTIONS: Record<string, Record<string, string>> = {
  'src/modules/transfers/sql/transfer_place_one.sql': {
    accounts:
      "reads each account's status under the batch's locks (Active again, as the service's findOwnActiveAccount judged it before the call)",
  },
  'src/modules/transfers/sql/transfer_sweep_one.sql': {
    accounts:
      "reads the swept account's and the destination's status and client under the batch's locks (the service found the destination before the call)",
  },
  'src/modules/transfers/sql/transfer_settle_one.sql': {
    accounts: "reads the account's callback_url as it stands when the rail's answer is applied",
  },
  'src/modules/vas/sql/vas_place_one.sql': {
    accounts: "reads the debit account's status under the batch's lock",
  },
};

// SQL keywords are written in capitals here, which keeps prose out of the match.
const SQL_TABLE = /\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\s+([a-z_][a-z0-9_]*)/g;
// A statement composed by db/claim-due.ts names its table in the owner's `table: '...'`.
const COMPOSED_TABLE = /\btable:\s*'([a-z_][a-z0-9_]*)'/g;
// A function names a table by its row type too (v_row accounts%ROWTYPE, NULL::transfers).
const ROW_TYPE = /\b([a-z_][a-z0-9_]*)%ROWTYPE\b|\bNULL::([a-z_][a-z0-9_]*)/g;
const DROPPED = /\bDROP\s+(?:TABLE|VIEW)\s+(?:IF\s+EXISTS\s+)?([a-z_][a-z0-9_]*)/g;
const CREATED = /\bCREATE\s+(?:TABLE|VIEW)\s+(?:IF\s+NOT\s+EXISTS\s+)?([a-z_][a-z0-9_]*)/g;

const problems: string[] = [];
const existing = new Map<string, string>();
for (const migration of filesUnder(MIGRATIONS, '.sql').sort()) {
  const sql = readFileSync(`${root}/${migration}`, 'utf8');
  for (const [, table = ''] of sql.matchAll(CREATED)) {
    existing.set(table, migration);
  }
  for (const [, table = ''] of sql.matchAll(DROPPED)) {
    existing.delete(table);
  }
}
for (const [table, migration] of existing) {
  if (tableOwner(table) === undefined && !(table in PUBLIC_VIEWS)) {
    problems.push(`${migration}: table ${table} has no owner`);
  }
}

for (const file of filesUnder('src', '.ts')) {
  if (/\.(test|contract)\.ts$/.test(file)) {
    continue;
  }
  const text = readFileSync(`${root}/${file}`, 'utf8');
  for (const table of namedTables(text, SQL_TABLE, COMPOSED_TABLE)) {
    checkOwner(file, text, table, `${file}: queries ${table}`);
  }
}

const exceptionsUsed = new Set<string>();
for (const file of filesUnder('src', '.sql').filter((sql) => FUNCTION_FILE.test(sql))) {
  const code = withoutComments(readFileSync(`${root}/${file}`, 'utf8'));
  for (const table of namedTables(code, SQL_TABLE, ROW_TYPE)) {
    if (FUNCTION_FILE_EXCEPTIONS[file]?.[table] !== undefined) {
      exceptionsUsed.add(`${file}: ${table}`);
    } else {
      checkOwner(file, code, table, `${file}: names ${table}`);
    }
  }
}
for (const [file, tables] of Object.entries(FUNCTION_FILE_EXCEPTIONS)) {
  for (const table of Object.keys(tables)) {
    if (!exceptionsUsed.has(`${file}: ${table}`)) {
      problems.push(`${file}: no longer names ${table}; take it out of FUNCTION_FILE_EXCEPTIONS`);
    }
  }
}

function namedTables(text: string, ...patterns: RegExp[]): Set<string> {
  const tables = new Set<string>();
  for (const pattern of patterns) {
    for (const match of text.matchAll(pattern)) {
      tables.add((match[1] ?? match[2] ?? '').toLowerCase());
    }
  }
  return tables;
}

/** Reports a table named outside its owner (a published view may be read anywhere). */
function checkOwner(file: string, text: string, table: string, problem: string): void {
  const owner = tableOwner(table) ?? (writes(text, table) ? PUBLIC_VIEWS[table] : undefined);
  if (owner !== undefined && !file.startsWith(`${owner}/`)) {
    problems.push(`${problem}, which belongs to ${owner}`);
  }
}

/** A published view may be read anywhere, but written only by its owner. */
function writes(text: string, table: string): boolean {
  return new RegExp(`\\b(?:INTO|UPDATE)\\s+${table}\\b`).test(text);
}

if (problems.length > 0) {
  process.stderr.write(
    `Table ownership (scripts/check-table-ownership.ts):\n${problems.join('\n')}\n`,
  );
  process.exit(1);
}
process.stdout.write("Table ownership: every query names its own folder's tables.\n");

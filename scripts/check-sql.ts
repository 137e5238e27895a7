/**
 * The rules of the SQL files (docs/adr/0002-sql-as-code.md), part of `npm run lint`:
 * - the migrations (src/db/migrations) change tables only: no function, procedure or trigger;
 * - a function lives in `<folder>/sql/<name>.sql`, in a folder that owns tables
 *   (scripts/table-owners.ts): one CREATE OR REPLACE FUNCTION <name>, and the CREATE OR
 *   REPLACE TRIGGERs that execute it, nothing else; no other .sql file is in src/;
 * - each function is defined in exactly one file, and no body is in two files;
 * - calls between the folders' functions obey the import rules of .dependency-cruiser.cjs (a
 *   shared layer never calls a module's function), and no call goes against the imports
 *   between two folders (a cycle across the two languages) unless listed with its reason;
 * - each function is used: by the TypeScript, by another function or by its trigger.
 * Which tables a function names is checked with the TypeScript's: check-table-ownership.ts.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  FUNCTION_FILE,
  filesUnder,
  MIGRATIONS,
  OWNERS,
  root,
  withoutComments,
} from './table-owners.ts';

/**
 * Calls from one folder's functions to another's that go against the TypeScript imports between
 * them, and why. A reason no longer needed is reported too, so the list only shrinks.
 */
const CALLS_AGAINST_IMPORTS: Record<string, string> = {};

/** Function files whose body another file repeats, and why. */
const SAME_BODIES: Record<string, string> = {};

interface FunctionFileFacts {
  readonly file: string;
  readonly folder: string;
  readonly name: string;
  /** Without comments. */
  readonly code: string;
  readonly bodies: string[];
  readonly triggered: boolean;
}

const problems: string[] = [];
const sqlFiles = filesUnder('src', '.sql').sort();
const migrations = sqlFiles.filter((file) => file.startsWith(`${MIGRATIONS}/`));
const functionFiles = sqlFiles.filter((file) => !migrations.includes(file));

for (const migration of migrations) {
  const code = withoutComments(readFileSync(`${root}/${migration}`, 'utf8'));
  const made = /\bCREATE\s+(?:OR\s+REPLACE\s+)?(?:CONSTRAINT\s+)?(FUNCTION|PROCEDURE|TRIGGER)\b/i;
  const found = made.exec(code);
  if (found !== null) {
    problems.push(
      `${migration}: makes a ${found[1]?.toLowerCase()}; migrations change tables only, functions live in <folder>/sql/<name>.sql`,
    );
  }
}

const facts = functionFiles.flatMap((file) => {
  const fileFacts = readFunctionFile(file);
  return fileFacts === undefined ? [] : [fileFacts];
});
checkOneDefinitionEach(facts);
checkBodiesOnce(facts);
checkCalls(facts);
checkUsed(facts);

/** The facts of a function file, or undefined (and a problem) when it breaks the layout. */
function readFunctionFile(file: string): FunctionFileFacts | undefined {
  const [, folder = '', name = ''] = FUNCTION_FILE.exec(file) ?? [];
  if (folder === '' || !(folder in OWNERS)) {
    problems.push(
      `${file}: SQL outside a migration lives in <folder>/sql/<name>.sql, in a folder of scripts/table-owners.ts`,
    );
    return undefined;
  }
  const code = withoutComments(readFileSync(`${root}/${file}`, 'utf8'));
  const bodies = [...code.matchAll(/\$([a-z_]*)\$([\s\S]*?)\$\1\$/g)].map((match) =>
    (match[2] ?? '').replace(/\s+/g, ' ').trim(),
  );
  const statements = code
    .replace(/\$([a-z_]*)\$[\s\S]*?\$\1\$/g, '$$')
    .split(';')
    .map((statement) => statement.replace(/\s+/g, ' ').trim())
    .filter((statement) => statement !== '');
  const defined = statements.filter((statement) => /^CREATE OR REPLACE FUNCTION /.test(statement));
  const triggers = statements.filter((statement) => /^CREATE OR REPLACE TRIGGER /.test(statement));
  if (defined.length !== 1 || !defined[0]?.startsWith(`CREATE OR REPLACE FUNCTION ${name}(`)) {
    problems.push(`${file}: defines one function, CREATE OR REPLACE FUNCTION ${name}(...)`);
  }
  for (const trigger of triggers) {
    if (!trigger.endsWith(`EXECUTE FUNCTION ${name}()`)) {
      problems.push(`${file}: a trigger here executes ${name}(), the file's function`);
    }
  }
  if (defined.length + triggers.length !== statements.length) {
    problems.push(`${file}: holds its function and that function's triggers, nothing else`);
  }
  return { file, folder, name, code, bodies, triggered: triggers.length > 0 };
}

function checkOneDefinitionEach(all: readonly FunctionFileFacts[]): void {
  const definedIn = new Map<string, string[]>();
  for (const file of sqlFiles) {
    const code = withoutComments(readFileSync(`${root}/${file}`, 'utf8'));
    for (const [, name = ''] of code.matchAll(
      /\bCREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION\s+(\w+)/gi,
    )) {
      definedIn.set(name, [...(definedIn.get(name) ?? []), file]);
    }
  }
  for (const [name, files] of definedIn) {
    if (files.length > 1) {
      problems.push(`function ${name} is defined in ${files.length} files: ${files.join(', ')}`);
    }
  }
  const byName = new Map<string, string>();
  for (const { file, name } of all) {
    const other = byName.get(name);
    if (other !== undefined) {
      problems.push(`${file}: ${other} is named ${name} too; a function has one file`);
    }
    byName.set(name, file);
  }
}

function checkBodiesOnce(all: readonly FunctionFileFacts[]): void {
  const byBody = new Map<string, string>();
  for (const { file, bodies } of all) {
    for (const body of bodies) {
      const other = byBody.get(body);
      if (other !== undefined && other !== file && SAME_BODIES[file] === undefined) {
        problems.push(`${file}: repeats the body of ${other}; call it instead`);
      }
      byBody.set(body, file);
    }
  }
  for (const file of Object.keys(SAME_BODIES)) {
    const repeated = all.find((facts) => facts.file === file)?.bodies ?? [];
    const elsewhere = all.filter((facts) => facts.file !== file).flatMap((facts) => facts.bodies);
    if (!repeated.some((body) => elsewhere.includes(body))) {
      problems.push(`${file}: repeats no other body; take it out of SAME_BODIES`);
    }
  }
}

/** The functions each file calls: the names of other function files in its code. */
function callsOf(all: readonly FunctionFileFacts[]): [FunctionFileFacts, FunctionFileFacts][] {
  const byName = new Map(all.map((facts) => [facts.name, facts]));
  return all.flatMap((caller) =>
    [...new Set(caller.code.match(/\b[a-z_][a-z0-9_]*\b/g) ?? [])].flatMap((word) => {
      const callee = byName.get(word);
      return callee === undefined || callee === caller ? [] : ([[caller, callee]] as const);
    }),
  ) as [FunctionFileFacts, FunctionFileFacts][];
}

function checkCalls(all: readonly FunctionFileFacts[]): void {
  const imports = folderImports();
  const againstUsed = new Set<string>();
  for (const [caller, callee] of callsOf(all)) {
    for (const rule of brokenImportRules(caller.file, callee.file)) {
      problems.push(`${caller.file}: calls ${callee.name} (${callee.file}), which ${rule} forbids`);
    }
    const edge = `${caller.folder} -> ${callee.folder}`;
    if (caller.folder !== callee.folder && reaches(imports, callee.folder, caller.folder)) {
      if (CALLS_AGAINST_IMPORTS[edge] === undefined) {
        problems.push(
          `${caller.file}: calls ${callee.name}, but ${callee.folder} imports ${caller.folder} (a cycle)`,
        );
      }
      againstUsed.add(edge);
    }
  }
  for (const edge of Object.keys(CALLS_AGAINST_IMPORTS)) {
    if (!againstUsed.has(edge)) {
      problems.push(
        `${edge}: no call goes against the imports; take it out of CALLS_AGAINST_IMPORTS`,
      );
    }
  }
}

function checkUsed(all: readonly FunctionFileFacts[]): void {
  const typescript = filesUnder('src', '.ts')
    .filter((file) => !/\.(test|contract)\.ts$/.test(file))
    .map((file) => readFileSync(`${root}/${file}`, 'utf8'))
    .join('\n');
  const called = new Set(callsOf(all).map(([, callee]) => callee.name));
  for (const { file, name, triggered } of all) {
    if (!triggered && !called.has(name) && !new RegExp(`\\b${name}\\b`).test(typescript)) {
      problems.push(`${file}: ${name} is called by no TypeScript, function or trigger`);
    }
  }
}

/**
 * The names of the forbidden rules of .dependency-cruiser.cjs that a dependency from one file
 * to the other breaks. Only rules made of paths apply to SQL (a cycle rule is checked above,
 * folder by folder); `$1` in a `to` pattern is the group the `from` path captured.
 */
function brokenImportRules(from: string, to: string): string[] {
  const config = createRequire(import.meta.url)('../.dependency-cruiser.cjs') as {
    forbidden: {
      name: string;
      from: Record<string, unknown>;
      to: Record<string, unknown>;
    }[];
  };
  const patterns = (value: unknown) =>
    value === undefined ? [] : Array.isArray(value) ? (value as string[]) : [value as string];
  const pathsOnly = (side: Record<string, unknown>) =>
    Object.keys(side).every((key) => key === 'path' || key === 'pathNot');
  return config.forbidden
    .filter((rule) => pathsOnly(rule.from) && pathsOnly(rule.to))
    .filter((rule) => {
      const fromPaths = patterns(rule.from.path);
      const captured = fromPaths.map((pattern) => new RegExp(pattern).exec(from)).find(Boolean);
      const group = captured?.[1] ?? '';
      const matches = (value: unknown, file: string) =>
        patterns(value).some((pattern) => new RegExp(pattern.replace('$1', group)).test(file));
      return (
        (fromPaths.length === 0 || captured !== undefined) &&
        !matches(rule.from.pathNot, from) &&
        (rule.to.path === undefined || matches(rule.to.path, to)) &&
        !matches(rule.to.pathNot, to)
      );
    })
    .map((rule) => rule.name);
}

/** Which folders import which (relative imports of the non-test TypeScript), by owner folder. */
function folderImports(): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const file of filesUnder('src', '.ts').filter((ts) => !/\.(test|contract)\.ts$/.test(ts))) {
    const text = readFileSync(`${root}/${file}`, 'utf8');
    for (const [, target = ''] of text.matchAll(/\bfrom\s+'(\.\.?\/[^']+)'/g)) {
      const imported = path.posix.normalize(path.posix.join(path.posix.dirname(file), target));
      const [from, to] = [folderOf(file), folderOf(imported)];
      if (from !== to) {
        edges.set(from, (edges.get(from) ?? new Set()).add(to));
      }
    }
  }
  return edges;
}

/** The owner folder a file is in, else its first folder under src/ (or the file itself). */
function folderOf(file: string): string {
  const owner = Object.keys(OWNERS)
    .filter((folder) => file.startsWith(`${folder}/`))
    .sort((a, b) => b.length - a.length)[0];
  return owner ?? file.split('/').slice(0, 2).join('/');
}

function reaches(edges: Map<string, Set<string>>, from: string, to: string): boolean {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length > 0) {
    const folder = stack.pop() ?? '';
    if (folder === to) {
      return true;
    }
    if (!seen.has(folder)) {
      seen.add(folder);
      stack.push(...(edges.get(folder) ?? []));
    }
  }
  return false;
}

if (problems.length > 0) {
  process.stderr.write(`SQL files (scripts/check-sql.ts):\n${problems.join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(
  `SQL files: ${functionFiles.length} functions, each in one file of its owner; migrations change tables only.\n`,
);

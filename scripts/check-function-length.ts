/**
 * No function over 70 lines (CONTRIBUTING.md), part of `npm run lint`. A function's length is
 * its own lines: the functions declared inside it (a service factory's operations) are
 * measured on their own and do not count towards it. Tests are exempt (a describe block is a
 * list, not logic), and so are the browser scripts the server sends as they are.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { filesUnder, root } from './table-owners.ts';

const MAX_LINES = 70;

/**
 * Functions allowed over the limit for now, by `file name`, and why. A reason no longer needed
 * is reported too, so the list only shrinks.
 */
const PENDING: Record<string, string> = {};
const pendingSeen = new Set<string>();

const problems: string[] = [];
const files = ['src', 'bench', 'scripts', 'bin']
  .flatMap((folder) => [...filesUnder(folder, '.ts'), ...filesUnder(folder, '.js')])
  .filter((file) => !/\.test\.ts$/.test(file) && !file.includes('/assets/'));

for (const file of files) {
  const text = readFileSync(`${root}/${file}`, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line;
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const body = node.body as ts.Node;
      let own = lineOf(body.getEnd()) - lineOf(body.getStart()) + 1;
      const nested = (inner: ts.Node) => {
        if (ts.isFunctionDeclaration(inner) && inner.body !== undefined) {
          own -= lineOf(inner.getEnd()) - lineOf(inner.getFullStart()) + 1;
          return;
        }
        ts.forEachChild(inner, nested);
      };
      ts.forEachChild(body, nested);
      if (own > MAX_LINES) {
        const name = (node as { name?: ts.Node }).name?.getText(source) ?? '(anonymous)';
        if (PENDING[`${file} ${name}`] !== undefined) {
          pendingSeen.add(`${file} ${name}`);
        } else {
          problems.push(`${file}:${lineOf(node.getStart()) + 1} ${name}: ${own} lines`);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

for (const [pending, reason] of Object.entries(PENDING)) {
  if (!pendingSeen.has(pending)) {
    problems.push(
      `${pending} (${reason}): no longer over ${MAX_LINES} lines; take it out of PENDING`,
    );
  }
}

if (problems.length > 0) {
  console.error(`Functions over ${MAX_LINES} lines:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(
  `Function length: none over ${MAX_LINES} lines in ${files.length} files` +
    (pendingSeen.size > 0 ? ` (${pendingSeen.size} pending: see PENDING).` : '.'),
);

/**
 * Where a server's CPU went: reads a V8 .cpuprofile (`node --cpu-prof`, or the bench's
 * `--profile`) and prints the top N by self time, grouped by package (node_modules) or by our
 * file, then the top N functions. Percentages are of the busy time (idle left out).
 *
 *   npx tsx bench/cpu-profile-top.ts FILE.cpuprofile [N] [--markdown]
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const REPO_ROOT = path.resolve(import.meta.dirname, '..');

/** `fastify`, `@fastify/ajv-compiler`, `node:internal/...`, `src/http/app.ts`, `(garbage collector)`. */
function groupOf(url: string, functionName: string): string {
  if (url === '') {
    return functionName.startsWith('(') ? functionName : '(native)';
  }
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const [scope, name] = url.slice(modules + '/node_modules/'.length).split('/');
    return scope?.startsWith('@') ? `${scope}/${name}` : (scope ?? url);
  }
  if (url.startsWith('node:')) {
    return url.split('/').slice(0, 2).join('/');
  }
  return path.relative(REPO_ROOT, url.replace(/^file:\/\//, ''));
}

/** Self time per node in µs: each sample holds until the next one. */
function selfTimes(profile: CpuProfile): Map<number, number> {
  const times = new Map<number, number>();
  profile.samples.forEach((id, index) => {
    const next = profile.timeDeltas[index + 1] ?? 0;
    times.set(id, (times.get(id) ?? 0) + next);
  });
  return times;
}

function top(totals: Map<string, number>, busy: number, count: number) {
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, us]) => ({ name, ms: us / 1000, share: (100 * us) / busy }));
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const markdown = args.includes('--markdown');
  const [file, countText] = args.filter((arg) => arg !== '--markdown');
  if (file === undefined) {
    throw new Error('usage: npx tsx bench/cpu-profile-top.ts FILE.cpuprofile [N] [--markdown]');
  }
  const count = Number(countText ?? 15);
  // A shell glob matching two profiles passed the second as N: say so, not print nothing.
  if (!Number.isInteger(count) || count < 1) {
    throw new Error(`N must be a whole number of rows, not ${countText} (one profile at a time)`);
  }
  const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
  const times = selfTimes(profile);
  const byGroup = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busy = 0;
  for (const node of profile.nodes) {
    const us = times.get(node.id) ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)' || us === 0) {
      continue;
    }
    busy += us;
    const group = groupOf(url, functionName);
    byGroup.set(group, (byGroup.get(group) ?? 0) + us);
    // tsx compiles our files to one line each: their line numbers say nothing.
    const where = url === '' ? '' : lineNumber === 0 ? ` ${group}` : ` ${group}:${lineNumber + 1}`;
    const name = `${functionName || '(anonymous)'}${where}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
  }
  const print = (title: string, rows: ReturnType<typeof top>) => {
    if (markdown) {
      process.stdout.write(`\n| ${title} | self ms | % of busy |\n|---|---|---|\n`);
      for (const one of rows) {
        process.stdout.write(
          `| \`${one.name}\` | ${one.ms.toFixed(0)} | ${one.share.toFixed(1)} |\n`,
        );
      }
      return;
    }
    process.stdout.write(`\n${title}\n`);
    for (const one of rows) {
      process.stdout.write(
        `${one.share.toFixed(1).padStart(6)} %${one.ms.toFixed(0).padStart(9)} ms  ${one.name}\n`,
      );
    }
  };
  process.stdout.write(`${file}: ${(busy / 1000).toFixed(0)} ms busy\n`);
  print('by package or file', top(byGroup, busy, count));
  print('by function', top(byFunction, busy, count));
}

await main();

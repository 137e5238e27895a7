/**
 * Start to first 200 from /health: `openibs start --memory --port 0` of the compiled package
 * (dist/, as an installed package runs it; built first when missing), against a bare Node HTTP
 * server started the same way in the same round. Medians of rounds; the ratio is the figure.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { row } from './report.ts';
import { median, ratio } from './stats.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'dist/cli/main.js');
const BARE_SERVER = `
const server = require('node:http').createServer((request, response) => response.end('{}'));
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ url: 'http://127.0.0.1:' + server.address().port })));
`;

export interface StartBench {
  readonly rounds: number;
  readonly openibsMs: readonly number[];
  readonly bareNodeMs: readonly number[];
  readonly medianOpenibsMs: number;
  readonly medianBareNodeMs: number;
  readonly ratio: number;
}

export async function runStartBench(options: { rounds: number }): Promise<StartBench> {
  if (!existsSync(CLI)) {
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.js')], { stdio: 'inherit' });
  }
  const openibsMs: number[] = [];
  const bareNodeMs: number[] = [];
  for (let round = 0; round < options.rounds; round += 1) {
    // Alternating which goes first keeps a warming machine from favouring either.
    const pair = [
      () => timeToHealth([CLI, 'start', '--memory', '--port', '0', '--json'], '/health'),
      () => timeToHealth(['-e', BARE_SERVER], '/'),
    ];
    const [first, second] = round % 2 === 0 ? pair : [...pair].reverse();
    const a = await (first as () => Promise<number>)();
    const b = await (second as () => Promise<number>)();
    openibsMs.push(round % 2 === 0 ? a : b);
    bareNodeMs.push(round % 2 === 0 ? b : a);
  }
  const medianOpenibsMs = median(openibsMs);
  const medianBareNodeMs = median(bareNodeMs);
  return {
    rounds: options.rounds,
    openibsMs,
    bareNodeMs,
    medianOpenibsMs,
    medianBareNodeMs,
    ratio: ratio(medianOpenibsMs, medianBareNodeMs),
  };
}

/** Spawns a server, reads its URL from its first line of output, polls until a 200. */
async function timeToHealth(args: string[], probePath: string): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, IBS_ENV: 'sandbox', DATABASE_URL: '', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const url = await firstUrl(child);
    while (true) {
      const answer = await fetch(`${url}${probePath}`).catch(() => undefined);
      if (answer?.status === 200) {
        return performance.now() - started;
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    child.kill('SIGKILL');
  }
}

function firstUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const line = text.split('\n').find((candidate) => candidate.startsWith('{'));
      if (line !== undefined) {
        resolve((JSON.parse(line) as { url: string }).url);
      }
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before its URL`)));
  });
}

export function renderStartTable(result: StartBench): string {
  const widths = [44, 12, 12];
  return [
    `Start to first 200 (median of ${result.rounds} starts)`,
    row(['', 'median ms', 'ratio'], widths),
    row(['bare Node HTTP server (baseline)', result.medianBareNodeMs.toFixed(0), '1.00'], widths),
    row(
      [
        'openibs start --memory --port 0 (dist/)',
        result.medianOpenibsMs.toFixed(0),
        result.ratio.toFixed(2),
      ],
      widths,
    ),
  ].join('\n');
}

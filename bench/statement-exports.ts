/**
 * The statement export row of `npm run bench -- --only exports`: the big account's whole
 * history as CSV and as PDF, streamed to a reader that discards it, with the server's peak
 * resident memory growth over each export, beside the same growth over JSON statement pages
 * (the baseline, measured in the same run). The claim (docs/statements.md): an export's
 * memory does not grow with its length, under 64 MiB for 1,000,000 entries. Each export is
 * measured from a collected heap (bench/server-commands.ts), EXPORT_ROUNDS times in turn
 * (JSON, CSV, PDF, JSON, ...), and reported as the median with its range: one run's figure
 * also depends on when V8 runs a full collection, which no change to a writer decides.
 */
import http from 'node:http';
import os from 'node:os';
import type { MemoryWatch } from './protocol.ts';
import type { ServerProcess } from './server-process.ts';
import { median } from './stats.ts';

const MIB = 1024 * 1024;
const JSON_PAGES = 50;
const EXPORT_ROUNDS = 3;

/** One measured run of one export. */
export interface ExportRun {
  /** The server's resident memory at the start, after the collection the growth is from. */
  readonly baselineMiB: number;
  readonly growthMiB: number;
  /** Peak growth of V8's heap (used) and of memory outside it (external, incl. Buffers). */
  readonly heapUsedMiB: number;
  readonly externalMiB: number;
  readonly seconds: number;
  readonly bytes: number;
  /** The machine's one-minute load average at the run's end (the machine is shared). */
  readonly loadAverage: number;
}

/** An export's runs, with the medians (and the growth's range) the table shows. */
export interface ExportMeasurement {
  readonly label: string;
  readonly runs: readonly ExportRun[];
  readonly growthMiB: number;
  readonly minGrowthMiB: number;
  readonly maxGrowthMiB: number;
  readonly heapUsedMiB: number;
  readonly externalMiB: number;
  readonly seconds: number;
  readonly bytes: number;
}

/** Bytes, time and a check of the whole body's end, without keeping the body. */
function streamGet(baseUrl: string, path: string, headers: Record<string, string>) {
  const started = performance.now();
  return new Promise<{ bytes: number; tail: string; seconds: number; status: number }>(
    (resolve, reject) => {
      http
        .get(`${baseUrl}${path}`, { headers }, (response) => {
          let bytes = 0;
          let tail = '';
          response.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            tail = (tail + chunk.toString('latin1')).slice(-64);
          });
          response.on('end', () =>
            resolve({
              bytes,
              tail,
              seconds: (performance.now() - started) / 1000,
              status: response.statusCode ?? 0,
            }),
          );
          response.on('error', reject);
        })
        .on('error', reject);
    },
  );
}

async function watched(
  server: ServerProcess,
  run: () => Promise<{ bytes: number; seconds: number }>,
) {
  await server.command('memoryWatch', { action: 'start' }, 10_000);
  const result = await run();
  const memory: MemoryWatch = await server.command('memoryWatch', { action: 'stop' }, 10_000);
  return {
    ...result,
    baselineMiB: memory.baselineRss / MIB,
    growthMiB: (memory.peakRss - memory.baselineRss) / MIB,
    heapUsedMiB: (memory.growth?.heapUsed ?? 0) / MIB,
    externalMiB: (memory.growth?.external ?? 0) / MIB,
    loadAverage: os.loadavg()[0] ?? Number.NaN,
  };
}

export async function runExportBench(options: {
  server: ServerProcess;
  accountId: string;
  entries: number;
  headers: Record<string, string>;
  log?: (message: string) => void;
}): Promise<ExportMeasurement[]> {
  const entries = options.entries.toLocaleString('en');
  const rows = [
    { label: `JSON statement pages (${JSON_PAGES} x 100 rows), baseline`, run: jsonPages },
    { label: `statement export CSV of ${entries} entries`, run: exportOf('csv') },
    { label: `statement export PDF of ${entries} entries`, run: exportOf('pdf') },
  ];
  const runs: ExportRun[][] = rows.map(() => []);
  for (let round = 1; round <= EXPORT_ROUNDS; round += 1) {
    for (const [index, row] of rows.entries()) {
      const run = await watched(options.server, () => row.run(options));
      runs[index]?.push(run);
      options.log?.(
        `exports round ${round}/${EXPORT_ROUNDS}: ${row.label}: ${run.growthMiB.toFixed(1)} MiB ` +
          `from ${run.baselineMiB.toFixed(1)} MiB, heap ${run.heapUsedMiB.toFixed(1)} / external ` +
          `${run.externalMiB.toFixed(1)} MiB, ` +
          `${run.seconds.toFixed(1)} s, load ${run.loadAverage.toFixed(1)}`,
      );
    }
  }
  return rows.map((row, index) => summarizeRuns(row.label, runs[index] ?? []));
}

type ExportOptions = Parameters<typeof runExportBench>[0];

async function jsonPages({ server, accountId, headers }: ExportOptions) {
  let bytes = 0;
  const started = performance.now();
  for (let page = 0; page < JSON_PAGES; page += 1) {
    const path = `/accounts/${accountId}/statement?limit=100&page=${page * 97}`;
    bytes += (await streamGet(server.baseUrl, path, headers)).bytes;
  }
  return { bytes, seconds: (performance.now() - started) / 1000 };
}

function exportOf(format: 'csv' | 'pdf') {
  return async ({ server, accountId, headers }: ExportOptions) => {
    const path = `/accounts/${accountId}/statement?format=${format}`;
    const answer = await streamGet(server.baseUrl, path, headers);
    const complete =
      format === 'pdf' ? answer.tail.includes('%%EOF') : answer.tail.endsWith('\r\n');
    if (answer.status !== 200 || !complete) {
      throw new Error(
        `${format} export: status ${answer.status}, ends ${JSON.stringify(answer.tail)}`,
      );
    }
    return answer;
  };
}

function summarizeRuns(label: string, runs: readonly ExportRun[]): ExportMeasurement {
  const growth = runs.map((run) => run.growthMiB);
  return {
    label,
    runs,
    growthMiB: median(growth),
    minGrowthMiB: Math.min(...growth),
    maxGrowthMiB: Math.max(...growth),
    heapUsedMiB: median(runs.map((run) => run.heapUsedMiB)),
    externalMiB: median(runs.map((run) => run.externalMiB)),
    seconds: median(runs.map((run) => run.seconds)),
    bytes: runs[0]?.bytes ?? 0,
  };
}

export function renderExportTable(results: readonly ExportMeasurement[]): string {
  const loads = results.flatMap((result) => result.runs.map((run) => run.loadAverage));
  const rows = results.map(
    (result) =>
      `| ${result.label} | ${result.growthMiB.toFixed(1)} MiB (${result.minGrowthMiB.toFixed(1)}–${result.maxGrowthMiB.toFixed(1)}) | ${result.heapUsedMiB.toFixed(1)} / ${result.externalMiB.toFixed(1)} MiB | ${result.seconds.toFixed(1)} s | ${(result.bytes / MIB).toFixed(1)} MiB |`,
  );
  return [
    `| statement export: process memory growth from a collected heap (< 64 MiB), ${EXPORT_ROUNDS} runs each, load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} | peak RSS growth, median (min–max) | peak heap used / external growth, medians | time, median | body |`,
    '|---|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
}

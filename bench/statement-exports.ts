/**
 * The statement export row of `npm run bench -- --only exports`: the big account's whole
 * history as CSV and as PDF, streamed to a reader that discards it, with the server's peak
 * resident memory growth over each export, beside the same growth over JSON statement pages
 * (the baseline, measured in the same run). The claim (docs/statements.md): an export's
 * memory does not grow with its length, under 64 MiB for 1,000,000 entries.
 */
import http from 'node:http';
import type { MemoryWatch } from './protocol.ts';
import type { ServerProcess } from './server-process.ts';

const MIB = 1024 * 1024;
const JSON_PAGES = 50;

export interface ExportMeasurement {
  readonly label: string;
  readonly growthMiB: number;
  /** Peak growth of V8's heap (used) and of memory outside it (external, incl. Buffers). */
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
    growthMiB: (memory.peakRss - memory.baselineRss) / MIB,
    heapUsedMiB: (memory.growth?.heapUsed ?? 0) / MIB,
    externalMiB: (memory.growth?.external ?? 0) / MIB,
  };
}

export async function runExportBench(options: {
  server: ServerProcess;
  accountId: string;
  entries: number;
  headers: Record<string, string>;
}): Promise<ExportMeasurement[]> {
  const { server, accountId, headers } = options;
  const path = `/accounts/${accountId}/statement`;
  const json = await watched(server, async () => {
    let bytes = 0;
    const started = performance.now();
    for (let page = 0; page < JSON_PAGES; page += 1) {
      bytes += (await streamGet(server.baseUrl, `${path}?limit=100&page=${page * 97}`, headers))
        .bytes;
    }
    return { bytes, seconds: (performance.now() - started) / 1000 };
  });
  const results: ExportMeasurement[] = [
    { label: `JSON statement pages (${JSON_PAGES} x 100 rows), baseline`, ...json },
  ];
  for (const format of ['csv', 'pdf'] as const) {
    const measured = await watched(server, async () => {
      const answer = await streamGet(server.baseUrl, `${path}?format=${format}`, headers);
      const complete =
        format === 'pdf' ? answer.tail.includes('%%EOF') : answer.tail.endsWith('\r\n');
      if (answer.status !== 200 || !complete) {
        throw new Error(
          `${format} export: status ${answer.status}, ends ${JSON.stringify(answer.tail)}`,
        );
      }
      return answer;
    });
    results.push({
      label: `statement export ${format.toUpperCase()} of ${options.entries.toLocaleString('en')} entries`,
      ...measured,
    });
  }
  return results;
}

export function renderExportTable(results: readonly ExportMeasurement[]): string {
  const rows = results.map(
    (result) =>
      `| ${result.label} | ${result.growthMiB.toFixed(1)} MiB | ${result.heapUsedMiB.toFixed(1)} / ${result.externalMiB.toFixed(1)} MiB | ${result.seconds.toFixed(1)} s | ${(result.bytes / MIB).toFixed(1)} MiB |`,
  );
  return [
    '| statement export: process memory growth (< 64 MiB) | peak RSS growth | peak heap used / external growth | time | body |',
    '|---|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
}

import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  type AuditExportFormat,
  exportAuditRows,
  formatHead,
  parseRecordedHead,
  verifyAuditChain,
} from '../audit/index.ts';
import { loadConfig } from '../config/config.ts';
import { createDb } from '../db/create-db.ts';
import type { Db } from '../db/db.ts';
import { parseDateRange } from '../http/date-range.ts';
import type { CliCommand } from './admin-call.ts';
import type { CliContext } from './cli-context.ts';

/**
 * The audit chain's commands read the database itself (DATABASE_URL, or the PGlite of DATA_DIR
 * with the server stopped), as `migrate` does: a check of the trail needs no server, and an
 * auditor may run it against a copy of the database.
 */
export function auditCommands(
  deps: { readonly openDb?: (context: CliContext) => Promise<Db>; readonly output?: Writable } = {},
): Record<string, CliCommand> {
  const openDb = deps.openDb ?? ((context) => createDb(loadConfig(context.env)));
  const withDb = async <T>(context: CliContext, fn: (db: Db) => Promise<T>): Promise<T> => {
    const db = await openDb(context);
    try {
      return await fn(db);
    } finally {
      await db.close();
    }
  };
  return {
    'audit:verify': {
      usage:
        'audit:verify [--head ID:HASH]   recompute the audit trail’s hash chain; exits 1 naming ' +
        'the first bad row, else prints the rows and the head to keep',
      run: (context) => withDb(context, (db) => verify(db, context)),
    },
    'audit:export': {
      usage:
        'audit:export [--format json|csv] [--from DATE] [--to DATE]   the audit rows with their ' +
        'hashes, streamed to standard output',
      run: (context) =>
        withDb(context, (db) => exportRows(db, context, deps.output ?? process.stdout)),
    },
  };
}

async function verify(db: Db, context: CliContext): Promise<string> {
  const given = context.options.head;
  const recorded = typeof given === 'string' ? parseRecordedHead(given) : undefined;
  if (typeof given === 'string' && recorded === undefined) {
    throw new Error('--head takes ID:HASH, as audit:verify prints the head');
  }
  const verdict = await verifyAuditChain(db, { recorded });
  if (!verdict.ok) {
    const { row, kind, message } = verdict.broken;
    throw new Error(
      `audit chain broken at row ${row} (${kind}): ${message}; ${verdict.rows} rows before it are intact`,
    );
  }
  const head = verdict.head === null ? 'none (no row yet)' : formatHead(verdict.head);
  return `audit chain intact: ${verdict.rows} rows; head ${head}`;
}

async function exportRows(db: Db, context: CliContext, output: Writable): Promise<undefined> {
  const format = context.options.format ?? 'json';
  if (format !== 'json' && format !== 'csv') {
    throw new Error('--format is json or csv');
  }
  const text = (name: string) => {
    const value = context.options[name];
    return typeof value === 'string' ? value : undefined;
  };
  const range = parseDateRange(text('from'), text('to'));
  const rows = exportAuditRows(db, range, format as AuditExportFormat);
  // Standard output stays open for the process; a file or test stream is ended by the pipeline.
  if (output === process.stdout) {
    for await (const chunk of rows) {
      if (!output.write(chunk)) {
        await once(output, 'drain');
      }
    }
  } else {
    await pipeline(rows, output);
  }
  return undefined;
}

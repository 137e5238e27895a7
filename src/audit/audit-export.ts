import { Readable } from 'node:stream';
import type { Queryable } from '../db/db.ts';
import { exactCsvCell } from '../shared/csv-cell.ts';
import { HASHED_FIELDS } from './audit-chain.ts';
import { type ChainRow, chainIdRange, readChainRows } from './audit-chain-repository.ts';

export type AuditExportFormat = 'csv' | 'json';

/** The export's columns: the hashed fields in the encoding's order, then prev_hash and hash. */
export const AUDIT_EXPORT_COLUMNS = [...HASHED_FIELDS, 'prevHash', 'hash'] as const;

const BATCH = 500;

/** The times an export covers; an open end is undefined. */
export interface ExportRange {
  readonly from: Date | undefined;
  readonly to: Date | undefined;
}

/**
 * The audit rows of a time range for an auditor, oldest first, each with its prev_hash and
 * hash (docs/operations.md, "Exporting the trail"). Streamed a batch at a time: the next batch
 * is read only when the reader has taken the last, so memory stays one batch.
 *
 * CSV: a header row, RFC 4180, CRLF lines; NULL is an empty cell and an empty text `""` (as
 * PostgreSQL's COPY writes them); a cell a spreadsheet would run as a formula, or one that
 * starts with a single quote, gets a single quote in front (take one off to hash it).
 * JSON: an array, one row object a line, every field a string or null exactly as hashed
 * (`details`, `before` and `after` are the JSON text the hash covers).
 */
export function exportAuditRows(
  db: Queryable,
  range: ExportRange,
  format: AuditExportFormat,
): Readable {
  const lines = format === 'csv' ? csvLines(db, range) : jsonLines(db, range);
  return Readable.from(lines, { objectMode: false, encoding: 'utf8' });
}

async function* csvLines(db: Queryable, range: ExportRange): AsyncGenerator<string> {
  yield `${AUDIT_EXPORT_COLUMNS.join(',')}\r\n`;
  for await (const rows of rowBatches(db, range)) {
    yield rows.map(csvRow).join('');
  }
}

function csvRow(row: ChainRow): string {
  const cells = AUDIT_EXPORT_COLUMNS.map((column) => {
    const value = row[column];
    return value === null ? '' : value === '' ? '""' : exactCsvCell(value);
  });
  return `${cells.join(',')}\r\n`;
}

async function* jsonLines(db: Queryable, range: ExportRange): AsyncGenerator<string> {
  yield '[';
  let separator = '\n';
  for await (const rows of rowBatches(db, range)) {
    const text = rows.map((row) => JSON.stringify(jsonRow(row))).join(',\n');
    yield `${separator}${text}`;
    separator = ',\n';
  }
  yield '\n]\n';
}

function jsonRow(row: ChainRow): Record<string, string | null> {
  return Object.fromEntries(AUDIT_EXPORT_COLUMNS.map((column) => [column, row[column]]));
}

async function* rowBatches(db: Queryable, range: ExportRange): AsyncGenerator<ChainRow[]> {
  const ids = await chainIdRange(db, range);
  if (ids === null) {
    return;
  }
  let afterId = (BigInt(ids.firstId) - 1n).toString();
  for (;;) {
    const rows = await readChainRows(db, { afterId, uptoId: ids.lastId, limit: BATCH });
    if (rows.length > 0) {
      yield rows;
    }
    const last = rows.at(-1);
    if (last === undefined || rows.length < BATCH) {
      return;
    }
    afterId = last.id;
  }
}

import { Readable } from 'node:stream';
import { csvCell } from '../../shared/csv-cell.ts';
import type { StatementExport } from './account-service.ts';

/** The CSV's header row: the JSON statement row's fields, its time in Lagos as `date`. */
export const STATEMENT_CSV_COLUMNS = [
  'entryNumber',
  'date',
  'type',
  'amount',
  'balanceAfter',
  'narration',
  'reference',
  'transferId',
  'journalId',
] as const;

/**
 * A statement as CSV (RFC 4180, CRLF lines, UTF-8): the header row, then one row per entry,
 * oldest first. The rows come from the ledger already written (ledger_statement_csv, the same
 * cells as `csvCell` makes), a batch's text at a time; the next is read only when the reader
 * has taken the last, so the stream holds a batch at most, whatever the statement's length.
 */
export function statementCsv(statement: StatementExport): Readable {
  // Strings all the way to the socket (a Readable with an encoding keeps them as they are): as
  // Buffers, each batch was an allocation outside V8's heap that waited for a full collection.
  return Readable.from(csvChunks(statement), { objectMode: false, encoding: 'utf8' });
}

async function* csvChunks(statement: StatementExport): AsyncGenerator<string> {
  yield csvLine(STATEMENT_CSV_COLUMNS);
  try {
    for (let next = await statement.csvRows.next(); next.done !== true; ) {
      if (next.value !== '') {
        yield next.value;
      }
      next = await statement.csvRows.next();
    }
  } finally {
    await statement.csvRows.return(undefined);
  }
}

function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

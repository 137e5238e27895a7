import { Readable } from 'node:stream';
import type { StatementEntry } from '../../ledger/ledger-service.ts';
import { lagosIso } from '../../shared/lagos-time.ts';
import { koboToNairaText } from '../../shared/money.ts';
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
 * oldest first. Pulled: the next batch of entries is read only when the reader has taken the
 * last one, so the stream holds a batch at most, whatever the statement's length.
 */
export function statementCsv(statement: StatementExport): Readable {
  return Readable.from(csvChunks(statement), { objectMode: false });
}

async function* csvChunks(statement: StatementExport): AsyncGenerator<string> {
  yield csvLine(STATEMENT_CSV_COLUMNS);
  try {
    for (
      let text = await nextRows(statement);
      text !== undefined;
      text = await nextRows(statement)
    ) {
      yield text;
    }
  } finally {
    await statement.entries.return(undefined);
  }
}

/**
 * The next batch's rows as one piece of text, the batch let go before the text is handed on:
 * nothing of it stays in the generator's frame while the reader takes its time (see
 * readEntryRange for what that cost).
 */
async function nextRows(statement: StatementExport): Promise<string | undefined> {
  const next = await statement.entries.next();
  return next.done === true
    ? undefined
    : next.value.map((entry) => csvLine(csvRow(entry))).join('');
}

function csvRow(entry: StatementEntry): string[] {
  const credit = entry.amountKobo > 0n;
  return [
    entry.entryNumber.toString(),
    lagosIso(entry.createdAt),
    credit ? 'Credit' : 'Debit',
    koboToNairaText(credit ? entry.amountKobo : -entry.amountKobo, { grouped: false }),
    koboToNairaText(entry.balanceAfterKobo, { grouped: false }),
    entry.narration,
    entry.reference ?? '',
    entry.transferId ?? '',
    entry.journalId,
  ];
}

function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** A number as we write it (`-12.50`, `7`): left as a number for the spreadsheet to sum. */
const OUR_NUMBER = /^-?\d+(\.\d+)?$/;
/** What a spreadsheet reads as the start of a formula (OWASP's CSV injection list). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One cell: text a spreadsheet would run as a formula (`=HYPERLINK(...)`, `+1`, `-2+3`, `@SUM`,
 * a leading tab or carriage return) gets a single quote in front, which makes it text and shows
 * as typed; then RFC 4180 quoting (a cell with a comma, a quote or a line break goes in double
 * quotes, its quotes doubled).
 */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) && !OUR_NUMBER.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

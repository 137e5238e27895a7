import { CsvError, parse } from 'csv-parse/sync';

/**
 * A bulk payout CSV as the sandbox dashboard takes it (docs/dashboard.md, "Bulk transfers"):
 * a header row naming the columns, then one transfer per row. The file comes from an operator's
 * spreadsheet, so every cell is distrusted: its size, its characters, a formula's first
 * character, the number of cells per row, the amount. Passing here only means each row can be
 * sent as an item; the bank then checks each as POST /transfers/bulk does.
 */

const REQUIRED = [
  'debitAccountNumber',
  'beneficiaryBankCode',
  'beneficiaryAccountNumber',
  'amount',
  'paymentReference',
] as const;
const OPTIONAL = ['narration', 'nameEnquiryReference'] as const;
const KNOWN: readonly string[] = [...REQUIRED, ...OPTIONAL];

export const MAX_CSV_BYTES = 512 * 1024;
const MAX_ROWS = 1000;
const MAX_CELL = 100;
/** What a spreadsheet would run as a formula when the file goes back into one. */
const FORMULA_START = /^[=+\-@]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses.
const CONTROL = /[\u0000-\u001f\u007f]/;
/** Problems named before the rest are left out: the notice stays short. */
const MAX_PROBLEMS = 5;

export type CsvTransfers =
  | { readonly ok: true; readonly transfers: Record<string, string | number>[] }
  | { readonly ok: false; readonly problems: string[] };

export function parseBulkCsv(text: string): CsvTransfers {
  if (Buffer.byteLength(text, 'utf8') > MAX_CSV_BYTES) {
    return { ok: false, problems: [`The file is larger than ${MAX_CSV_BYTES / 1024} KiB.`] };
  }
  const rows = splitRows(text);
  if (rows === undefined) {
    return {
      ok: false,
      problems: ['A quoted cell is never closed.'],
    };
  }
  const [header, ...data] = rows;
  const headerProblem = checkHeader(header ?? []);
  if (headerProblem !== undefined) {
    return { ok: false, problems: [headerProblem] };
  }
  if (data.length === 0 || data.length > MAX_ROWS) {
    return { ok: false, problems: [`A batch has 1 to ${MAX_ROWS} rows after the header.`] };
  }
  const problems: string[] = [];
  const transfers = data.map((cells, index) => {
    const row = readRow(header as string[], cells, index + 2);
    if (typeof row === 'string') {
      problems.push(row);
    }
    return row;
  });
  return problems.length > 0
    ? { ok: false, problems: problems.slice(0, MAX_PROBLEMS) }
    : { ok: true, transfers: transfers as Record<string, string | number>[] };
}

function checkHeader(header: readonly string[]): string | undefined {
  const unknown = header.filter((name) => !KNOWN.includes(name));
  const missing = REQUIRED.filter((name) => !header.includes(name));
  if (unknown.length > 0 || missing.length > 0 || new Set(header).size !== header.length) {
    return `The header row must name the columns ${REQUIRED.join(', ')} (and may name ${OPTIONAL.join(', ')}), each once.`;
  }
  return undefined;
}

/** One data row as an item, or what is wrong with it (`line` counts the header as 1). */
function readRow(
  header: readonly string[],
  cells: readonly string[],
  line: number,
): Record<string, string | number> | string {
  if (cells.length !== header.length) {
    return `Line ${line}: ${cells.length} cells, the header names ${header.length}.`;
  }
  const item: Record<string, string | number> = {};
  for (const [index, name] of header.entries()) {
    const cell = (cells[index] ?? '').trim();
    if (cell.length > MAX_CELL || CONTROL.test(cell) || FORMULA_START.test(cell)) {
      return `Line ${line}: ${name} is too long, holds a control character or starts like a formula.`;
    }
    if (cell === '' && OPTIONAL.includes(name as (typeof OPTIONAL)[number])) {
      continue;
    }
    item[name] = cell;
  }
  const amount = String(item.amount ?? '').replace(/,/g, '');
  if (!/^\d{1,12}(\.\d{1,2})?$/.test(amount)) {
    return `Line ${line}: amount must be naira, with at most two decimals.`;
  }
  return { ...item, amount: Number(amount) };
}

/**
 * The rows of a CSV (RFC 4180, CRLF or LF; csv-parse reads it), blank lines left out; undefined
 * when the text is not CSV (a quoted cell never closed).
 */
function splitRows(text: string): string[][] | undefined {
  try {
    const rows: string[][] = parse(text, {
      relax_column_count: true,
      // A quote inside an unquoted cell is kept as text: the cell checks below then judge it.
      relax_quotes: true,
    });
    return rows.filter((cells) => cells.some((value) => value.trim() !== ''));
  } catch (error) {
    if (error instanceof CsvError) {
      return undefined;
    }
    throw error;
  }
}

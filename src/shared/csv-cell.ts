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
  return quoted(safe);
}

/**
 * A cell whose text must come back exactly (the audit export, whose cells an auditor hashes):
 * neutralised as `csvCell` does, and a text that starts with a single quote gets one more, so
 * taking one leading quote off any cell that has one always gives the text back.
 */
export function exactCsvCell(value: string): string {
  const guarded = value.startsWith("'") || (FORMULA_START.test(value) && !OUR_NUMBER.test(value));
  return quoted(guarded ? `'${value}` : value);
}

function quoted(cell: string): string {
  return /[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

import { Readable } from 'node:stream';
import PDFDocument from 'pdfkit';
import { invariant } from '../../shared/invariant.ts';
import { lagosMinute } from '../../shared/lagos-time.ts';
import { type Kobo, koboToNairaText } from '../../shared/money.ts';
import type { StatementExport } from './account-service.ts';
import { FontMetrics, LatinContent, latin1, pdfLiteral } from './statement-pdf-text.ts';

/** A4 portrait in points; rows of one line each, so a page's count is known before it is drawn. */
const PAGE_HEIGHT = 841.89;
const LEFT = 30;
const WIDTH = 535;
const ROW = 10;
const FONT_SIZE = 7;
/** The size of the header and footer lines of pages after the first. */
const CHROME_SIZE = 8;
/** Helvetica's ascender (718/1000 of the size): from a line's top to its baseline. */
const HELVETICA_ASCENT = 0.718;
const TABLE_BOTTOM = PAGE_HEIGHT - 50;
const FOOTER_Y = PAGE_HEIGHT - 32;
/** Where the entries' table starts: under the full header on page 1, the short one after. */
const FIRST_TABLE_TOP = 172;
const NEXT_TABLE_TOP = 64;
/** The totals after the last entry: a gap and four lines, never split across pages. */
const SUMMARY_ROWS = 5;

const rowsFrom = (top: number) => Math.floor((TABLE_BOTTOM - top - ROW * 1.5) / ROW);
const FIRST_PAGE_ROWS = rowsFrom(FIRST_TABLE_TOP);
const PAGE_ROWS = rowsFrom(NEXT_TABLE_TOP);

interface Column {
  readonly label: string;
  readonly width: number;
  readonly right?: boolean;
}

const COLUMNS: readonly Column[] = [
  { label: '#', width: 30, right: true },
  { label: 'Date (Lagos)', width: 60 },
  { label: 'Narration', width: 140 },
  { label: 'Reference', width: 118 },
  { label: 'Debit', width: 52, right: true },
  { label: 'Credit', width: 52, right: true },
  { label: 'Balance', width: 59, right: true },
];
const GUTTER = 4;

/** The bank the statement is from, as configured (its name in the bank directory). */
export interface StatementBank {
  readonly name: string;
}

/**
 * How many pages a statement of `entries` lines takes: every line is one row, the first page
 * holds fewer (under the header), and the totals go on the last page when they fit, else on a
 * page of their own. Known before anything is drawn, so every page can say "Page n of m".
 */
export function statementPageCount(entries: number): number {
  let pages = 1;
  let room = FIRST_PAGE_ROWS - entries;
  if (room < 0) {
    const rest = -room;
    pages += Math.ceil(rest / PAGE_ROWS);
    room = PAGE_ROWS * Math.ceil(rest / PAGE_ROWS) - rest;
  }
  return room >= SUMMARY_ROWS ? pages : pages + 1;
}

/**
 * A statement as a PDF. The document is drawn page after page while it is read: entries are
 * read a batch at a time, and the next batch only once the reader has taken what was written
 * (backpressure), so memory stays bounded whatever the statement's length (pdfkit keeps a few
 * hundred bytes per finished page, for the document's page tree).
 */
export function statementPdf(statement: StatementExport, bank: StatementBank): Readable {
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: 30, bottom: 20, left: LEFT, right: LEFT },
    autoFirstPage: false,
    info: {
      Title: `Statement of account ${statement.account.accountNumber}`,
      Author: bank.name,
      CreationDate: statement.generatedAt,
    },
  });
  const { out, room } = pulledBy(doc);
  writeStatement(doc, statement, bank, room).then(
    (written) => (written ? doc.end() : undefined),
    (error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))),
  );
  return out;
}

/**
 * The document's bytes through a stream whose reader sets the pace: `room()` waits until the
 * reader has taken what is buffered. Answers false from room() once the reader has gone.
 */
function pulledBy(doc: PDFKit.PDFDocument) {
  let wake: (() => void) | undefined;
  const resume = () => {
    const waiting = wake;
    wake = undefined;
    waiting?.();
  };
  const out = new Readable({
    read: resume,
    destroy: (error, done) => {
      resume();
      done(error);
    },
  });
  doc.on('data', (chunk: Buffer) => out.push(chunk));
  doc.on('end', () => out.push(null));
  const room = async (): Promise<boolean> => {
    // pdfkit hands its bytes on from its own buffer on a later tick: let it, then wait for the
    // reader while what it has not taken fills the stream.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (!out.destroyed && out.readableLength >= out.readableHighWaterMark) {
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
    return !out.destroyed;
  };
  return { out, room };
}

interface Totals {
  credits: Kobo;
  creditCount: number;
  debits: Kobo;
  debitCount: number;
}

/** Draws every page; answers false when the reader went away before the end. */
async function writeStatement(
  doc: PDFKit.PDFDocument,
  statement: StatementExport,
  bank: StatementBank,
  room: () => Promise<boolean>,
): Promise<boolean> {
  const { span } = statement;
  const count = span.last >= span.first ? Number(span.last - span.first + 1n) : 0;
  const pages = new StatementPages(doc, statement, bank, statementPageCount(count));
  const totals: Totals = { credits: 0n, creditCount: 0, debits: 0n, debitCount: 0 };
  while (await drawNextBatch(statement, pages, totals)) {
    if (!(await room())) {
      await statement.lines.return(undefined);
      return false;
    }
  }
  const closing = span.openingKobo + totals.credits - totals.debits;
  invariant(closing === span.closingKobo, 'statement entries do not add up to the closing balance');
  pages.summary(summaryLines(statement, totals));
  return true;
}

/**
 * Draws the next batch of lines; false when there are no more. A function of its own so the
 * batch is let go before the writer waits for the reader: kept in the loop's frame, it lived
 * long enough for V8 to move it to the old generation, which grew by the export's garbage.
 */
async function drawNextBatch(
  statement: StatementExport,
  pages: StatementPages,
  totals: Totals,
): Promise<boolean> {
  const next = await statement.lines.next();
  if (next.done === true) {
    return false;
  }
  const batch = next.value;
  const text = batch.text;
  // Each line read where it is in the batch's text (indexes, not a string a line or a cell):
  // strings per row were most of what the export allocated (docs/benchmarks.md).
  let start = 0;
  while (text !== '') {
    const at = text.indexOf(LINE_SEPARATOR, start);
    const end = at < 0 ? text.length : at;
    pages.row(text, start, end);
    if (end === text.length) {
      break;
    }
    start = end + 1;
  }
  totals.credits += batch.creditsKobo;
  totals.creditCount += batch.creditCount;
  totals.debits += batch.debitsKobo;
  totals.debitCount += batch.debitCount;
  return true;
}

/** How ledger_statement_lines separates a batch's lines and a line's cells. */
const LINE_SEPARATOR = '\u001e';
const CELL_SEPARATOR = '\u001f';

const naira = (kobo: Kobo) => koboToNairaText(kobo, { grouped: true });

function summaryLines(statement: StatementExport, totals: Totals): [string, string][] {
  return [
    ['Opening balance', naira(statement.span.openingKobo)],
    [`Total credits (${totals.creditCount})`, naira(totals.credits)],
    [`Total debits (${totals.debitCount})`, naira(totals.debits)],
    ['Closing balance', naira(statement.span.closingKobo)],
  ];
}

/** Pages as they are drawn: a new one when the current is full, its header and footer. */
class StatementPages {
  private page = 0;
  private rowsLeft = 0;
  /** The page's rows, added to its content at once (one buffer a page rather than a row). */
  private readonly rows = new LatinContent();
  /** What every row starts with: the regular font, on PDF's own coordinates. */
  private rowStart: Buffer = Buffer.alloc(0);
  private y = 0;
  /** The regular font's widths, for rows (read once per process, on the first page). */
  private metrics: FontMetrics | undefined;
  /** What every page after the first repeats, made on the second. */
  private repeated: RepeatedChrome | undefined;

  constructor(
    private readonly doc: PDFKit.PDFDocument,
    private readonly statement: StatementExport,
    private readonly bank: StatementBank,
    private readonly pageCount: number,
  ) {}

  /**
   * One entry's line, `text` from `start` to `end` (its cells separated by U+001F), written as
   * one piece of the page's content: the PDF text operators pdfkit itself writes for each cell,
   * with the font's widths from a table, put byte by byte into the page's buffer. Drawing each
   * cell through `text()` cost ten times the time and kept the garbage collector busy enough to
   * double the process's memory; a string per cell and per operator still made ~1 KB of
   * garbage a row, a third of the export's CPU time (docs/benchmarks.md).
   */
  row(text: string, start: number, end: number): void {
    if (this.rowsLeft === 0) {
      this.newPage();
    }
    const metrics = this.metrics as FontMetrics;
    const baseline = baselineAt(this.y, FONT_SIZE);
    const rows = this.rows;
    rows.reserve(2 * (end - start) + ROW_OPERATOR_BYTES);
    rows.appendBytes(this.rowStart);
    let cell = start;
    for (let index = 0; index < COLUMNS.length; index += 1) {
      const column = COLUMNS[index] as Column;
      // A line with fewer cells leaves the rest empty, as a missing cell was before.
      const from = Math.min(cell, end);
      const stop = cellEnd(text, from, end);
      const whole = metrics.rangeUnits(text, from, stop);
      const cut = whole * (FONT_SIZE / 1000) > column.width;
      const kept = cut ? metrics.cutLength(text, from, stop, FONT_SIZE, column.width) : stop - from;
      rows.appendBytes(MATRIX);
      rows.appendBytes(
        column.right === true
          ? rightX(index, cut ? metrics.cutUnits(text, from, kept) : whole)
          : (COLUMN_X[index] as Buffer),
      );
      rows.appendBytes(baseline);
      rows.appendLiteral(text, from, kept, cut);
      rows.appendBytes(SHOW);
      cell = stop + 1;
    }
    rows.appendBytes(ROW_END);
    this.y += ROW;
    this.rowsLeft -= 1;
  }

  summary(lines: readonly [string, string][]): void {
    if (this.page === 0 || this.rowsLeft < SUMMARY_ROWS) {
      this.newPage();
    }
    this.flushRows();
    this.y += ROW;
    const labelAt = COLUMNS.slice(0, 4).reduce((x, column) => x + column.width + GUTTER, LEFT);
    for (const [label, amount] of lines) {
      this.doc.font('Helvetica-Bold').text(label, labelAt, this.y, { lineBreak: false });
      this.cellAt(amount, LEFT + WIDTH - 110, 110, true);
      this.y += ROW;
    }
    invariant(this.page === this.pageCount, 'a statement drew another page count than it printed');
  }

  private flushRows(): void {
    if (!this.rows.empty) {
      // As bytes (the text is Latin-1 already), which pdfkit takes without its per-character copy.
      this.doc.addContent(this.rows.take());
    }
  }

  private newPage(): void {
    this.flushRows();
    this.doc.addPage();
    this.page += 1;
    if (this.page === 1) {
      this.firstPageChrome();
    } else {
      this.nextPageChrome();
    }
    this.doc
      .moveTo(LEFT, this.y - 2)
      .lineTo(LEFT + WIDTH, this.y - 2)
      .lineWidth(0.5)
      .stroke();
    this.y += ROW * 0.5;
    this.rowsLeft = this.page === 1 ? FIRST_PAGE_ROWS : PAGE_ROWS;
  }

  /** Page 1 through pdfkit: the full header, the footer and the column labels. */
  private firstPageChrome(): void {
    this.firstHeader();
    this.footer();
    this.y = FIRST_TABLE_TOP;
    this.cells(
      COLUMNS.map((column) => column.label),
      'Helvetica-Bold',
    );
    this.metrics ??= helveticaMetrics(this.doc);
    // Rows measure and write in the regular font, which the footer put on this page.
    this.doc.font('Helvetica').fontSize(FONT_SIZE);
    this.rowStart = Buffer.from(
      `q 1 0 0 -1 0 ${PAGE_HEIGHT} cm BT /${fontOf(this.doc).id} ${FONT_SIZE} Tf`,
      'latin1',
    );
  }

  /**
   * Every later page's short header, column labels and footer, written as content as rows are:
   * the header and labels as one piece of operators made once a document, then the page number.
   * Drawn through `text()`, the chrome of a page made more garbage than its seventy rows, and
   * the export's memory grew with it (docs/benchmarks.md).
   */
  private nextPageChrome(): void {
    this.repeated ??= this.repeatedChrome();
    const { regular, bold, ops } = this.repeated;
    const fonts = (this.doc.page as unknown as { fonts: Record<string, unknown> }).fonts;
    fonts[regular.id] = regular.ref();
    fonts[bold.id] = bold.ref();
    const footer = `Page ${this.page} of ${this.pageCount}`;
    const x = LEFT + WIDTH - (this.metrics as FontMetrics).width(footer, CHROME_SIZE);
    this.doc.addContent(
      ops + textOps(regular.id, CHROME_SIZE, [{ x, top: FOOTER_Y, text: footer }]),
    );
    this.y = NEXT_TABLE_TOP + ROW;
  }

  /** The short header and the column labels of pages after the first, as PDF operators. */
  private repeatedChrome(): RepeatedChrome {
    const doc = this.doc.font('Helvetica-Bold').fontSize(FONT_SIZE);
    const bold = fontOf(doc);
    let x = LEFT;
    const labels = COLUMNS.map((column) => {
      const at = column.right === true ? x + column.width - doc.widthOfString(column.label) : x;
      x += column.width + GUTTER;
      return { x: at, top: NEXT_TABLE_TOP, text: column.label };
    });
    const regular = fontOf(doc.font('Helvetica'));
    const { account } = this.statement;
    const header = `${this.bank.name}: statement of account ${account.accountNumber}, ${this.period()}`;
    return {
      regular,
      bold,
      ops:
        textOps(regular.id, CHROME_SIZE, [{ x: LEFT, top: 40, text: latin1(header) }]) +
        textOps(bold.id, FONT_SIZE, labels),
    };
  }

  private firstHeader(): void {
    const { account, span } = this.statement;
    const doc = this.doc;
    doc.font('Helvetica-Bold').fontSize(14).text(latin1(this.bank.name), LEFT, 40);
    doc.font('Helvetica').fontSize(11).text('Statement of account', LEFT, 60);
    const lines = [
      `Account name: ${account.accountName}`,
      `Account number: ${account.accountNumber}    Account type: ${account.accountType}    Currency: ${account.currencyCode}`,
      `Period: ${this.period()} (Africa/Lagos, UTC+01:00)`,
      `Generated: ${lagosMinute(this.statement.generatedAt)} (Africa/Lagos)`,
      `Opening balance: ${naira(span.openingKobo)}    Amounts in naira (NGN)`,
    ];
    doc.fontSize(9);
    lines.forEach((line, index) => {
      doc.text(latin1(line), LEFT, 82 + index * 13, { lineBreak: false });
    });
  }

  private footer(): void {
    const page = `Page ${this.page} of ${this.pageCount}`;
    this.doc.font('Helvetica').fontSize(CHROME_SIZE);
    this.cellAt(page, LEFT, WIDTH, true, FOOTER_Y);
  }

  private period(): string {
    return `${lagosMinute(this.statement.from)} to ${lagosMinute(this.statement.to)}`;
  }

  private cells(cells: readonly string[], font: 'Helvetica' | 'Helvetica-Bold'): void {
    this.doc.font(font).fontSize(FONT_SIZE);
    let x = LEFT;
    COLUMNS.forEach((column, index) => {
      this.cellAt(cells[index] ?? '', x, column.width, column.right === true);
      x += column.width + GUTTER;
    });
    this.y += ROW;
  }

  /** One line of text in a box: cut to fit (with "..."), left or right aligned, never wrapped. */
  private cellAt(text: string, x: number, width: number, right: boolean, y = this.y): void {
    const fitted = fit(this.doc, latin1(text), width);
    const at = right ? x + width - this.doc.widthOfString(fitted) : x;
    this.doc.text(fitted, at, y, { lineBreak: false });
  }
}

/** A font pdfkit has loaded: its name in a page's resources, and its object in the file. */
interface PdfFont {
  readonly id: string;
  ref(): unknown;
}

interface RepeatedChrome {
  readonly regular: PdfFont;
  readonly bold: PdfFont;
  readonly ops: string;
}

function fontOf(doc: PDFKit.PDFDocument): PdfFont {
  return (doc as unknown as { _font: PdfFont })._font;
}

/**
 * PDF text operators for single lines at pdfkit's positions (x, and the top of the line as
 * `text()` takes it): the baseline is the top plus the font's ascender, and the coordinates are
 * flipped back from pdfkit's page transform, as `text()` itself writes them.
 */
function textOps(
  fontId: string,
  size: number,
  lines: readonly { x: number; top: number; text: string }[],
): string {
  let ops = `q 1 0 0 -1 0 ${PAGE_HEIGHT} cm BT /${fontId} ${size} Tf`;
  for (const line of lines) {
    const baseline = (PAGE_HEIGHT - line.top - size * HELVETICA_ASCENT).toFixed(3);
    ops += ` 1 0 0 1 ${line.x.toFixed(3)} ${baseline} Tm (${pdfLiteral(line.text)}) Tj`;
  }
  return `${ops} ET Q\n`;
}

/** Where each column starts. */
const COLUMN_LEFT = COLUMNS.map((_, index) =>
  COLUMNS.slice(0, index).reduce((x, column) => x + column.width + GUTTER, LEFT),
);
/** Where each left-aligned column's text starts, as written in the operators. */
const COLUMN_X = COLUMN_LEFT.map((x) => Buffer.from(x.toFixed(3), 'latin1'));

/** The pieces of a row's operators around its numbers and cells, as bytes made once. */
const MATRIX = Buffer.from(' 1 0 0 1 ', 'latin1');
const SHOW = Buffer.from(') Tj', 'latin1');
const ROW_END = Buffer.from(' ET Q\n', 'latin1');
/**
 * The most a row's operators take besides its cells' characters (each at most two bytes,
 * escaped): the start, and per cell its numbers, operators and a cut's "...".
 */
const ROW_OPERATOR_BYTES = 512;

/** Where a cell that starts at `from` ends: the next cell separator, else the line's end. */
function cellEnd(text: string, from: number, end: number): number {
  if (from >= end) {
    return end;
  }
  const at = text.indexOf(CELL_SEPARATOR, from);
  return at < 0 || at > end ? end : at;
}

/** Right-aligned cells' x by column and text width (in font units): a few dozen of each. */
const rightXs = COLUMNS.map(() => new Map<number, Buffer>());

/** The x a right-aligned cell of `units` width starts at in column `index`, as written. */
function rightX(index: number, units: number): Buffer {
  const known = rightXs[index] as Map<number, Buffer>;
  let bytes = known.get(units);
  if (bytes === undefined) {
    const column = COLUMNS[index] as Column;
    const x = (COLUMN_LEFT[index] as number) + column.width - units * (FONT_SIZE / 1000);
    bytes = Buffer.from(x.toFixed(3), 'latin1');
    known.set(units, bytes);
  }
  return bytes;
}

const baselines = new Map<number, Buffer>();

/**
 * ` <baseline> Tm (`: the y of a line whose top is `top` and the operators around it, for rows.
 * Rows sit at a few dozen tops, so each is written once per process.
 */
function baselineAt(top: number, size: number): Buffer {
  const key = top * 100 + size;
  let bytes = baselines.get(key);
  if (bytes === undefined) {
    const text = ` ${(PAGE_HEIGHT - top - size * HELVETICA_ASCENT).toFixed(3)} Tm (`;
    bytes = Buffer.from(text, 'latin1');
    baselines.set(key, bytes);
  }
  return bytes;
}

let helvetica: FontMetrics | undefined;

/** Helvetica's metrics, read once per process through pdfkit (at size 1000: whole units). */
function helveticaMetrics(doc: PDFKit.PDFDocument): FontMetrics {
  if (helvetica === undefined) {
    doc.font('Helvetica').fontSize(1000);
    helvetica = new FontMetrics((text) => doc.widthOfString(text));
  }
  return helvetica;
}

function fit(doc: PDFKit.PDFDocument, text: string, width: number): string {
  if (doc.widthOfString(text) <= width) {
    return text;
  }
  let kept = text.length;
  while (kept > 0 && doc.widthOfString(`${text.slice(0, kept)}...`) > width) {
    kept -= 1;
  }
  return `${text.slice(0, kept)}...`;
}

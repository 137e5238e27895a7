/**
 * Text for a statement's rows: what the standard fonts can write (Latin-1), measured and cut
 * to fit its column without pdfkit's per-call measure, which builds a glyph array and a string
 * key for every pair of characters: a million rows of seven cells spent most of their time
 * and much of their garbage there.
 */

/** The standard PDF fonts write Latin-1; anything else shows as "?" (the CSV keeps it whole). */
export function latin1(text: string): string {
  // Tested first: most text is Latin-1 already, and then nothing new is made.
  return NOT_LATIN1.test(text) ? text.replace(NOT_LATIN1_ALL, '?') : text;
}

const NOT_LATIN1 = /[^\x20-\x7E\xA0-\xFF]/;
const NOT_LATIN1_ALL = /[^\x20-\x7E\xA0-\xFF]/g;

/**
 * Latin-1 text as a PDF literal string's content: its parentheses and backslashes escaped
 * (WinAnsi, the standard fonts' encoding, agrees with Latin-1 on every character latin1() keeps).
 */
export function pdfLiteral(text: string): string {
  return /[()\\]/.test(text) ? text.replace(/[()\\]/g, '\\$&') : text;
}

const ELLIPSIS = '...';
/** The characters latin1() keeps: a font's table covers these. */
const CODES = 256;

/** What a font measures text with: pdfkit's `widthOfString` at the document's current size. */
export type MeasureAtThousand = (text: string) => number;

/**
 * A standard font's advance widths and kerning pairs in its own units (a thousandth of the
 * size), read once through pdfkit's own measure at size 1000, so widths here are the ones
 * pdfkit gives (whole units, summed in any order to the same number).
 */
export class FontMetrics {
  private readonly widths = new Float64Array(CODES);
  private readonly kerns = new Float64Array(CODES * CODES);

  constructor(measure: MeasureAtThousand) {
    const codes: number[] = [];
    for (let code = 0x20; code < CODES; code += 1) {
      if (code <= 0x7e || code >= 0xa0) {
        codes.push(code);
        this.widths[code] = measure(String.fromCharCode(code));
      }
    }
    for (const left of codes) {
      for (const right of codes) {
        const pair = String.fromCharCode(left, right);
        this.kerns[left * CODES + right] =
          measure(pair) - (this.widths[left] ?? 0) - (this.widths[right] ?? 0);
      }
    }
  }

  /** Width of latin1() text at `size`, as pdfkit's `widthOfString` answers it. */
  width(text: string, size: number): number {
    return this.units(text, text.length) * (size / 1000);
  }

  /** The text whole when it fits `width`, else cut with "..." to the longest start that fits. */
  fit(text: string, size: number, width: number): string {
    const scale = size / 1000;
    if (this.units(text, text.length) * scale <= width) {
      return text;
    }
    const dot = ELLIPSIS.charCodeAt(0);
    const ellipsis = this.units(ELLIPSIS, ELLIPSIS.length);
    let kept = 0;
    let prefix = 0;
    for (let length = 1; length <= text.length; length += 1) {
      const last = text.charCodeAt(length - 1);
      prefix +=
        (this.widths[last] ?? 0) + (length > 1 ? this.kern(text.charCodeAt(length - 2), last) : 0);
      if ((prefix + this.kern(last, dot) + ellipsis) * scale <= width) {
        kept = length;
      }
    }
    return `${text.slice(0, kept)}${ELLIPSIS}`;
  }

  /** Units of the first `length` characters: advances, and the kerning between neighbours. */
  private units(text: string, length: number): number {
    let units = 0;
    for (let index = 0; index < length; index += 1) {
      const code = text.charCodeAt(index);
      units += this.widths[code] ?? 0;
      if (index + 1 < length) {
        units += this.kern(code, text.charCodeAt(index + 1));
      }
    }
    return units;
  }

  private kern(left: number, right: number): number {
    return left < CODES && right < CODES ? (this.kerns[left * CODES + right] ?? 0) : 0;
  }
}

/**
 * A page's content operators written straight into bytes (Latin-1, as the PDF's text is by
 * then): a statement's rows are pieces appended here, not strings joined. Joining them made
 * about 2.6 KB of garbage a row (docs/benchmarks.md), which V8 promoted faster than it
 * collected it. Grows by doubling when a page needs more (a page of rows is ~30 KB).
 */
export class LatinContent {
  private bytes = Buffer.allocUnsafe(64 * 1024);
  private length = 0;

  append(text: string): void {
    if (this.length + text.length > this.bytes.length) {
      const larger = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.length + text.length));
      this.bytes.copy(larger, 0, 0, this.length);
      this.bytes = larger;
    }
    this.length += this.bytes.write(text, this.length, 'latin1');
  }

  get empty(): boolean {
    return this.length === 0;
  }

  /** What was appended since the last take, as a buffer of its own; then empty again. */
  take(): Buffer {
    const taken = Buffer.from(this.bytes.subarray(0, this.length));
    this.length = 0;
    return taken;
  }
}

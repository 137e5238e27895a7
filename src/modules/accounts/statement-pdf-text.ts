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

/** The character latin1() writes for a UTF-16 unit: itself when Latin-1 text, else "?". */
export function latinCode(unit: number): number {
  return (unit >= 0x20 && unit <= 0x7e) || (unit >= 0xa0 && unit <= 0xff) ? unit : QUESTION_MARK;
}

const QUESTION_MARK = 0x3f;
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

  /**
   * The units of `text` from `start` to `end` as latin1() writes it (a character it does not
   * keep measures as "?"): what width() answers times 1000 / size, without a string made.
   */
  rangeUnits(text: string, start: number, end: number): number {
    let units = 0;
    for (let index = start; index < end; index += 1) {
      const code = latinCode(text.charCodeAt(index));
      units += this.widths[code] ?? 0;
      if (index + 1 < end) {
        units += this.kern(code, latinCode(text.charCodeAt(index + 1)));
      }
    }
    return units;
  }

  /**
   * For a cell that does not fit `width` whole: how many characters of `text` from `start` to
   * `end` to keep before "...", the longest start that fits with it, found without strings.
   */
  cutLength(text: string, start: number, end: number, size: number, width: number): number {
    const scale = size / 1000;
    const dot = ELLIPSIS.charCodeAt(0);
    const ellipsis = this.units(ELLIPSIS, ELLIPSIS.length);
    let kept = 0;
    let prefix = 0;
    let previous = 0;
    for (let length = 1; length <= end - start; length += 1) {
      const last = latinCode(text.charCodeAt(start + length - 1));
      prefix += (this.widths[last] ?? 0) + (length > 1 ? this.kern(previous, last) : 0);
      if ((prefix + this.kern(last, dot) + ellipsis) * scale <= width) {
        kept = length;
      }
      previous = last;
    }
    return kept;
  }

  /** The units of the first `kept` characters of `text` from `start`, then "...". */
  cutUnits(text: string, start: number, kept: number): number {
    const ellipsis = this.units(ELLIPSIS, ELLIPSIS.length);
    if (kept === 0) {
      return ellipsis;
    }
    const last = latinCode(text.charCodeAt(start + kept - 1));
    return (
      this.rangeUnits(text, start, start + kept) +
      this.kern(last, ELLIPSIS.charCodeAt(0)) +
      ellipsis
    );
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
    this.reserve(text.length);
    this.length += this.bytes.write(text, this.length, 'latin1');
  }

  /** Room for `more` bytes: the appends that follow, up to that many, need not check. */
  reserve(more: number): void {
    if (this.length + more > this.bytes.length) {
      const larger = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.length + more));
      this.bytes.copy(larger, 0, 0, this.length);
      this.bytes = larger;
    }
  }

  /** Bytes made once (operators, numbers), after reserve(). */
  appendBytes(bytes: Uint8Array): void {
    this.bytes.set(bytes, this.length);
    this.length += bytes.length;
  }

  /**
   * What pdfLiteral(latin1()) writes for `text` from `start`, `length` characters, then "..."
   * when `cut`: the characters go one by one into the bytes, so a row's cell makes no string
   * (reserve twice the length, for the escapes, and three). The whole row's bytes were the
   * export's garbage (docs/benchmarks.md).
   */
  appendLiteral(text: string, start: number, length: number, cut: boolean): void {
    const bytes = this.bytes;
    let at = this.length;
    for (let index = start; index < start + length; index += 1) {
      const code = latinCode(text.charCodeAt(index));
      if (code === 0x28 || code === 0x29 || code === 0x5c) {
        bytes[at] = 0x5c;
        at += 1;
      }
      bytes[at] = code;
      at += 1;
    }
    if (cut) {
      bytes[at] = 0x2e;
      bytes[at + 1] = 0x2e;
      bytes[at + 2] = 0x2e;
      at += 3;
    }
    this.length = at;
  }

  get empty(): boolean {
    return this.length === 0;
  }

  /**
   * What was appended since the last take; then empty again. A view of these bytes, not a
   * copy: valid until the next append, so its reader must be done with it by then (pdfkit
   * copies a page's content when the page ends, before the next page's rows are appended).
   * A copy a page was 30 KB outside V8's heap that only a collection let go of.
   */
  take(): Buffer {
    const taken = this.bytes.subarray(0, this.length);
    this.length = 0;
    return taken;
  }
}

/**
 * A PDF's text as a reader sees it, page by page and line by line, extracted with pdfjs-dist
 * (Mozilla's PDF reader): tests read what a statement shows, not how it was drawn.
 */
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** Each page's lines, top to bottom; a line's pieces left to right, joined by a space. */
export async function pdfLines(bytes: Uint8Array): Promise<string[][]> {
  const pdf = await getDocument({
    data: new Uint8Array(bytes),
    useSystemFonts: false,
    isEvalSupported: false,
    verbosity: 0,
  }).promise;
  const pages: string[][] = [];
  for (let number = 1; number <= pdf.numPages; number += 1) {
    const content = await (await pdf.getPage(number)).getTextContent();
    const rows = new Map<number, { x: number; text: string }[]>();
    for (const item of content.items) {
      if ('str' in item && item.str.trim() !== '') {
        const y = Math.round(item.transform[5] as number);
        rows.set(y, [...(rows.get(y) ?? []), { x: item.transform[4] as number, text: item.str }]);
      }
    }
    pages.push(
      [...rows.entries()]
        .sort(([top], [bottom]) => bottom - top)
        .map(([, pieces]) =>
          pieces
            .sort((left, right) => left.x - right.x)
            .map((piece) => piece.text.trim())
            .join(' '),
        ),
    );
  }
  await pdf.destroy();
  return pages;
}

/** The totals block a statement PDF ends with, in naira, from its lines. */
export function statementTotals(lines: readonly string[]) {
  const amount = (label: RegExp) => {
    const line = lines.find((text) => label.test(text)) ?? '';
    return Number((line.split(' ').at(-1) ?? '').replaceAll(',', ''));
  };
  return {
    opening: amount(/^Opening balance \d/),
    credits: amount(/^Total credits \(\d+\)/),
    debits: amount(/^Total debits \(\d+\)/),
    closing: amount(/^Closing balance /),
  };
}

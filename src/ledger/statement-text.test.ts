import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { koboToNairaText } from '../shared/money.ts';

/**
 * The statement text PostgreSQL writes for exports (ledger_naira_text, ledger_csv_cell): the
 * same text as the TypeScript that writes the JSON and the PDF, on hostile values too.
 */
describe('statement text written by the ledger', () => {
  let testDb: TestDb;
  before(async () => {
    testDb = await createTestDb();
  });
  after(() => testDb.close());

  async function one(sql: string, params: unknown[]): Promise<string> {
    const rows = await testDb.db.query<{ text: string }>(sql, params as never[]);
    return rows[0]?.text ?? '';
  }

  it('writes kobo as koboToNairaText does, grouped and not', async () => {
    const amounts = [
      0n,
      5n,
      99n,
      100n,
      1_234_50n,
      -1n,
      -100_000_00n,
      123_456_789_012n,
      9_007_199_254_740_993n,
    ];
    for (const kobo of amounts) {
      for (const grouped of [false, true]) {
        assert.equal(
          await one('SELECT ledger_naira_text($1, $2) AS text', [kobo, grouped]),
          koboToNairaText(kobo, { grouped }),
          `${kobo} grouped ${grouped}`,
        );
      }
    }
  });

  it('quotes formulas and RFC 4180 specials in CSV cells, and leaves our numbers alone', async () => {
    const cells: [string, string][] = [
      ['plain', 'plain'],
      ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
      ['+1', "'+1"],
      ['-2+3', "'-2+3"],
      ['@SUM(A1)', "'@SUM(A1)"],
      ['\tTAB', "'\tTAB"],
      ['\rCR', `"'\rCR"`],
      ['-12.50', '-12.50'],
      ['7', '7'],
      ['a,b', '"a,b"'],
      ['say "hi"', '"say ""hi"""'],
      ['two\nlines', '"two\nlines"'],
      ['', ''],
      ['Ọ̀rẹ́ ₦ 中文', 'Ọ̀rẹ́ ₦ 中文'],
    ];
    for (const [value, expected] of cells) {
      assert.equal(await one('SELECT ledger_csv_cell($1) AS text', [value]), expected, value);
    }
  });
});

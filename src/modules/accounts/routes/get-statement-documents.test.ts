/**
 * GET /accounts/:id/statement as documents: format=pdf|csv (or the Accept header) streams every
 * entry of a range, oldest first, with the balances either side; the JSON page stays as it was.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { adminHeaders, sandboxCredit, sendTransfer } from '../../../../test/factories.ts';
import { pdfLines, statementTotals } from '../../../../test/pdf-text.ts';
import {
  describeAuthGuards,
  describeRecordIsolation,
  useRouteContext,
} from '../../../../test/shared-route-tests.ts';
import { lagosDay } from '../../../shared/lagos-time.ts';

interface Row {
  entryNumber: number;
  type: string;
  amount: number;
  balanceAfter: number;
  narration: string;
  reference: string | null;
  transferId: string | null;
  journalId: string;
  createdAt: string;
}

const FORMULAS = ['=1+2', '@SUM(A1:A9)', '+234 80', '-2+3', '\tTabbed', 'Pay, "Ada"\nnext line'];
const CREDITS = 124;
const TRANSFERS = 4;
/** 5 early credits, the formula credits, 124 credits and 4 transfers of three lines each. */
const ENTRIES = 5 + FORMULAS.length + CREDITS + TRANSFERS * 3;

describe('GET /accounts/:id/statement: PDF and CSV documents', () => {
  const context = useRouteContext();
  const get = (query: string, headers: Record<string, string> = {}, id?: string) =>
    context().testApp.app.inject({
      method: 'GET',
      url: `/accounts/${id ?? context().ownAccountId}/statement${query}`,
      headers: { ...context().headers, ...headers },
    });
  let rows: Row[] = [];

  // 1 March 23:30 UTC is already 2 March in Lagos: five credits then; the rest on 2 March.
  before(async () => {
    const { testApp, headers, ownAccountId } = context();
    const account = await testApp.app.inject({
      method: 'GET',
      url: `/accounts/${ownAccountId}`,
      headers,
    });
    const accountNumber: string = account.json().data.accountNumber;
    const issuedAt = testApp.clock.now();
    testApp.clock.set(new Date('2026-03-01T23:30:00.000Z'));
    for (let credit = 0; credit < 5; credit += 1) {
      await sandboxCredit(testApp.app, accountNumber, 1000);
    }
    testApp.clock.set(new Date('2026-03-02T10:00:00.000Z'));
    for (const narration of FORMULAS) {
      await testApp.app.inject({
        method: 'POST',
        url: '/admin/sandbox/credits',
        headers: adminHeaders,
        payload: { accountNumber, amount: 1.5, narration },
      });
    }
    for (let credit = 1; credit <= CREDITS; credit += 1) {
      testApp.clock.advanceSeconds(30);
      await sandboxCredit(testApp.app, accountNumber, credit + 0.25);
    }
    // Back to when the test tokens were issued (still valid then): the payouts are dated now.
    testApp.clock.set(issuedAt);
    for (let sent = 1; sent <= TRANSFERS; sent += 1) {
      await sendTransfer(testApp.app, headers, {
        debitAccountNumber: accountNumber,
        amount: 100,
        narration: `Payout ${sent}`,
        paymentReference: `STMT-PAYOUT-${sent}`,
      });
    }
    const pages = await Promise.all([0, 1].map((page) => get(`?limit=100&page=${page}`)));
    rows = pages.flatMap((page) => page.json().data as Row[]).reverse();
    assert.equal(rows.length, ENTRIES);
  });

  describe('200: a PDF with every entry, its balances and page numbers', () => {
    it('shows opening + credits − debits = closing, and every entry of its 3 pages', async () => {
      const response = await get('?format=pdf');
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.headers['content-type'], 'application/pdf');
      assert.match(
        String(response.headers['content-disposition']),
        /^attachment; filename="statement-\d{10}-.+\.pdf"$/,
      );
      assert.equal(response.headers['cache-control'], 'no-store');
      const pages = await pdfLines(response.rawPayload);
      assert.equal(pages.length, 3);
      assert.deepEqual(
        pages.map((lines) => lines.at(-1)),
        ['Page 1 of 3', 'Page 2 of 3', 'Page 3 of 3'],
      );
      const text = pages.flat();
      assert.equal(text[0], 'Safe Haven Sandbox Bank');
      assert.ok(text.some((line) => line.startsWith('Account number: ')));
      const amounts = statementTotals(text);
      assert.equal(amounts.opening, 0);
      assert.equal(
        Math.round((amounts.opening + amounts.credits - amounts.debits) * 100),
        Math.round(amounts.closing * 100),
      );
      assert.equal(amounts.closing, rows.at(-1)?.balanceAfter);
      const printed = text.filter((line) => /^\d+ \d{4}-\d\d-\d\d \d\d:\d\d /.test(line));
      assert.deepEqual(
        printed.map((line) => Number(line.split(' ')[0])),
        rows.map((row) => row.entryNumber),
      );
      printed.forEach((line, index) => {
        assert.ok(line.endsWith(` ${money(rows[index]?.balanceAfter ?? -1)}`), line);
      });
    });

    it('starts a range with the balance before it, in Lagos days', async () => {
      const response = await get('?format=pdf&fromDate=2026-03-02T10:00:00Z&toDate=2026-03-02');
      const text = (await pdfLines(response.rawPayload)).flat();
      const amounts = statementTotals(text);
      assert.equal(amounts.opening, 5000);
      assert.ok(text.some((line) => line.includes('Period: 2026-03-02 11:00 to 2026-03-02 23:59')));
      assert.equal(
        Math.round((amounts.opening + amounts.credits - amounts.debits) * 100),
        Math.round(amounts.closing * 100),
      );
    });

    it('an empty range is one page: opening and closing the same, no entries', async () => {
      const response = await get('?format=pdf&fromDate=2026-01-01&toDate=2026-01-31');
      const pages = await pdfLines(response.rawPayload);
      assert.equal(pages.length, 1);
      const amounts = statementTotals(pages.flat());
      assert.deepEqual([amounts.credits, amounts.debits, amounts.closing], [0, 0, 0]);
    });
  });

  describe('200: a CSV that parses back to the entries', () => {
    it('has a header row, then one row per entry, oldest first, as the JSON rows say', async () => {
      const response = await get('?format=csv');
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.headers['content-type'], 'text/csv; charset=utf-8; header=present');
      const [header, ...lines] = parseCsv(response.body);
      assert.deepEqual(header, [
        'entryNumber',
        'date',
        'type',
        'amount',
        'balanceAfter',
        'narration',
        'reference',
        'transferId',
        'journalId',
      ]);
      assert.deepEqual(
        lines.map((cells) => ({
          entryNumber: Number(cells[0]),
          createdAt: new Date(cells[1] ?? '').toISOString(),
          type: cells[2],
          amount: Number(cells[3]),
          balanceAfter: Number(cells[4]),
          narration: unquoteFormula(cells[5] ?? ''),
          reference: cells[6] || null,
          transferId: cells[7] || null,
          journalId: cells[8],
        })),
        rows,
      );
      assert.match(lines[0]?.[1] ?? '', /^2026-03-02T00:30:00\.000\+01:00$/);
      assert.match(lines[0]?.[3] ?? '', /^1000\.00$/);
    });

    it('neutralises every cell a spreadsheet would run as a formula', async () => {
      const lines = parseCsv((await get('?format=csv')).body);
      const narrations = lines.map((cells) => cells[5]);
      for (const narration of FORMULAS) {
        const expected = /^[=+\-@\t]/.test(narration) ? `'${narration}` : narration;
        assert.ok(
          narrations.includes(expected),
          `${JSON.stringify(narration)} as ${JSON.stringify(expected)}`,
        );
      }
    });

    it('counts Lagos days: 2 March includes the credits of 23:30 UTC on 1 March', async () => {
      const lines = parseCsv((await get('?format=csv&fromDate=2026-03-02&toDate=2026-03-02')).body);
      const onTheDay = rows.filter((row) => lagosDay(new Date(row.createdAt)) === '2026-03-02');
      assert.ok(onTheDay.length >= ENTRIES - TRANSFERS * 3);
      assert.equal(lines.length - 1, onTheDay.length);
      const before = parseCsv((await get('?format=csv&toDate=2026-03-01')).body);
      assert.equal(before.length, 1);
    });
  });

  describe('content negotiation: format wins, then Accept; JSON otherwise', () => {
    for (const [accept, type] of [
      ['application/pdf', 'application/pdf'],
      ['text/csv', 'text/csv; charset=utf-8; header=present'],
      ['application/json;q=0.5, text/csv', 'text/csv; charset=utf-8; header=present'],
      ['*/*', 'application/json; charset=utf-8'],
      ['application/json', 'application/json; charset=utf-8'],
      ['text/html, application/xhtml+xml', 'application/json; charset=utf-8'],
    ]) {
      it(`Accept: ${accept} answers ${type}`, async () => {
        const response = await get('', { accept: accept ?? '' });
        assert.equal(response.statusCode, 200, response.body);
        assert.equal(response.headers['content-type'], type);
      });
    }

    it('format=json answers the JSON page whatever Accept says', async () => {
      const response = await get('?format=json&limit=2', { accept: 'application/pdf' });
      assert.equal(response.json().data.length, 2);
    });
  });

  describe('400: bad ranges and filters, in the error envelope', () => {
    for (const [query, code] of [
      ['?format=pdf&fromDate=2026-03-05&toDate=2026-03-01', 'INVALID_DATE_RANGE'],
      ['?format=csv&fromDate=yesterday', 'VALIDATION_ERROR'],
      ['?format=pdf&toDate=2026-13-45', 'VALIDATION_ERROR'],
      ['?format=pdf&type=Debit', 'VALIDATION_ERROR'],
      ['?format=xlsx', 'VALIDATION_ERROR'],
    ]) {
      it(`refuses ${query}`, async () => {
        const response = await get(query ?? '');
        assert.equal(response.statusCode, 400, response.body);
        assert.equal(response.json().code, code);
        assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
      });
    }
  });

  describe("another client's account: the JSON statement's answer", () => {
    it('answers as the JSON statement does, for PDF and CSV alike', async () => {
      const json = await get('', {}, context().otherAccountId);
      for (const query of ['?format=pdf', '?format=csv']) {
        const response = await get(query, {}, context().otherAccountId);
        assert.equal(response.statusCode, json.statusCode);
        assert.deepEqual(response.json(), json.json());
      }
    });
  });

  describeAuthGuards(context, (id) => ({
    method: 'GET',
    url: `/accounts/${id}/statement?format=pdf`,
  }));
  describeRecordIsolation(context, (id) => ({
    method: 'GET',
    url: `/accounts/${id}/statement?format=csv`,
  }));
});

const money = (naira: number) =>
  naira.toLocaleString('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** The quote a formula cell was given, taken off again (what the spreadsheet shows). */
function unquoteFormula(cell: string): string {
  return /^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
}

/** RFC 4180 as csv-parse reads it: CRLF rows only, quoted cells with doubled quotes and breaks. */
function parseCsv(text: string): string[][] {
  return parse(text, { record_delimiter: '\r\n' });
}

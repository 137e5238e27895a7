/**
 * A client's bulk batches with their progress, and the sandbox's CSV upload: a valid file
 * becomes a batch (once, however often it is sent); a hostile one is refused on the page and
 * sends nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminAnswer, column, DashboardBrowser } from '../../../test/dashboard-browser.ts';
import { sandboxCredit, signedInClient } from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';

describe('dashboard: bulk transfers', () => {
  let testApp: TestApp;
  let browser: DashboardBrowser;
  let base: string;
  let from: string;
  let to: string;
  let listUrl: string;

  before(async () => {
    testApp = await buildTestApp();
    const payer = await signedInClient(testApp, 'Payroll Ltd', 0);
    const payee = await signedInClient(testApp, 'Payee Ltd', 1);
    from = payer.client.mainAccountNumber;
    to = payee.client.mainAccountNumber;
    base = `/dashboard/clients/${payer.client.ibsClientId}`;
    listUrl = `/admin/clients/${payer.client.ibsClientId}/bulk-transfers`;
    await sandboxCredit(testApp.app, from, 10_000);
    browser = new DashboardBrowser(testApp.app);
    await browser.signIn('ada');
  });
  after(async () => testApp?.close());

  const header =
    'debitAccountNumber,beneficiaryBankCode,beneficiaryAccountNumber,amount,paymentReference,narration';
  const upload = async (csv: string, extra: Record<string, string> = {}) => {
    await browser.get(`${base}/bulk-transfers`);
    const sent = await browser.post(`${base}/bulk-transfers/upload`, { csv, ...extra });
    assert.equal(sent.statusCode, 303, sent.body);
    return browser.get(`${base}/bulk-transfers`);
  };

  it('sends a CSV file as a batch, once, and lists it with its progress', async () => {
    const csv = [
      header,
      `${from},999240,${to},"1,500.50",CSV-1,"Salary, March"`,
      `${from},999240,${to},20,CSV-2,`,
      `${from},999240,${to},20,CSV-2,twice`,
    ].join('\r\n');
    const page = await upload(csv);
    assert.match(page.body, /notice-success[^>]*>[^<]*2 to place, 1 refused/);
    await upload(csv);
    const batches = (await adminAnswer(testApp.app, listUrl)).data;
    assert.equal(batches.length, 1, 'the same file twice is one batch');
    assert.deepEqual(column(page.body, 'Pending'), ['2']);
    assert.deepEqual(column(page.body, 'Status'), ['Processing']);
    assert.match(page.body, /<progress max="3" value="1">/);
    assert.match(page.body, /data-live="[^"]*fragment=1/);
  });

  it('refuses hostile files on the page and sends nothing', async () => {
    const before = (await adminAnswer(testApp.app, listUrl)).data.length;
    const hostile: [string, RegExp][] = [
      [`${header}\n${from},999240,${to},10,=HYPERLINK("x"),`, /starts like a formula/],
      [`${header}\n${from},999240,${to},10,@SUM(A1),`, /starts like a formula/],
      [`${header}\n${from},999240,${to},10,REF\u0007,`, /control character/],
      [`${header}\n${from},999240,${to},10,${'R'.repeat(101)},`, /too long/],
      [`${header}\n${from},999240,${to},-10,NEG,`, /starts like a formula/],
      [`${header}\n${from},999240,${to},1e3,EXP,`, /at most two decimals/],
      [`${header}\n${from},999240,${to},10,X,y,extra`, /7 cells, the header names 6/],
      [`${header}\n${from},999240,${to},10,"never closed`, /never closed/],
      [`${header},isAdmin\n${from},999240,${to},10,X,,true`, /header row must name/],
      ['debitAccountNumber,amount\n1,2', /header row must name/],
      [header, /1 to 1000 rows/],
      [`${header}\n${`${from},999240,${to},1,R,\n`.repeat(20000)}`, /larger than 512 KiB/],
    ];
    for (const [csv, problem] of hostile) {
      const page = await upload(csv);
      assert.match(page.body, /notice-error/, csv.slice(0, 80));
      assert.match(page.body, problem, csv.slice(0, 80));
    }
    assert.equal((await adminAnswer(testApp.app, listUrl)).data.length, before);
  });

  it('shows what the bank refuses, and an allOrNothing batch refused whole', async () => {
    const page = await upload(`${header}\n${from},999240,${to},99999,BIG,`, {
      allOrNothing: 'on',
    });
    assert.match(page.body, /notice-error[^>]*>[^<]*\(HTTP 402\)/);
  });

  it('escapes what it shows', async () => {
    const page = await upload(`${header}\n${from},999240,${to},10,<script>,`);
    assert.equal(page.body.includes('<script>,'), false);
  });
});

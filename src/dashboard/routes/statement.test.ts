/**
 * An account's statement: its lines with the running balance as the admin API answers them,
 * filtered by type, a page at a time, and its dates as PDF and CSV downloads.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminAnswer, column, DashboardBrowser } from '../../../test/dashboard-browser.ts';
import { adminHeaders, sendTransfer, signedInClient } from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';
import { pdfLines } from '../../../test/pdf-text.ts';
import { naira } from '../components.ts';

describe('dashboard: account statement', () => {
  let testApp: TestApp;
  let browser: DashboardBrowser;
  let signedIn: Awaited<ReturnType<typeof signedInClient>>;
  let path: string;

  before(async () => {
    testApp = await buildTestApp();
    signedIn = await signedInClient(testApp, 'Paystack Demo');
    const { client } = signedIn;
    path = `/dashboard/clients/${client.ibsClientId}/accounts/${client.mainAccountId}/statement`;
    await testApp.app.inject({
      method: 'POST',
      url: '/admin/sandbox/credits',
      headers: adminHeaders,
      payload: {
        accountNumber: client.mainAccountNumber,
        amount: 2500.75,
        narration: '=1+2 Invoice 7',
      },
    });
    // Seven NIP transfers: each is three lines (the amount, the fee, its VAT); 22 lines in all.
    for (let sent = 1; sent <= 7; sent += 1) {
      testApp.clock.advanceSeconds(1);
      await sendTransfer(testApp.app, signedIn.headers, {
        debitAccountNumber: client.mainAccountNumber,
        amount: 10,
        narration: `Payout ${sent}`,
        paymentReference: `PAYOUT-${sent}`,
      });
    }
    browser = new DashboardBrowser(testApp.app);
    await browser.signIn('olu');
  });
  after(async () => testApp?.close());

  it('shows the lines with their running balance as the admin API answers them', async () => {
    const page = await browser.get(path);
    assert.equal(page.statusCode, 200, page.body);
    const { client } = signedIn;
    const lines = (
      await adminAnswer(
        testApp.app,
        `/admin/clients/${client.ibsClientId}/accounts/${client.mainAccountId}/statement?page=0&limit=20`,
      )
    ).data;
    type Line = { narration: string; amount: number; balanceAfter: number };
    assert.deepEqual(
      column(page.body, 'Narration'),
      lines.map((line: Line) => line.narration),
    );
    assert.deepEqual(
      column(page.body, 'Amount'),
      lines.map((line: Line) => naira(line.amount)),
    );
    assert.deepEqual(
      column(page.body, 'Balance after'),
      lines.map((line: Line) => naira(line.balanceAfter)),
    );
    assert.ok(column(page.body, 'Narration').includes('Payout 7'));
    assert.match(page.body, /Page 1 of 2 \(22 in all\)/);
    const last = await browser.get(`${path}?page=1`);
    assert.deepEqual(column(last.body, 'Narration').slice(-2), ['Payout 1', '=1+2 Invoice 7']);
  });

  it('filters by type and links a line to its transfer’s story', async () => {
    const credits = await browser.get(`${path}?type=Credit`);
    assert.deepEqual(column(credits.body, 'Narration'), ['=1+2 Invoice 7']);
    assert.deepEqual(column(credits.body, 'Amount'), ['₦2,500.75']);
    const debits = await browser.get(`${path}?type=Debit`);
    assert.equal(column(debits.body, 'Narration').length, 20);
    assert.match(debits.body, /href="\/dashboard\/clients\/[^/]+\/transfers\/[^"]+">story</);
  });

  it('links the dates to a PDF and a CSV download, the type filter left out', async () => {
    const page = await browser.get(`${path}?fromDate=2026-01-01&type=Credit`);
    assert.match(
      page.body,
      /href="[^"]+\/statement\.pdf\?fromDate=2026-01-01" download>Download PDF</,
    );
    assert.match(
      page.body,
      /href="[^"]+\/statement\.csv\?fromDate=2026-01-01" download>Download CSV</,
    );
  });

  it('downloads the statement as a PDF, streamed from the admin API', async () => {
    const pdf = await browser.get(`${path}.pdf`);
    assert.equal(pdf.statusCode, 200);
    assert.equal(pdf.headers['content-type'], 'application/pdf');
    assert.match(
      String(pdf.headers['content-disposition']),
      /attachment; filename="statement-\d{10}-/,
    );
    const text = (await pdfLines(pdf.rawPayload)).flat();
    assert.ok(text.includes('Page 1 of 1'), text.join('\n'));
    assert.ok(text.some((line) => line.startsWith('Closing balance ')));
    assert.ok(text.some((line) => line.includes('Payout 7')));
  });

  it('downloads the statement as CSV, quoting a cell that starts like a formula', async () => {
    const csv = await browser.get(`${path}.csv`);
    assert.equal(csv.statusCode, 200);
    assert.match(String(csv.headers['content-type']), /text\/csv/);
    assert.match(String(csv.headers['content-disposition']), /attachment; filename="statement-/);
    const lines = csv.body.trim().split('\r\n');
    assert.equal(
      lines[0],
      'entryNumber,date,type,amount,balanceAfter,narration,reference,transferId,journalId',
    );
    assert.equal(lines.length, 1 + 22);
    assert.ok(lines[1]?.includes(",Credit,2500.75,2500.75,'=1+2 Invoice 7,"), csv.body);
  });

  it('another client’s account is an error page', async () => {
    const other = await signedInClient(testApp, 'Someone Else', 3);
    const page = await browser.get(
      `/dashboard/clients/${signedIn.client.ibsClientId}/accounts/${other.client.mainAccountId}/statement`,
    );
    assert.equal(page.statusCode, 400);
    assert.match(page.body, /notice-error/);
  });
});

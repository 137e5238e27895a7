// The installed package runs a bundle (docs/adr/0004-the-package-runs-a-bundle.md); pdfkit
// loads its font metrics from its own folder at run time, so it stays outside the bundle
// (scripts/build.js). This asks the packed sandbox for a PDF and a CSV statement.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startSandbox } from 'openibs/testing';

const FIXTURES = fileURLToPath(new URL('./fixtures.json', import.meta.url));

describe('statement documents from the packed package', () => {
  let bank;
  let headers;
  let accountId;
  before(async () => {
    bank = await startSandbox({ fixtures: FIXTURES, logLevel: 'silent' });
    headers = await bank.client('Acme Payouts').headers();
    const accounts = await (await fetch(`${bank.url}/accounts`, { headers })).json();
    accountId = accounts.data[0]._id;
  });
  after(() => bank?.close());

  it('streams a PDF statement (pdfkit and its fonts found at run time)', async () => {
    const response = await fetch(`${bank.url}/accounts/${accountId}/statement?format=pdf`, {
      headers,
    });
    assert.equal(response.status, 200, await response.clone().text());
    assert.equal(response.headers.get('content-type'), 'application/pdf');
    const pdf = Buffer.from(await response.arrayBuffer()).toString('latin1');
    assert.ok(pdf.startsWith('%PDF-'));
    assert.ok(pdf.trimEnd().endsWith('%%EOF'));
    assert.match(pdf, /\/BaseFont \/Helvetica/);
  });

  it('streams a CSV statement', async () => {
    const response = await fetch(`${bank.url}/accounts/${accountId}/statement`, {
      headers: { ...headers, accept: 'text/csv' },
    });
    assert.equal(response.status, 200);
    const [header, first] = (await response.text()).split('\r\n');
    assert.match(header, /^entryNumber,date,type,amount,balanceAfter,/);
    assert.match(
      first,
      /^1,\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+01:00,Credit,500000\.00,500000\.00,/,
    );
  });
});

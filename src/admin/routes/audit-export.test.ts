import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { adminHeaders } from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';
import { auditRowHash } from '../../audit/audit-chain.ts';

type Row = Record<string, string | null>;

/** Each row's hash recomputed from its cells, and each linked to the one before. */
function assertChained(rows: readonly Row[]): void {
  rows.forEach((row, index) => {
    const { hash, ...fields } = row;
    assert.equal(auditRowHash(fields as never), hash, `row ${row.id}`);
    if (index > 0) {
      assert.equal(row.prevHash, rows[index - 1]?.hash, `row ${row.id} links to the one before`);
    }
  });
}

/** As an auditor reads it: NULL an unquoted empty cell, one guarding quote taken off. */
function parseCsv(text: string): Row[] {
  return parse(text, {
    columns: true,
    cast: (value, context) =>
      context.header
        ? value
        : value === '' && !context.quoting
          ? null
          : value.startsWith("'")
            ? value.slice(1)
            : value,
  }) as Row[];
}

describe('GET /admin/audit/export', () => {
  let testApp: TestApp;
  before(async () => {
    testApp = await buildTestApp({}, { clockStart: new Date('2026-03-02T09:00:00.000Z') });
    const hostile = ['=HYPERLINK("http://x")', "'quoted", '-2+3', '', '@SUM(A1)', 'a,b\r\n"c"'];
    for (const [index, label] of hostile.entries()) {
      testApp.clock.advanceSeconds(3_600);
      await testApp.services.auditLog.record({
        actor: `client:${index}`,
        action: 'webhook.settings_changed',
        target: label,
        outcome: label === '' ? 'ok' : label,
        details: { label, index },
      });
    }
  });
  after(() => testApp?.close());
  const get = (query: string, headers: Record<string, string> = adminHeaders) =>
    testApp.app.inject({ url: `/admin/audit/export${query}`, headers });

  describe('200: every row with its chain', () => {
    it('JSON: the rows oldest first, every field as hashed; the hashes recompute', async () => {
      const response = await get('');
      assert.equal(response.statusCode, 200, response.body);
      assert.match(String(response.headers['content-type']), /^application\/json/);
      assert.match(String(response.headers['content-disposition']), /audit-events\.json/);
      const rows: Row[] = response.json();
      assert.equal(rows.length, 6);
      assert.equal(rows[0]?.prevHash, '0'.repeat(64));
      assert.deepEqual(JSON.parse(rows[5]?.details ?? ''), { label: 'a,b\r\n"c"', index: 5 });
      assertChained(rows);
    });

    it('CSV: formulas neutralised, NULL told from empty text; parsed back, the hashes recompute', async () => {
      const response = await get('?format=csv');
      assert.equal(response.statusCode, 200, response.body);
      assert.match(String(response.headers['content-type']), /^text\/csv/);
      const lines = response.body.split('\r\n');
      assert.ok(
        lines[0]?.startsWith('id,at,actor,action,target,outcome,sourceIp,requestId,details'),
      );
      assert.ok(lines[1]?.includes(`,"'=HYPERLINK(""http://x"")",`), lines[1]);
      assert.ok(lines[2]?.includes(",''quoted,"), lines[2]);
      assert.ok(lines[3]?.includes(",'-2+3,"), lines[3]);
      // The empty target is `""`; the absent source IP and request id are empty cells.
      assert.ok(lines[4]?.includes(',"",ok,,,'), lines[4]);
      const rows = parseCsv(response.body);
      assert.deepEqual(
        rows.map((row) => row.target),
        ['=HYPERLINK("http://x")', "'quoted", '-2+3', '', '@SUM(A1)', 'a,b\r\n"c"'],
      );
      assert.equal(rows[3]?.sourceIp, null);
      assertChained(rows);
      assert.deepEqual(rows, (await get('?format=json')).json());
    });

    it('a range: every row between the first at or after `from` and the last at or before `to`', async () => {
      const rows: Row[] = (await get('?from=2026-03-02T11:00:00Z&to=2026-03-02T13:30:00Z')).json();
      assert.deepEqual(
        rows.map((row) => row.at),
        [
          '2026-03-02T11:00:00.000000Z',
          '2026-03-02T12:00:00.000000Z',
          '2026-03-02T13:00:00.000000Z',
        ],
      );
      assertChained(rows);
      assert.deepEqual((await get('?from=2027-01-01')).json(), []);
      assert.equal((await get('?from=2027-01-01&format=csv')).body.split('\r\n').length, 2);
    });
  });

  describe('400', () => {
    it('an unknown format, a malformed date, a reversed range', async () => {
      for (const query of ['?format=xlsx', '?from=yesterday', '?from=2026-03-03&to=2026-03-02']) {
        assert.equal((await get(query)).statusCode, 400, query);
      }
    });
  });

  describe('401', () => {
    it('without the admin token', async () => {
      assert.equal((await get('', { authorization: 'Bearer wrong' })).statusCode, 401);
    });
  });
});

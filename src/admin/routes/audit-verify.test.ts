import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminHeaders, createClient } from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';

describe('GET /admin/audit/verify', () => {
  let testApp: TestApp;
  before(async () => {
    testApp = await buildTestApp();
    // Two operator actions: four rows (started, then the answer, each).
    await createClient(testApp.app, 'Acme Ltd', 0);
    await createClient(testApp.app, 'Beta Ltd', 0);
  });
  after(() => testApp?.close());
  const verify = (query = '', headers: Record<string, string> = adminHeaders) =>
    testApp.app.inject({ url: `/admin/audit/verify${query}`, headers });

  describe('200: the chain intact', () => {
    it('answers the rows checked and the head to copy out, which a later check accepts', async () => {
      const response = await verify();
      assert.equal(response.statusCode, 200, response.body);
      const { data } = response.json();
      const [last] = await testApp.db.query<{ id: string; hash: string }>(
        'SELECT id::text, hash FROM audit_events ORDER BY audit_events.id DESC LIMIT 1',
      );
      assert.deepEqual(data, {
        ok: true,
        rows: Number(last?.id),
        head: { _id: last?.id, hash: last?.hash },
        broken: null,
      });
      const again = await verify(`?head=${data.head._id}:${data.head.hash}`);
      assert.equal(again.json().data.ok, true, again.body);
    });
  });

  describe('200: the chain broken, the row named', () => {
    it('an edited row, as a database superuser could edit it', async () => {
      await testApp.db.exec(`ALTER TABLE audit_events DISABLE TRIGGER USER;
        UPDATE audit_events SET actor = 'operator:nobody' WHERE id = 2;
        ALTER TABLE audit_events ENABLE TRIGGER USER`);
      const { data, message } = (await verify()).json();
      assert.equal(message, 'The audit chain is broken.');
      assert.deepEqual(
        { ok: data.ok, head: data.head, row: data.broken.row, kind: data.broken.kind },
        { ok: false, head: null, row: '2', kind: 'edited' },
      );
      assert.equal(data.rows, 1);
    });
  });

  describe('400: a head that is not `<id>:<hash>`', () => {
    it('refuses it before reading anything', async () => {
      for (const head of ['abc', '12', `0:${'a'.repeat(64)}`, `1:${'A'.repeat(64)}`]) {
        const response = await verify(`?head=${encodeURIComponent(head)}`);
        assert.equal(response.statusCode, 400, head);
      }
    });
  });

  describe('401', () => {
    it('without the admin token', async () => {
      assert.equal((await verify('', { authorization: 'Bearer wrong' })).statusCode, 401);
    });
  });
});

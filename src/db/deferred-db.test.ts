import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createTestDb } from '../../test/test-db.ts';
import type { Db } from './db.ts';
import { deferredDb } from './deferred-db.ts';

describe('a database opened while the app is built (deferred-db.ts)', () => {
  it('holds queries and transactions until the database is open, then runs them', async () => {
    let open: (db: Db) => void = () => undefined;
    const deferred = deferredDb('pglite', new Promise<Db>((resolve) => (open = resolve)));
    const early = deferred.query<{ answer: number }>('SELECT 42 AS answer');
    const inTransaction = deferred.transaction((tx) => tx.query('SELECT 1 AS one'));
    let settled = false;
    void early.then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(settled, false, 'nothing runs before the database is open');
    const testDb = await createTestDb();
    try {
      open(testDb.db);
      await deferred.ready;
      assert.deepEqual(await early, [{ answer: 42 }]);
      assert.deepEqual(await inTransaction, [{ one: 1 }]);
      assert.deepEqual(await deferred.query('SELECT 2 AS two'), [{ two: 2 }]);
    } finally {
      await testDb.close();
    }
  });

  it('rejects ready and every query when the database cannot be opened, never unhandled', async () => {
    const failure = new Error('the image is unreadable');
    const deferred = deferredDb('pglite', Promise.reject(failure));
    // A turn of the event loop with no one waiting: an unhandled rejection would end the test run.
    await new Promise((resolve) => setImmediate(resolve));
    await assert.rejects(deferred.ready, failure);
    await assert.rejects(deferred.query('SELECT 1'), failure);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { INBOX_KEEP_PER_CLIENT, listInboxEntries, recordInboxEntries } from './inbox-repository.ts';

describe('the webhook inbox stays bounded', () => {
  let testDb: TestDb;
  before(async () => {
    testDb = await createTestDb();
  });
  after(() => testDb?.close());

  const entry = (clientId: string, attempt: number) => ({
    eventId: `msg_${attempt}`,
    attempt,
    clientId,
    type: 'transfer',
    url: null,
    requestHeaders: { 'webhook-id': `msg_${attempt}` },
    requestBody: '{}',
    responseStatus: null,
    responseBody: null,
    error: 'no webhook URL is configured',
    attemptedAt: new Date('2026-03-02T09:00:00Z'),
  });

  it(`keeps the newest ${INBOX_KEEP_PER_CLIENT} entries of each client`, async () => {
    const { db } = testDb;
    // Rows written straight away, then the last few through the repository (which trims).
    await db.query(
      `INSERT INTO webhook_inbox (event_id, attempt, client_id, type, request_headers,
          request_body, attempted_at)
       SELECT 'msg_' || n, n, 'client-a', 'transfer', '{}', '{}', now()
         FROM generate_series(1, $1::int) AS n`,
      [INBOX_KEEP_PER_CLIENT],
    );
    await recordInboxEntries(db, [entry('client-b', 1)]);
    for (const attempt of [INBOX_KEEP_PER_CLIENT + 1, INBOX_KEEP_PER_CLIENT + 2]) {
      await recordInboxEntries(db, [entry('client-a', attempt)]);
    }
    const page = (clientId: string) => listInboxEntries(db, { clientId, offset: 0, limit: 100 });
    const kept = await page('client-a');
    assert.equal(kept.total, INBOX_KEEP_PER_CLIENT);
    assert.equal(kept.entries[0]?.attempt, INBOX_KEEP_PER_CLIENT + 2, 'the newest stays');
    const oldest = await listInboxEntries(db, {
      clientId: 'client-a',
      offset: INBOX_KEEP_PER_CLIENT - 1,
      limit: 1,
    });
    assert.equal(oldest.entries[0]?.attempt, 3, 'the two oldest went');
    assert.equal((await page('client-b')).total, 1, "another client's entries are its own");
  });

  it('records a round of entries at once and trims each client once, headers in their order', async () => {
    const { db } = testDb;
    await db.query(
      `INSERT INTO webhook_inbox (event_id, attempt, client_id, type, request_headers,
          request_body, attempted_at)
       SELECT 'msg_' || n, n, 'client-c', 'transfer', '{}', '{}', now()
         FROM generate_series(1, $1::int) AS n`,
      [INBOX_KEEP_PER_CLIENT - 1],
    );
    const round = [1, 2, 3].map((n) => ({
      ...entry('client-c', INBOX_KEEP_PER_CLIENT + n),
      requestHeaders: { 'webhook-timestamp': String(n), 'content-type': 'application/json' },
    }));
    await recordInboxEntries(db, [...round, entry('client-d', 1)]);
    const kept = await listInboxEntries(db, { clientId: 'client-c', offset: 0, limit: 3 });
    assert.equal(kept.total, INBOX_KEEP_PER_CLIENT, 'the two oldest went');
    assert.deepEqual(
      kept.entries.map((kept) => kept.attempt).sort(),
      [1, 2, 3].map((n) => INBOX_KEEP_PER_CLIENT + n),
    );
    assert.deepEqual(Object.keys(kept.entries[0]?.requestHeaders ?? {}), [
      'webhook-timestamp',
      'content-type',
    ]);
    const other = await listInboxEntries(db, { clientId: 'client-d', offset: 0, limit: 1 });
    assert.equal(other.total, 1);
  });
});

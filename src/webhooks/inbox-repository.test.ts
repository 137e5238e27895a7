import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { INBOX_KEEP_PER_CLIENT, listInboxEntries, recordInboxEntries } from './inbox-repository.ts';
import { createInboxTrimSchedule, INBOX_TRIM_EVERY } from './inbox-trim.ts';

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
  it('trims only the clients it is told to, when told', async () => {
    const { db } = testDb;
    for (const clientId of ['client-e', 'client-f']) {
      await db.query(
        `INSERT INTO webhook_inbox (event_id, attempt, client_id, type, request_headers,
            request_body, attempted_at)
         SELECT 'msg_' || n, n, $2, 'transfer', '{}', '{}', now()
           FROM generate_series(1, $1::int) AS n`,
        [INBOX_KEEP_PER_CLIENT, clientId],
      );
    }
    const round = [entry('client-e', 0), entry('client-f', 0)];
    await recordInboxEntries(db, round, ['client-e']);
    const total = async (clientId: string) =>
      (await listInboxEntries(db, { clientId, offset: 0, limit: 1 })).total;
    assert.equal(await total('client-e'), INBOX_KEEP_PER_CLIENT);
    assert.equal(await total('client-f'), INBOX_KEEP_PER_CLIENT + 1, 'left for a later trim');
    await recordInboxEntries(db, [entry('client-f', 0)], []);
    assert.equal(await total('client-f'), INBOX_KEEP_PER_CLIENT + 2, 'no trim at all');
  });
});

describe("the worker's inbox trims", () => {
  const of = (clientId: string, count: number) =>
    Array.from({ length: count }, () => ({ clientId }));

  it(`trims a client once every ${INBOX_TRIM_EVERY} of its entries, each client on its own count`, () => {
    const schedule = createInboxTrimSchedule();
    assert.deepEqual(schedule.due([...of('a', INBOX_TRIM_EVERY - 1), ...of('b', 1)]), []);
    assert.deepEqual(schedule.due([...of('a', 1), ...of('b', 1)]), ['a']);
    assert.deepEqual(schedule.due(of('a', INBOX_TRIM_EVERY - 1)), [], 'its count starts again');
    assert.deepEqual(schedule.due(of('b', INBOX_TRIM_EVERY - 2)), ['b']);
    assert.deepEqual(schedule.due([...of('a', 1), ...of('c', 250)]), ['a', 'c']);
  });

  it('counts a bounded number of clients: past it, every counted one is trimmed', () => {
    const schedule = createInboxTrimSchedule(100, 3);
    assert.deepEqual(schedule.due([...of('a', 1), ...of('b', 1), ...of('c', 1)]), []);
    assert.deepEqual(schedule.due(of('d', 1)).sort(), ['a', 'b', 'c', 'd']);
    assert.deepEqual(schedule.due(of('a', 1)), [], 'counted afresh');
  });
});

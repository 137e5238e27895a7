// PostgreSQL only: delivery workers in several processes trim the sandbox inbox of the same
// clients at once. Each round writes its entries and trims its clients in one transaction; two
// such rounds holding clients in opposite orders deadlocked when a trim waited for the other's
// deletes. PGlite is one session: the rounds could never overlap there.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Db } from '../../src/db/db.ts';
import { INBOX_KEEP_PER_CLIENT, recordInboxEntries } from '../../src/webhooks/inbox-repository.ts';
import { createTestDb, onPostgres, type TestDb } from '../test-db.ts';

const ROUNDS = 40;
const ENTRIES_PER_CLIENT = 8;

function roundOf(clients: readonly string[], round: number) {
  return clients.flatMap((clientId) =>
    Array.from({ length: ENTRIES_PER_CLIENT }, (_, n) => ({
      eventId: `evt_${clientId}_${round}_${n}`,
      attempt: 1,
      clientId,
      type: 'transfer',
      url: null,
      requestHeaders: { 'webhook-id': `evt_${clientId}_${round}_${n}` },
      requestBody: '{}',
      responseStatus: null,
      responseBody: null,
      error: 'no webhook URL is configured',
      attemptedAt: new Date(),
    })),
  );
}

async function deadlocks(db: Db): Promise<number> {
  const rows = await db.query<{ deadlocks: string }>(
    'SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()',
  );
  return Number(rows[0]?.deadlocks ?? 0);
}

describe('the webhook inbox trimmed by rounds of two workers at once (PostgreSQL)', {
  skip: !onPostgres,
}, () => {
  let testDb: TestDb;
  before(async () => {
    testDb = await createTestDb({ poolSize: 4 });
    const { db } = testDb;
    // Each client starts at the bound, so every round's trim deletes rows.
    await db.query(
      `INSERT INTO webhook_inbox (event_id, attempt, client_id, type, request_headers,
          request_body, attempted_at)
       SELECT 'old_' || c || '_' || n, 1, c, 'transfer', '{}', '{}', now()
         FROM unnest(ARRAY['client-a', 'client-b', 'client-c']) AS c,
              generate_series(1, $1::int) AS n`,
      [INBOX_KEEP_PER_CLIENT],
    );
  });
  after(() => testDb?.close());

  it('keeps each client at the bound and PostgreSQL sees no deadlock', async () => {
    const { db } = testDb;
    const before = await deadlocks(db);
    const worker = (clients: readonly string[]) => async () => {
      for (let round = 0; round < ROUNDS; round += 1) {
        await db.transaction((tx) => recordInboxEntries(tx, roundOf(clients, round)));
      }
    };
    await Promise.all([
      worker(['client-a', 'client-b', 'client-c'])(),
      worker(['client-c', 'client-b', 'client-a'])(),
      worker(['client-b', 'client-a', 'client-c'])(),
    ]);
    // pg_stat_database is reported by each backend as it ends its transaction: give it a moment.
    await new Promise((resolve) => setTimeout(resolve, 600));
    assert.equal((await deadlocks(db)) - before, 0, 'no deadlock, not even one retried');
    const counts = await db.query<{ client_id: string; n: number }>(
      `SELECT client_id, count(*)::int AS n FROM webhook_inbox GROUP BY client_id
        ORDER BY client_id`,
    );
    for (const { client_id, n } of counts) {
      // A trim skips rows another round is deleting at that instant: never more than a round over.
      assert.ok(
        n >= INBOX_KEEP_PER_CLIENT && n <= INBOX_KEEP_PER_CLIENT + 3 * ENTRIES_PER_CLIENT,
        `${client_id}: ${n}`,
      );
    }
  });
});

import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createTestDb, onPostgres, type TestDb } from '../../test/test-db.ts';
import { ManualClock } from '../shared/clock.ts';
import { createPendingWorker } from '../shared/poll-loop.ts';
import { claimDue, type DueRows } from './claim-due.ts';

interface ProbeRow {
  id: string;
  status: string;
  due_at: Date | null;
  tries: number;
}

// A table of this test's own, shaped like the ones the workers claim from.
const PROBES: DueRows = {
  table: 'claim_probes',
  dueColumn: 'due_at',
  waiting: `status = 'waiting'`,
  countIn: 'tries',
};
const START = new Date('2025-03-01T10:00:00Z');
const at = (seconds: number) => new Date(START.getTime() + seconds * 1000);
const ids = (rows: readonly { id: string }[]) => rows.map((row) => row.id).sort();

describe(`claimDue (${onPostgres ? 'PostgreSQL' : 'PGlite'})`, { timeout: 60_000 }, () => {
  let testDb: TestDb;
  before(async () => {
    testDb = await createTestDb();
    await testDb.db.exec(`CREATE TABLE claim_probes (
      id text PRIMARY KEY, status text NOT NULL, due_at timestamptz,
      locked_until timestamptz, expires_at timestamptz, tries int NOT NULL DEFAULT 0)`);
  });
  after(() => testDb.close());
  beforeEach(() => testDb.db.query('DELETE FROM claim_probes'));

  /** Rows p00.. due one second apart from START, with the given status. */
  async function insert(count: number, status = 'waiting'): Promise<void> {
    for (let n = 0; n < count; n += 1) {
      await testDb.db.query(
        `INSERT INTO claim_probes (id, status, due_at, expires_at) VALUES ($1, $2, $3, $3)`,
        [`p${String(n).padStart(2, '0')}`, status, at(n)],
      );
    }
  }
  const claim = (seconds: number, limit: number, rows: DueRows = PROBES) =>
    claimDue<ProbeRow>(testDb.db, rows, { now: at(seconds), limit, claimSeconds: 60 });

  it('claims the waiting rows that are due, earliest first, up to the limit, counting each', async () => {
    await insert(5);
    await testDb.db.query(`UPDATE claim_probes SET status = 'settled' WHERE id = 'p00'`);
    const claimed = await claim(3, 2);
    assert.deepEqual(ids(claimed), ['p01', 'p02'], 'p00 is settled, p04 is not due yet');
    assert.deepEqual(
      claimed.map((row) => row.tries),
      [1, 1],
    );
    assert.deepEqual(ids(await claim(3, 10)), ['p03']);
  });

  it('hides a claimed row for claimSeconds; then it is due again', async () => {
    await insert(1);
    const [first] = await claim(0, 10);
    assert.deepEqual(first?.due_at, at(60), 'due again claimSeconds after the claim');
    assert.deepEqual(await claim(59, 10), [], 'hidden while the claim holds');
    const again = await claim(60, 10);
    assert.deepEqual(ids(again), ['p00']);
    assert.equal(again[0]?.tries, 2);
  });

  it('with a lock column, holds the claim there and leaves the due time as it was', async () => {
    await insert(1);
    const locked: DueRows = { ...PROBES, lockColumn: 'locked_until' };
    const [first] = await claim(5, 10, locked);
    assert.deepEqual(first?.due_at, at(0));
    assert.deepEqual(await claim(64, 10, locked), []);
    const [locks] = await testDb.db.query<{ locked_until: Date }>(
      'SELECT locked_until FROM claim_probes',
    );
    assert.deepEqual(locks?.locked_until, at(65));
    assert.deepEqual(ids(await claim(65, 10, locked)), ['p00']);
  });

  it('lets go of a claimed row letGoWhen holds for: it is never due again', async () => {
    await insert(2);
    const letGo: DueRows = { ...PROBES, letGoWhen: 'expires_at < $4' };
    const claimed = await claimDue<ProbeRow>(
      testDb.db,
      letGo,
      { now: at(5), limit: 10, claimSeconds: 60 },
      [at(1)],
    );
    const byId = new Map(claimed.map((row) => [row.id, row.due_at]));
    assert.equal(byId.get('p00'), null, 'expired before at(1): let go');
    assert.deepEqual(byId.get('p01'), at(65));
    assert.deepEqual(ids(await claim(10_000, 10)), ['p01']);
  });

  it('refuses a name that is not a plain SQL identifier', async () => {
    await assert.rejects(
      async () => claim(0, 1, { ...PROBES, dueColumn: 'due_at; DROP TABLE claim_probes' }),
      /not a plain SQL name/,
    );
  });

  it('hands each row to one claimer of many claiming at once', async () => {
    await insert(40);
    const claims = await Promise.all(Array.from({ length: 8 }, () => claim(100, 6)));
    const all = claims.flatMap(ids);
    assert.equal(new Set(all).size, all.length, 'no row claimed twice');
    assert.equal(all.length, 40, 'every row claimed once');
  });

  it('skips the rows another session holds instead of waiting for them', {
    skip: !onPostgres && 'PGlite is one session: only PostgreSQL has two at once',
  }, async () => {
    await insert(6);
    // The first claim stays uncommitted, its rows locked, while a second session claims.
    const [inside, outside] = await testDb.db.transaction(async (tx) => {
      const held = await claimDue<ProbeRow>(tx, PROBES, {
        now: at(100),
        limit: 3,
        claimSeconds: 60,
      });
      return [held, await claim(100, 10)];
    });
    assert.deepEqual(ids(inside), ['p00', 'p01', 'p02']);
    assert.deepEqual(ids(outside), ['p03', 'p04', 'p05']);
  });

  it('under createPendingWorker, a failing item is claimed again later; the others finish', async () => {
    await insert(3);
    const clock = new ManualClock(at(10));
    let failNext = true;
    const finished: string[] = [];
    const worker = createPendingWorker({
      clock,
      batchSize: 10,
      pollIntervalMs: 1_000,
      claimSeconds: 30,
      claim: (due) => claimDue<ProbeRow>(testDb.db, PROBES, due),
      handle: async (row) => {
        if (row.id === 'p01' && failNext) {
          failNext = false;
          throw new Error('the provider did not answer');
        }
        // The others answer later than the failure: the round still waits for them.
        await new Promise((resolve) => setImmediate(resolve));
        await testDb.db.query(`UPDATE claim_probes SET status = 'settled' WHERE id = $1`, [row.id]);
        finished.push(row.id);
      },
    });
    await assert.rejects(worker.runOnce(), /the provider did not answer/);
    assert.deepEqual(finished.sort(), ['p00', 'p02'], 'the round finished the items that worked');
    assert.equal(await worker.runOnce(), 0, 'the failed item is hidden while its claim holds');
    clock.advanceSeconds(30);
    assert.equal(await worker.runOnce(), 1, 'then it is claimed again');
    const [left] = await testDb.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM claim_probes WHERE status = 'waiting'`,
    );
    assert.equal(left?.n, 0);
  });
});

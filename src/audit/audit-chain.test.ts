import assert from 'node:assert/strict';
import { after, afterEach, beforeEach, describe, it } from 'node:test';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { loadMigrations, migrate } from '../db/migrate.ts';
import { loadFunctionFiles } from '../db/sql-functions.ts';
import { ManualClock } from '../shared/clock.ts';
import { type ChainVerdict, GENESIS_HASH, verifyAuditChain } from './audit-chain.ts';
import { createAuditLog } from './audit-log.ts';

/** Rows of every shape the hash must cover: NULLs, empty text, multi-byte text, escapes. */
async function appendEvents(db: TestDb['db'], count: number): Promise<void> {
  const clock = new ManualClock(new Date('2026-03-02T09:00:00.000Z'));
  const auditLog = createAuditLog({
    db,
    clock,
    onError: (error) => {
      throw error;
    },
  });
  for (let index = 1; index <= count; index += 1) {
    clock.advanceSeconds(1);
    await auditLog.record({
      actor: index % 3 === 0 ? 'operator:ngozi' : `client:${index}`,
      action: 'admin.post /admin/clients/:id/disable',
      target: index % 4 === 0 ? null : index % 4 === 1 ? '' : `ọ̀kan-${index}:,"\n`,
      outcome: index % 2 === 0 ? '200' : 'started',
      details: { index, nested: { text: `=SUM(A1)\u0000 ${index}`, list: [1, 'két'] } },
      request: index % 5 === 0 ? undefined : { ip: '10.0.0.1', id: `req-${index}` },
    });
  }
}

/** As a database superuser could: the append-only triggers off, the change, the triggers on. */
function tamper(db: TestDb['db'], sql: string): Promise<void> {
  return db.exec(
    `ALTER TABLE audit_events DISABLE TRIGGER USER; ${sql}; ALTER TABLE audit_events ENABLE TRIGGER USER`,
  );
}

function assertBroken(verdict: ChainVerdict, row: string, kind: string, words: RegExp): void {
  assert.equal(verdict.ok, false, JSON.stringify(verdict));
  if (!verdict.ok) {
    assert.deepEqual(
      [verdict.broken.row, verdict.broken.kind],
      [row, kind],
      verdict.broken.message,
    );
    assert.match(verdict.broken.message, words);
  }
}

describe('the audit hash chain', () => {
  let testDb: TestDb;
  beforeEach(async () => {
    testDb = await createTestDb();
    await appendEvents(testDb.db, 12);
  });
  afterEach(() => testDb?.close());
  // A batch of 5 makes every walk cross batch boundaries.
  const verify = (recorded?: { id: string; hash: string }) =>
    verifyAuditChain(testDb.db, { recorded, batch: 5 });

  it('is intact after many appends: one line from the genesis, each hash recomputed', async () => {
    await appendEvents(testDb.db, 188);
    const verdict = await verify();
    assert.equal(verdict.ok, true, JSON.stringify(verdict));
    const rows = await testDb.db.query<{ id: string; prev_hash: string; hash: string }>(
      'SELECT id::text, prev_hash, hash FROM audit_events ORDER BY audit_events.id',
    );
    assert.equal(rows.length, 200);
    assert.equal(rows[0]?.prev_hash, GENESIS_HASH);
    rows.forEach((row, index) => {
      assert.equal(row.id, String(index + 1));
      assert.equal(row.prev_hash, index === 0 ? GENESIS_HASH : rows[index - 1]?.hash);
    });
    assert.deepEqual(verdict, {
      ok: true,
      rows: 200,
      head: { id: '200', hash: rows[199]?.hash },
    });
  });

  it("an edited row's details: named, as edited", async () => {
    await tamper(testDb.db, `UPDATE audit_events SET details = '{"index": 6}' WHERE id = 6`);
    assertBroken(await verify(), '6', 'edited', /row 6 was changed/);
  });

  it('an edited time or actor, even to the same instant written another way: named', async () => {
    await tamper(
      testDb.db,
      `UPDATE audit_events SET at = at + interval '1 microsecond' WHERE id = 9`,
    );
    assertBroken(await verify(), '9', 'edited', /row 9/);
  });

  it('a deleted middle row: the next row is named, and the missing id', async () => {
    await tamper(testDb.db, 'DELETE FROM audit_events WHERE id = 7');
    assertBroken(await verify(), '8', 'deleted', /row 8 does not follow row 6: row 7 .*deleted/);
  });

  it('a deleted last row: the head left by the last append names it', async () => {
    await tamper(testDb.db, 'DELETE FROM audit_events WHERE id = 12');
    assertBroken(await verify(), '12', 'truncated', /names row 12 but the chain ends at row 11/);
  });

  it('a deleted tail with the head patched to match: caught only against a recorded head', async () => {
    const recorded = await verify();
    assert.ok(recorded.ok && recorded.head !== null);
    await tamper(
      testDb.db,
      `DELETE FROM audit_events WHERE id >= 11;
       UPDATE audit_chain_head SET last_id = 10, hash = (SELECT hash FROM audit_events WHERE id = 10)`,
    );
    assert.equal((await verify()).ok, true, 'without a copy of the head, a clean cut is a chain');
    assertBroken(
      await verify(recorded.head),
      '12',
      'truncated',
      /row 12, the recorded head, is gone/,
    );
  });

  it("two rows' contents swapped: the first of them is named", async () => {
    await tamper(
      testDb.db,
      `UPDATE audit_events a SET actor = b.actor, action = b.action, target = b.target,
              outcome = b.outcome, details = b.details, prev_hash = b.prev_hash, hash = b.hash
         FROM audit_events b WHERE (a.id, b.id) IN ((4, 10), (10, 4))`,
    );
    assertBroken(await verify(), '4', 'edited', /row 4 was changed/);
  });

  it('a row edited and its hash recomputed: named as rewritten; a chain recomputed to the end is caught by a recorded head', async () => {
    const recorded = await verify();
    assert.ok(recorded.ok && recorded.head !== null);
    await tamper(
      testDb.db,
      `UPDATE audit_events SET actor = 'operator:someone-else',
              hash = audit_event_hash(prev_hash, id, at, 'operator:someone-else', action, target,
                outcome, source_ip, request_id, details, operator_id, session_id, before_state,
                after_state)
        WHERE id = 5`,
    );
    assertBroken(await verify(), '5', 'rewritten', /row 6 does not follow row 5/);
    // Every later row's links and hashes recomputed too, and the head moved to the new end.
    await tamper(testDb.db, rechainFrom(6));
    assert.equal((await verify()).ok, true, 'a chain recomputed whole is a chain');
    assertBroken(await verify(recorded.head), '12', 'rewritten', /recorded head/);
  });

  it('a row written outside audit_append, then a real append: the row is named as inserted', async () => {
    await testDb.db.query(
      `INSERT INTO audit_events (at, actor, action, outcome, prev_hash, hash)
       SELECT now(), 'operator:ghost', 'admin.post /admin/clients', '200', hash, hash
         FROM audit_chain_head`,
    );
    await appendEvents(testDb.db, 1);
    const verdict = await verify();
    assert.equal(verdict.ok, false);
    assert.equal(!verdict.ok && verdict.broken.row, '13');
    // Hashed like a real row (it was forged well): then it is the link after it that tells.
    await tamper(
      testDb.db,
      `UPDATE audit_events SET hash = audit_event_hash(prev_hash, id, at, actor, action, target,
         outcome, source_ip, request_id, details, operator_id, session_id, before_state,
         after_state) WHERE id = 13`,
    );
    assertBroken(await verify(), '13', 'inserted', /row 13 was inserted .*row 14 links past it/);
  });

  it('the append-only triggers still refuse an update, a delete and a truncate', async () => {
    for (const sql of [
      `UPDATE audit_events SET actor = 'x' WHERE id = 1`,
      'DELETE FROM audit_events WHERE id = 1',
      'TRUNCATE audit_events',
    ]) {
      await assert.rejects(testDb.db.query(sql), /append-only/);
    }
  });
});

/** What someone hiding an edit would run: every row from `id` on re-linked and re-hashed. */
function rechainFrom(id: number): string {
  return `DO $$
    DECLARE r record; v_prev text;
    BEGIN
      FOR r IN SELECT * FROM audit_events WHERE id >= ${id} ORDER BY id LOOP
        SELECT hash INTO v_prev FROM audit_events WHERE id < r.id ORDER BY id DESC LIMIT 1;
        UPDATE audit_events SET prev_hash = v_prev,
               hash = audit_event_hash(v_prev, id, at, actor, action, target, outcome, source_ip,
                 request_id, details, operator_id, session_id, before_state, after_state)
         WHERE id = r.id;
      END LOOP;
      UPDATE audit_chain_head SET (last_id, hash) =
        (SELECT id, hash FROM audit_events ORDER BY id DESC LIMIT 1);
    END $$`;
}

describe('migration 0009 chains the rows written before it', () => {
  let testDb: TestDb;
  after(() => testDb?.close());

  it('in id order from the genesis, as audit_append would have', async () => {
    testDb = await createTestDb({ empty: true });
    const migrations = (await loadMigrations()).filter((file) => file.name < '0009');
    const functions = (await loadFunctionFiles()).filter(
      (file) => !['audit_append', 'audit_event_hash', 'audit_event_at_text'].includes(file.name),
    );
    await migrate(testDb.db, { migrations, functions });
    // As the audit log wrote them before the chain, with a gap in the ids (a rolled-back row).
    await testDb.db.exec(`
      INSERT INTO audit_events (at, actor, action, target, outcome, source_ip, request_id, details)
      VALUES ('2026-01-01T00:00:00.123456Z', 'operator', 'admin.post /admin/clients', NULL, '201',
              '10.0.0.1', 'r1', '{"params": {}}'),
             ('2026-01-01T00:00:01Z', 'client:é', 'token.refresh_reuse', '', 'refused', NULL,
              NULL, '{"b": 1, "a": [null, "ü\\\\u0000"]}');
      SELECT nextval(pg_get_serial_sequence('audit_events', 'id'));
      INSERT INTO audit_events (at, actor, action, outcome)
      VALUES ('2026-01-01T00:00:02Z', 'anonymous', 'security.rate_limited', '429')`);
    const applied = await migrate(testDb.db);
    assert.equal(applied.migrations[0], '0009_audit_hash_chain.sql');
    const rows = await testDb.db.query<{ id: string; hash: string; recomputed: string }>(
      `SELECT id::text, hash, audit_event_hash(prev_hash, id, at, actor, action, target, outcome,
              source_ip, request_id, details, operator_id, session_id, before_state,
              after_state) AS recomputed
         FROM audit_events ORDER BY audit_events.id`,
    );
    assert.deepEqual(
      rows.map((row) => row.id),
      ['1', '2', '4'],
    );
    for (const row of rows) {
      assert.equal(row.hash, row.recomputed, `row ${row.id}: the migration hashes as the function`);
    }
    const verdict = await verifyAuditChain(testDb.db, { batch: 2 });
    assert.deepEqual(verdict, { ok: true, rows: 3, head: { id: '4', hash: rows[2]?.hash } });
    // The next append follows the last migrated row.
    await appendEvents(testDb.db, 2);
    assert.equal((await verifyAuditChain(testDb.db)).ok, true);
  });
});

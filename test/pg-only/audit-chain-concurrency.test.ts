import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createAuditLog, verifyAuditChain } from '../../src/audit/index.ts';
import type { Db } from '../../src/db/db.ts';
import { createPgDb } from '../../src/db/pg-db.ts';
import { systemClock } from '../../src/shared/clock.ts';
import { createTestDb, type TestDb } from '../test-db.ts';

const run = promisify(execFile);
const CLI = fileURLToPath(new URL('../../bin/openibs.js', import.meta.url));

/** Appends from several processes at once: one chain, in id order, with no gap. */
describe('the audit chain under concurrent appends (PostgreSQL)', () => {
  let testDb: TestDb;
  const processes: Db[] = [];
  before(async () => {
    testDb = await createTestDb();
    // Four pools of five connections: four server processes, as far as the database can tell.
    for (let index = 0; index < 4; index += 1) {
      processes.push(createPgDb({ connectionString: testDb.url ?? '', poolSize: 5 }));
    }
  });
  after(async () => {
    await Promise.all(processes.map((db) => db.close()));
    await testDb?.close();
  });

  it('400 appends from 20 connections at once make one valid chain', async () => {
    const failures: unknown[] = [];
    await Promise.all(
      processes.flatMap((db, process) => {
        const auditLog = createAuditLog({
          db,
          clock: systemClock,
          onError: (error) => failures.push(error),
        });
        return Array.from({ length: 100 }, (_, index) =>
          auditLog.record({
            actor: `operator:p${process}`,
            action: 'admin.post /admin/clients/:id/disable',
            target: String(index),
            outcome: 'started',
            details: { process, index },
          }),
        );
      }),
    );
    assert.deepEqual(failures, []);
    const verdict = await verifyAuditChain(testDb.db, { batch: 64 });
    assert.equal(verdict.ok, true, JSON.stringify(verdict));
    assert.equal(verdict.ok && verdict.rows, 400);
    const [ids] = await testDb.db.query<{ count: number; first: string; last: string }>(
      'SELECT count(*)::int AS count, min(id)::text AS first, max(id)::text AS last FROM audit_events',
    );
    assert.deepEqual(ids, { count: 400, first: '1', last: '400' }, 'ids in chain order, no gap');
  });

  it('`openibs audit:verify` as a process: exit 0 with the head, exit 1 naming the edited row', async () => {
    const env = { ...process.env, DATABASE_URL: testDb.url ?? '', IBS_ENV: 'sandbox' };
    const intact = await run(process.execPath, [CLI, 'audit:verify'], { env });
    assert.match(intact.stdout, /^audit chain intact: 400 rows; head 400:[0-9a-f]{64}\n$/);
    await testDb.db.exec(`ALTER TABLE audit_events DISABLE TRIGGER USER;
      UPDATE audit_events SET details = '{}' WHERE id = 123;
      ALTER TABLE audit_events ENABLE TRIGGER USER`);
    const broken = await run(process.execPath, [CLI, 'audit:verify'], { env }).then(
      () => assert.fail('audit:verify exited 0 on an edited row'),
      (error: { code: number; stderr: string }) => error,
    );
    assert.equal(broken.code, 1);
    assert.match(broken.stderr, /audit chain broken at row 123 \(edited\)/);
  });
});

import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { text } from 'node:stream/consumers';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { createAuditLog } from '../audit/index.ts';
import { ManualClock } from '../shared/clock.ts';
import { auditCommands } from './audit-commands.ts';
import { createCliContext } from './cli-context.ts';

describe('npx openibs audit:verify and audit:export', () => {
  let testDb: TestDb;
  let output: PassThrough;
  const run = (name: string, ...args: string[]) => {
    output = new PassThrough();
    const commands = auditCommands({
      // The test's database, left open for the next command.
      openDb: async () => ({ ...testDb.db, close: async () => {} }),
      output,
    });
    const command = commands[name];
    assert.ok(command !== undefined, name);
    return command.run(createCliContext([name, ...args], {}));
  };

  before(async () => {
    testDb = await createTestDb();
    const clock = new ManualClock(new Date('2026-03-02T09:00:00.000Z'));
    const auditLog = createAuditLog({ db: testDb.db, clock });
    for (const actor of ['operator:ada', 'operator:=cmd', 'client:c1', 'anonymous']) {
      clock.advanceSeconds(60);
      await auditLog.record({
        actor,
        action: 'admin.post /admin/clients',
        target: null,
        outcome: '201',
      });
    }
  });
  after(() => testDb?.close());

  it('audit:verify prints the rows and the head; --head accepts it back', async () => {
    const printed = String(await run('audit:verify'));
    const match = /^audit chain intact: 4 rows; head (4:[0-9a-f]{64})$/.exec(printed);
    assert.ok(match, printed);
    assert.match(String(await run('audit:verify', '--head', match[1] ?? '')), /intact: 4 rows/);
    await assert.rejects(run('audit:verify', '--head', 'latest'), /--head takes ID:HASH/);
  });

  it('audit:export streams the rows with their hashes, as CSV or JSON', async () => {
    await run('audit:export', '--format', 'csv', '--from', '2026-03-02T09:02:00Z');
    const rows = parse(await text(output), { columns: true }) as Record<string, string>[];
    assert.deepEqual(
      rows.map((row) => [row.id, row.actor]),
      [
        ['2', 'operator:=cmd'],
        ['3', 'client:c1'],
        ['4', 'anonymous'],
      ],
    );
    await run('audit:export');
    const json = JSON.parse(await text(output)) as { hash: string; prevHash: string }[];
    assert.equal(json.length, 4);
    assert.equal(json[1]?.prevHash, json[0]?.hash);
    await assert.rejects(run('audit:export', '--format', 'xlsx'), /json or csv/);
  });

  it('audit:verify fails naming the first bad row and what broke it', async () => {
    await testDb.db.exec(`ALTER TABLE audit_events DISABLE TRIGGER USER;
      DELETE FROM audit_events WHERE id = 2;
      ALTER TABLE audit_events ENABLE TRIGGER USER`);
    await assert.rejects(
      run('audit:verify'),
      /^Error: audit chain broken at row 3 \(deleted\): row 3 does not follow row 1: row 2 between them was deleted; 1 rows before it are intact$/,
    );
  });
});

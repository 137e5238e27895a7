import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { ManualClock } from '../shared/clock.ts';
import { type AuditLog, createAuditLog } from './audit-log.ts';

describe('the audit log stores what an attacker typed', () => {
  let testDb: TestDb;
  let auditLog: AuditLog;
  const failures: unknown[] = [];

  before(async () => {
    testDb = await createTestDb();
    auditLog = createAuditLog({
      db: testDb.db,
      clock: new ManualClock(new Date('2026-03-02T09:00:00.000Z')),
      onError: (error) => failures.push(error),
    });
  });
  after(() => testDb.close());

  it('U+0000 and lone surrogates in every column and in nested keys and values are kept, escaped', async () => {
    await auditLog.record({
      actor: 'oauth-client:a\u0000b',
      action: 'token.client_authentication_failed',
      target: '\ud800/\udc00',
      outcome: 'refused\u0000',
      details: {
        'key\u0000': 'value\ud83d',
        nested: { list: ['\u0000', { 'deep\udfff': 'ok 😀' }], count: 2, none: null },
        when: new Date('2026-03-02T09:00:00.000Z'),
      },
      request: { ip: '10.0.0.1', id: 'req\u0000' },
    });
    assert.deepEqual(failures, [], 'the row was written');
    const { events } = await auditLog.list({
      actor: 'oauth-client:a\\u0000b',
      offset: 0,
      limit: 5,
    });
    assert.equal(events.length, 1);
    const [event] = events;
    assert.equal(event?.target, '\\ud800/\\udc00');
    assert.equal(event?.outcome, 'refused\\u0000');
    assert.equal(event?.requestId, 'req\\u0000');
    assert.deepEqual(event?.details, {
      'key\\u0000': 'value\\ud83d',
      nested: { list: ['\\u0000', { 'deep\\udfff': 'ok 😀' }], count: 2, none: null },
      when: '2026-03-02T09:00:00.000Z',
    });
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';
import { operatorWithRoles } from '../../../test/operators.ts';

describe('POST /admin/operators/:id/sessions/end', () => {
  let testApp: TestApp;
  before(async () => {
    testApp = await buildTestApp();
  });
  after(() => testApp?.close());

  it('security ends every dashboard session of an operator; others need the role', async () => {
    const security = await operatorWithRoles(testApp, ['security']);
    const target = await operatorWithRoles(testApp, ['finance']);
    const session = await testApp.services.dashboardSessions.open(target.email, target.id);
    const end = (id: string, headers: { authorization: string }) =>
      testApp.app.inject({ method: 'POST', url: `/admin/operators/${id}/sessions/end`, headers });
    assert.equal((await end(security.id, target.headers)).statusCode, 403);
    const ended = await end(target.id, security.headers);
    assert.equal(ended.statusCode, 200, ended.body);
    assert.equal(ended.json().data.ended, 1);
    assert.equal(await testApp.services.dashboardSessions.find(session.secret), undefined);
    assert.equal(
      (await end('opr_nobody', security.headers)).json().message,
      'Unable to locate record',
    );
  });
});

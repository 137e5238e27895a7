import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';
import { operatorWithRoles } from '../../../test/operators.ts';

describe('POST /admin/operators/:id/disable and /enable', () => {
  let testApp: TestApp;
  let admin: { id: string; headers: { authorization: string } };
  before(async () => {
    testApp = await buildTestApp();
    admin = await operatorWithRoles(testApp, ['admin']);
  });
  after(() => testApp?.close());

  const act = (id: string, action: 'disable' | 'enable', headers = admin.headers) =>
    testApp.app.inject({ method: 'POST', url: `/admin/operators/${id}/${action}`, headers });
  const whoAmI = (headers: { authorization: string }) =>
    testApp.app.inject({ method: 'GET', url: '/admin/operators/me', headers });

  it("a disabled operator's key is refused at the next request, their dashboard session ends; enabling lets the key in again", async () => {
    const operator = await operatorWithRoles(testApp, ['viewer']);
    const session = await testApp.services.dashboardSessions.open(operator.email, operator.id);
    assert.equal((await whoAmI(operator.headers)).statusCode, 200);
    const disabled = await act(operator.id, 'disable');
    assert.equal(disabled.statusCode, 200, disabled.body);
    assert.equal(disabled.json().data.status, 'disabled');
    assert.equal((await whoAmI(operator.headers)).statusCode, 401);
    assert.equal(await testApp.services.dashboardSessions.find(session.secret), undefined);
    const enabled = await act(operator.id, 'enable');
    assert.equal(enabled.json().data.status, 'active');
    assert.equal((await whoAmI(operator.headers)).statusCode, 200);
  });

  it('an operator cannot disable themselves; an unknown one is RECORD_NOT_FOUND; 403 without admin', async () => {
    const self = await act(admin.id, 'disable');
    assert.equal(self.statusCode, 403, self.body);
    assert.equal((await act('opr_nobody', 'disable')).json().message, 'Unable to locate record');
    const support = await operatorWithRoles(testApp, ['support']);
    assert.equal((await act(admin.id, 'disable', support.headers)).statusCode, 403);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';
import { operatorWithRoles } from '../../../test/operators.ts';

describe('PUT /admin/operators/:id/roles', () => {
  let testApp: TestApp;
  let admin: { authorization: string };
  before(async () => {
    testApp = await buildTestApp();
    admin = (await operatorWithRoles(testApp, ['admin'])).headers;
  });
  after(() => testApp?.close());

  const setRoles = (id: string, roles: unknown, headers = admin) =>
    testApp.app.inject({
      method: 'PUT',
      url: `/admin/operators/${id}/roles`,
      headers,
      payload: { roles },
    });
  const freeze = (headers: { authorization: string }) =>
    testApp.app.inject({ method: 'POST', url: '/admin/accounts/0000000000/freeze', headers });

  it('the new roles hold from the next request: support gained, then taken away', async () => {
    const operator = await operatorWithRoles(testApp, ['viewer']);
    assert.equal((await freeze(operator.headers)).statusCode, 403);
    const granted = await setRoles(operator.id, ['viewer', 'support']);
    assert.equal(granted.statusCode, 200, granted.body);
    assert.deepEqual(granted.json().data.roles, ['viewer', 'support']);
    // Past the role check: the account number is unknown (400), not forbidden.
    assert.equal((await freeze(operator.headers)).statusCode, 400);
    await setRoles(operator.id, ['viewer']);
    assert.equal((await freeze(operator.headers)).statusCode, 403);
  });

  it('400 for no role or an unknown one, RECORD_NOT_FOUND for an unknown operator; 403 without admin', async () => {
    const operator = await operatorWithRoles(testApp, ['security']);
    assert.equal((await setRoles(operator.id, [])).statusCode, 400);
    assert.equal((await setRoles(operator.id, ['owner'])).statusCode, 400);
    const unknown = await setRoles('opr_nobody', ['viewer']);
    assert.equal(unknown.statusCode, 400);
    assert.equal(unknown.json().message, 'Unable to locate record');
    const selfPromotion = await setRoles(operator.id, ['admin'], operator.headers);
    assert.equal(selfPromotion.statusCode, 403, selfPromotion.body);
  });
});

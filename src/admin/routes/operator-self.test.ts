import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminHeaders } from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';
import { operatorWithRoles } from '../../../test/operators.ts';

describe('GET /admin/operators/me, POST /admin/operators/me/sign-out-everywhere', () => {
  let testApp: TestApp;
  before(async () => {
    testApp = await buildTestApp();
  });
  after(() => testApp?.close());

  it('answers who the caller is: an operator with their roles, or break-glass', async () => {
    const operator = await operatorWithRoles(testApp, ['support', 'viewer']);
    const me = await testApp.app.inject({
      method: 'GET',
      url: '/admin/operators/me',
      headers: operator.headers,
    });
    assert.equal(me.statusCode, 200, me.body);
    assert.equal(me.json().data.kind, 'operator');
    assert.equal(me.json().data.operator._id, operator.id);
    assert.deepEqual(me.json().data.roles, ['viewer', 'support']);
    assert.equal(me.json().data.actor, `operator:${operator.email}`);
    const glass = await testApp.app.inject({
      method: 'GET',
      url: '/admin/operators/me',
      headers: adminHeaders,
    });
    assert.equal(glass.json().data.kind, 'break-glass');
    assert.equal(glass.json().data.operator, null);
  });

  it('signing out everywhere ends every dashboard session of the caller and no one else’s', async () => {
    const ada = await operatorWithRoles(testApp, ['viewer']);
    const bola = await operatorWithRoles(testApp, ['viewer']);
    const sessions = testApp.services.dashboardSessions;
    const laptop = await sessions.open(ada.email, ada.id);
    const phone = await sessions.open(ada.email, ada.id);
    const other = await sessions.open(bola.email, bola.id);
    const ended = await testApp.app.inject({
      method: 'POST',
      url: '/admin/operators/me/sign-out-everywhere',
      headers: ada.headers,
    });
    assert.equal(ended.statusCode, 200, ended.body);
    assert.equal(ended.json().data.ended, 2);
    assert.equal(await sessions.find(laptop.secret), undefined);
    assert.equal(await sessions.find(phone.secret), undefined);
    assert.notEqual(await sessions.find(other.secret), undefined);
    const glass = await testApp.app.inject({
      method: 'POST',
      url: '/admin/operators/me/sign-out-everywhere',
      headers: adminHeaders,
    });
    assert.equal(glass.statusCode, 403, glass.body);
  });
});

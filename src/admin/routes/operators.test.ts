import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminHeaders } from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';
import { operatorWithRoles } from '../../../test/operators.ts';

describe('GET/POST /admin/operators, GET /admin/operators/:id', () => {
  let testApp: TestApp;
  let admin: { authorization: string };
  before(async () => {
    testApp = await buildTestApp();
    admin = (await operatorWithRoles(testApp, ['admin'])).headers;
  });
  after(() => testApp?.close());

  const create = (payload: object, headers: Record<string, string> = admin) =>
    testApp.app.inject({ method: 'POST', url: '/admin/operators', headers, payload });

  it('201: creates an operator with their roles, by the authenticated admin; no way to sign in yet', async () => {
    const created = await create({
      email: 'Ngozi.Okafor@Bank.test',
      displayName: 'Ngozi Okafor',
      roles: ['finance', 'viewer', 'finance'],
    });
    assert.equal(created.statusCode, 201, created.body);
    const operator = created.json().data;
    assert.equal(operator.email, 'ngozi.okafor@bank.test');
    assert.deepEqual(operator.roles, ['viewer', 'finance']);
    assert.equal(operator.status, 'active');
    assert.deepEqual(operator.signIn, {
      password: false,
      secondFactor: false,
      singleSignOn: false,
    });
    assert.match(operator.createdBy, /^operator:operator\d+\.admin@bank\.test$/);
    const shown = await testApp.app.inject({
      method: 'GET',
      url: `/admin/operators/${operator._id}`,
      headers: admin,
    });
    assert.deepEqual(shown.json().data, operator);
  });

  it('409 for an email taken already (in any case); 400 for no role, an unknown role, a bad email', async () => {
    const again = await create({
      email: 'NGOZI.okafor@bank.test',
      displayName: 'N',
      roles: ['viewer'],
    });
    assert.equal(again.statusCode, 409, again.body);
    assert.equal(again.json().message, 'An operator with this email address exists already.');
    for (const payload of [
      { email: 'a@bank.test', displayName: 'A', roles: [] },
      { email: 'a@bank.test', displayName: 'A', roles: ['root'] },
      { email: 'not-an-email', displayName: 'A', roles: ['viewer'] },
    ]) {
      const refused = await create(payload);
      assert.equal(refused.statusCode, 400, `${JSON.stringify(payload)}: ${refused.body}`);
    }
  });

  it('server-owned fields in the body change nothing (status, sign-in, creator)', async () => {
    const created = await create({
      email: 'b@bank.test',
      displayName: 'B',
      roles: ['viewer'],
      status: 'disabled',
      signIn: { password: true },
      createdBy: 'someone',
    });
    assert.equal(created.statusCode, 201, created.body);
    const operator = created.json().data;
    assert.equal(operator.status, 'active');
    assert.equal(operator.signIn.password, false);
    assert.notEqual(operator.createdBy, 'someone');
  });

  it('lists operators by email, paged; an unknown id is RECORD_NOT_FOUND', async () => {
    const listed = await testApp.app.inject({
      method: 'GET',
      url: '/admin/operators?limit=1',
      headers: admin,
    });
    assert.equal(listed.statusCode, 200, listed.body);
    assert.equal(listed.json().data.length, 1);
    assert.ok(listed.json().pagination.total >= 2);
    const unknown = await testApp.app.inject({
      method: 'GET',
      url: '/admin/operators/opr_nobody',
      headers: admin,
    });
    assert.equal(unknown.statusCode, 400);
    assert.equal(unknown.json().message, 'Unable to locate record');
  });

  it('403 ROLE_REQUIRED for an operator without the admin role; 401 without a credential', async () => {
    const finance = await operatorWithRoles(testApp, ['finance', 'security']);
    const refused = await create(
      { email: 'x@bank.test', displayName: 'X', roles: ['viewer'] },
      finance.headers,
    );
    assert.equal(refused.statusCode, 403, refused.body);
    assert.equal(refused.json().message, 'This action needs the admin role.');
    const anonymous = await testApp.app.inject({ method: 'GET', url: '/admin/operators' });
    assert.equal(anonymous.statusCode, 401);
  });

  it('the break-glass admin token creates operators too (sandbox), named as break-glass', async () => {
    const created = await create(
      { email: 'first.admin@bank.test', displayName: 'First', roles: ['admin'] },
      { ...adminHeaders, 'x-operator': 'setup' },
    );
    assert.equal(created.statusCode, 201, created.body);
    assert.equal(created.json().data.createdBy, 'break-glass:setup');
  });
});

describe('POST /admin/operators under four eyes, and the first day', () => {
  let testApp: TestApp;
  before(async () => {
    testApp = await buildTestApp({
      ADMIN_BREAK_GLASS: 'bootstrap',
      FOUR_EYES: 'POST /admin/operators',
    });
  });
  after(() => testApp?.close());

  const create = (email: string, headers: Record<string, string>) =>
    testApp.app.inject({
      method: 'POST',
      url: '/admin/operators',
      headers,
      payload: { email, displayName: email, roles: ['admin'] },
    });

  it('break-glass adds the first admin at once; once an admin can get in, adding one waits for a second', async () => {
    const first = await create('first@bank.test', adminHeaders);
    assert.equal(first.statusCode, 201, first.body);
    const key = await testApp.app.inject({
      method: 'POST',
      url: `/admin/operators/${first.json().data._id}/api-keys`,
      headers: adminHeaders,
      payload: { name: 'bootstrap' },
    });
    assert.equal(key.statusCode, 201, key.body);
    // Break-glass has closed by itself.
    assert.equal((await create('late@bank.test', adminHeaders)).statusCode, 401);
    const held = await create('second@bank.test', {
      authorization: `Bearer ${key.json().data.token}`,
    });
    assert.equal(held.statusCode, 202, held.body);
    const { rows } = await testApp.services.operators.list({ limit: 10, offset: 0 });
    assert.deepEqual(
      rows.map((row) => row.email),
      ['first@bank.test'],
    );
  });
});

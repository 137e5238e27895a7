import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminHeaders } from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';
import { operatorWithRoles } from '../../test/operators.ts';
import { maskText } from './viewer-masking.ts';

describe('a viewer reads customers’ identity masked', () => {
  let testApp: TestApp;
  let clientId: string;
  before(async () => {
    testApp = await buildTestApp();
    const created = await testApp.app.inject({
      method: 'POST',
      url: '/admin/clients',
      headers: adminHeaders,
      payload: { name: 'Masked Ltd', emailAddress: 'treasury@masked.test' },
    });
    assert.equal(created.statusCode, 201, created.body);
    clientId = created.json().data._id;
  });
  after(() => testApp?.close());

  const read = (headers: Record<string, string>) =>
    testApp.app.inject({ method: 'GET', url: `/admin/clients/${clientId}`, headers });

  it('a viewer sees the email masked, nested ones included; support sees it whole', async () => {
    const viewer = await operatorWithRoles(testApp, ['viewer']);
    const seen = (await read(viewer.headers)).json().data;
    assert.equal(seen.emailAddress, 't•••@masked.test');
    assert.equal(seen.mainAccount.accountNumber.length, 10);
    const support = await operatorWithRoles(testApp, ['viewer', 'support']);
    assert.equal((await read(support.headers)).json().data.emailAddress, 'treasury@masked.test');
  });

  it('masks numbers to their last four, emails to their first letter and domain', () => {
    assert.equal(maskText('08031234567'), '•••••••4567');
    assert.equal(maskText('22212345678'), '•••••••5678');
    assert.equal(maskText('ada@example.com'), 'a•••@example.com');
    assert.equal(maskText('123'), '••••');
  });
});

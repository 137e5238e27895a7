import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminHeaders } from '../../../test/factories.ts';
import { buildTestApp, TEST_BASE_URL, type TestApp } from '../../../test/harness.ts';
import {
  LOCAL_SIGN_IN_ENV,
  newOperator,
  operatorHeaders,
  setUpSignIn,
} from '../../../test/operator-sign-in-helpers.ts';

describe('POST /admin/operators/:id/setup-link', () => {
  let testApp: TestApp;
  let admin: Record<string, string>;
  let adminId: string;
  before(async () => {
    testApp = await buildTestApp(LOCAL_SIGN_IN_ENV);
    const operator = await newOperator(testApp, 'admin@bank.example', ['admin']);
    adminId = operator.id;
    admin = await operatorHeaders(testApp, operator.id);
  });
  after(() => testApp?.close());
  const post = (id: string, headers: Record<string, string> = admin) =>
    testApp.app.inject({ method: 'POST', url: `/admin/operators/${id}/setup-link`, headers });

  it('201: a one-time link under the public base URL that opens the setup page', async () => {
    const operator = await newOperator(testApp, 'ada@bank.example');
    const response = await post(operator.id);
    assert.equal(response.statusCode, 201, response.body);
    const { operatorId, url, expiresAt } = response.json().data;
    assert.equal(operatorId, operator.id);
    assert.match(url, new RegExp(`^${TEST_BASE_URL}/dashboard/setup/[A-Za-z0-9_-]{43}$`));
    const ttl = testApp.config.operators.localSignIn.setupLinkTtlSeconds;
    assert.equal(Date.parse(expiresAt), testApp.clock.now().getTime() + ttl * 1000);
    const page = await testApp.app.inject({ url: new URL(url).pathname });
    assert.equal(page.statusCode, 200, page.body);
    // Only the ticket's hash is kept.
    const [row] = await testApp.db.query<{ ticket_hash: string }>(
      'SELECT ticket_hash FROM operator_setup_tickets WHERE operator_id = $1',
      [operator.id],
    );
    assert.notEqual(row?.ticket_hash, url.split('/').pop());
    assert.match(row?.ticket_hash ?? '', /^[0-9a-f]{64}$/);
  });

  it('the admin token (break-glass, open in the sandbox) may make one too', async () => {
    const operator = await newOperator(testApp, 'first@bank.example', ['admin']);
    assert.equal((await post(operator.id, adminHeaders)).statusCode, 201);
  });

  it('403 for oneself: another admin must do it', async () => {
    const response = await post(adminId);
    assert.equal(response.statusCode, 403, response.body);
    assert.equal(response.json().code, 'OPERATOR_SELF_SERVICE');
  });

  it('409 for an operator set up already, and for a disabled one', async () => {
    const setUp = await newOperator(testApp, 'bisi@bank.example');
    await setUpSignIn(testApp, setUp.id);
    const already = await post(setUp.id);
    assert.equal(already.statusCode, 409, already.body);
    assert.equal(already.json().code, 'OPERATOR_ALREADY_SET_UP');
    const disabled = await newOperator(testApp, 'chidi@bank.example');
    await testApp.services.operators.setStatus(disabled.id, 'disabled');
    const refused = await post(disabled.id);
    assert.equal(refused.statusCode, 409, refused.body);
    assert.equal(refused.json().code, 'OPERATOR_DISABLED');
  });

  it('400 for an operator that does not exist', async () => {
    const response = await post('opr_nobody');
    assert.equal(response.statusCode, 400, response.body);
    assert.equal(response.json().code, 'RECORD_NOT_FOUND');
  });

  it('403 for an operator without the admin role; 401 without a credential', async () => {
    const target = await newOperator(testApp, 'dayo@bank.example');
    const security = await newOperator(testApp, 'sec@bank.example', ['security', 'support']);
    const refused = await post(target.id, await operatorHeaders(testApp, security.id));
    assert.equal(refused.statusCode, 403, refused.body);
    assert.equal(refused.json().code, 'ROLE_REQUIRED');
    const anonymous = await post(target.id, { authorization: 'Bearer wrong' });
    assert.equal(anonymous.statusCode, 401);
  });
});

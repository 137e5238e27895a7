import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { signedInClient } from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';
import { operatorWithRoles } from '../../test/operators.ts';

describe('the audit trail of operator actions: who, with what, and the record after', () => {
  let testApp: TestApp;
  before(async () => {
    testApp = await buildTestApp();
  });
  after(() => testApp?.close());

  const lastRow = async (action: string) => {
    const rows = await testApp.db.query<{
      actor: string;
      operator_id: string | null;
      session_id: string | null;
      after_state: Record<string, unknown> | null;
    }>(
      `SELECT actor, operator_id, session_id, after_state FROM audit_events
        WHERE action = $1 AND outcome NOT IN ('started') ORDER BY id DESC LIMIT 1`,
      [action],
    );
    return rows[0];
  };

  it('names the authenticated operator and their key, and keeps the account as the freeze left it', async () => {
    const support = await operatorWithRoles(testApp, ['support']);
    const { client } = await signedInClient(testApp, 'Audited Ltd', 0);
    const frozen = await testApp.app.inject({
      method: 'POST',
      url: `/admin/accounts/${client.mainAccountNumber}/freeze`,
      headers: support.headers,
    });
    assert.equal(frozen.statusCode, 200, frozen.body);
    const row = await lastRow('admin.post /admin/accounts/:accountNumber/freeze');
    assert.equal(row?.actor, `operator:${support.email}`);
    assert.equal(row?.operator_id, support.id);
    assert.match(row?.session_id ?? '', /^key:opk_/);
    assert.equal(row?.after_state?.status, 'Frozen');
    assert.equal(row?.after_state?.accountNumber, client.mainAccountNumber);
  });

  it('never keeps a secret the answer carried: an issued key, a webhook secret and URL', async () => {
    const viewer = await operatorWithRoles(testApp, ['viewer']);
    const issued = await testApp.app.inject({
      method: 'POST',
      url: '/admin/operators/me/api-keys',
      headers: viewer.headers,
      payload: { name: 'audited' },
    });
    assert.equal(issued.statusCode, 201, issued.body);
    const token: string = issued.json().data.token;
    const row = await lastRow('admin.post /admin/operators/me/api-keys');
    assert.equal(row?.after_state?.token, '[redacted]');
    assert.equal((row?.after_state?.key as { name?: string } | undefined)?.name, 'audited');
    const security = await operatorWithRoles(testApp, ['security']);
    const { client } = await signedInClient(testApp, 'Hooked Ltd', 1);
    const set = await testApp.app.inject({
      method: 'PUT',
      url: `/admin/clients/${client.ibsClientId}/webhook`,
      headers: security.headers,
      payload: { url: 'https://hooks.example.com/openibs?key=abc' },
    });
    assert.equal(set.statusCode, 200, set.body);
    const hook = await lastRow('admin.put /admin/clients/:id/webhook');
    assert.deepEqual(hook?.after_state, { url: '[redacted]', secret: '[redacted]' });
    const leaked = await testApp.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_events
        WHERE after_state::text LIKE '%' || $1 || '%' OR after_state::text LIKE '%' || $2 || '%'`,
      [token, set.json().data.secret],
    );
    assert.equal(leaked[0]?.n, 0);
  });
});

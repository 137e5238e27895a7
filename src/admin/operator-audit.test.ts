import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { signedInClient } from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';
import { operatorWithRoles } from '../../test/operators.ts';
import { applyFixtures, sampleFixtures } from '../../test/sandbox-fixtures.ts';

describe('the audit trail of operator actions: who, with what, and the record before and after', () => {
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
      before_state: Record<string, unknown> | null;
      after_state: Record<string, unknown> | null;
    }>(
      `SELECT actor, operator_id, session_id, before_state, after_state FROM audit_events
        WHERE action = $1 AND outcome NOT IN ('started') ORDER BY id DESC LIMIT 1`,
      [action],
    );
    return rows[0];
  };
  const rowsOf = async (action: string) => {
    const rows = await testApp.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM audit_events WHERE action = $1',
      [action],
    );
    return rows[0]?.n;
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
    assert.equal(row?.before_state?.status, 'Active');
    assert.equal(row?.before_state?.accountNumber, client.mainAccountNumber);
    const started = await testApp.db.query<{ before_state: { status?: string } | null }>(
      `SELECT before_state FROM audit_events
        WHERE action = $1 AND outcome = 'started' ORDER BY id DESC LIMIT 1`,
      ['admin.post /admin/accounts/:accountNumber/freeze'],
    );
    assert.equal(started[0]?.before_state?.status, 'Active');
    // The before-state's read is the trail's own: it is not a row of its own.
    assert.equal(await rowsOf('admin.get /admin/accounts/:accountNumber'), 0);
  });

  it("keeps the before-state whatever the read route needs: security ends an operator's sessions", async () => {
    const security = await operatorWithRoles(testApp, ['security']);
    const target = await operatorWithRoles(testApp, ['finance']);
    const own = await testApp.app.inject({
      method: 'GET',
      url: `/admin/operators/${target.id}`,
      headers: security.headers,
    });
    assert.equal(own.statusCode, 403, 'reading operators needs the admin role');
    const ended = await testApp.app.inject({
      method: 'POST',
      url: `/admin/operators/${target.id}/sessions/end`,
      headers: security.headers,
    });
    assert.equal(ended.statusCode, 200, ended.body);
    const row = await lastRow('admin.post /admin/operators/:id/sessions/end');
    assert.equal(row?.before_state?.email, target.email);
    assert.deepEqual(row?.before_state?.roles, ['finance']);
  });

  it('records no before-state for what is new, nor a row for a before-state that is not there', async () => {
    const finance = await operatorWithRoles(testApp, ['finance']);
    const released = await testApp.app.inject({
      method: 'POST',
      url: '/admin/liens/0123456789abcdef01234567/release',
      headers: finance.headers,
      payload: { reason: 'No such lien' },
    });
    assert.equal(released.statusCode, 400, released.body);
    assert.equal(released.json().code, 'RECORD_NOT_FOUND');
    const row = await lastRow('admin.post /admin/liens/:id/release');
    assert.equal(row?.before_state, null);
    assert.equal(await rowsOf('admin.get /admin/liens/:id'), 0);
    const admin = await operatorWithRoles(testApp, ['admin']);
    const made = await testApp.app.inject({
      method: 'POST',
      url: '/admin/operators',
      headers: admin.headers,
      payload: { email: 'newcomer@bank.test', displayName: 'Newcomer', roles: ['viewer'] },
    });
    assert.equal(made.statusCode, 201, made.body);
    const creation = await lastRow('admin.post /admin/operators');
    assert.equal(creation?.before_state, null);
    assert.equal(creation?.after_state?.email, 'newcomer@bank.test');
  });

  it('lets no caller from outside past the role check by claiming to be the before-state read', async () => {
    const support = await operatorWithRoles(testApp, ['support']);
    const target = await operatorWithRoles(testApp, ['viewer']);
    const claimed = await testApp.app.inject({
      method: 'GET',
      url: `/admin/operators/${target.id}`,
      headers: { ...support.headers, 'x-openibs-before-read': 'a'.repeat(43) },
    });
    assert.equal(claimed.statusCode, 403, claimed.body);
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
    const changed = await testApp.app.inject({
      method: 'PUT',
      url: `/admin/clients/${client.ibsClientId}/webhook`,
      headers: security.headers,
      payload: { url: 'https://hooks.example.com/openibs?key=def' },
    });
    assert.equal(changed.statusCode, 200, changed.body);
    const second = await lastRow('admin.put /admin/clients/:id/webhook');
    assert.equal(second?.before_state?.url, '[redacted]');
    const leaked = await testApp.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_events
        WHERE concat(before_state::text, after_state::text) LIKE '%' || $1 || '%'
           OR concat(before_state::text, after_state::text) LIKE '%' || $2 || '%'
           OR concat(before_state::text, after_state::text) LIKE '%key=abc%'`,
      [token, set.json().data.secret],
    );
    assert.equal(leaked[0]?.n, 0);
  });

  it("keeps no sandbox fixture's private key from the fixtures a reload replaced", async () => {
    for (let load = 0; load < 2; load += 1) {
      const loaded = await applyFixtures(testApp.app, sampleFixtures());
      assert.equal(loaded.statusCode, 200, loaded.body);
    }
    const row = await lastRow('admin.post /admin/sandbox/fixtures');
    assert.ok(row?.before_state !== null, 'the fixtures in force before the reload are kept');
    assert.doesNotMatch(JSON.stringify(row?.before_state), /PRIVATE KEY/);
    assert.match(JSON.stringify(row?.before_state), /"privateKeyPem":"\[redacted\]"/);
  });
});

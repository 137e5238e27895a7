import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  adminHeaders,
  publicKeyPem,
  rsaKeyPair,
  sandboxCredit,
  signAssertion,
  signedInClient,
} from '../factories.ts';
import { buildTestApp, TEST_SECRETS, type TestApp } from '../harness.ts';

interface AuditRow {
  _id: string;
  at: string;
  actor: string;
  action: string;
  target: string | null;
  outcome: string;
  sourceIp: string | null;
  requestId: string | null;
  details: Record<string, unknown>;
}

/** The audit trail (docs/security.md): append-only, readable by operators, never a secret. */
describe('the audit trail', () => {
  let testApp: TestApp;

  before(async () => {
    testApp = await buildTestApp();
  });
  after(() => testApp.close());

  const admin = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, extra = {}) =>
    testApp.app.inject({
      method,
      url,
      headers: { ...adminHeaders, ...extra },
      remoteAddress: '10.1.2.3',
      ...(payload ? { payload } : {}),
    });
  async function events(query = '') {
    const listed = await admin('GET', `/admin/audit-events?limit=100${query}`);
    assert.equal(listed.statusCode, 200);
    return listed.json() as { data: AuditRow[]; pagination: { total: number } };
  }
  async function allEventsText() {
    const rows = await testApp.db.query<{ row: unknown }>(
      'SELECT to_jsonb(a) AS row FROM audit_events a',
    );
    return JSON.stringify(rows);
  }

  it('records each operator action with who, what, target, outcome, where and when', async () => {
    const { client } = await signedInClient(testApp, 'Audited Ltd');
    const apps = await admin('GET', `/admin/clients/${client.ibsClientId}/apps`);
    const appId = apps.json().data[0]._id as string;
    const before = (await events()).pagination.total;
    const actions: [string, string, string, object?][] = [
      [
        'POST',
        `/admin/clients/${client.ibsClientId}/apps/${appId}/keys`,
        'admin.post /admin/clients/:id/apps/:appId/keys',
        { publicKey: publicKeyPem(rsaKeyPair(1).publicKey) },
      ],
      [
        'PUT',
        `/admin/clients/${client.ibsClientId}/webhook`,
        'admin.put /admin/clients/:id/webhook',
        { url: 'http://127.0.0.1:9/hooks' },
      ],
      [
        'POST',
        `/admin/accounts/${client.mainAccountNumber}/freeze`,
        'admin.post /admin/accounts/:accountNumber/freeze',
      ],
      [
        'POST',
        `/admin/accounts/${client.mainAccountNumber}/unfreeze`,
        'admin.post /admin/accounts/:accountNumber/unfreeze',
      ],
      [
        'POST',
        '/admin/sandbox/credits',
        'admin.post /admin/sandbox/credits',
        { accountNumber: client.mainAccountNumber, amount: 100 },
      ],
      [
        'POST',
        `/admin/clients/${client.ibsClientId}/revoke-tokens`,
        'admin.post /admin/clients/:id/revoke-tokens',
      ],
      [
        'POST',
        `/admin/clients/${client.ibsClientId}/disable`,
        'admin.post /admin/clients/:id/disable',
      ],
      [
        'POST',
        `/admin/clients/${client.ibsClientId}/enable`,
        'admin.post /admin/clients/:id/enable',
      ],
      [
        'POST',
        `/admin/clients/${client.ibsClientId}/apps/${appId}/revoke`,
        'admin.post /admin/clients/:id/apps/:appId/revoke',
      ],
    ];
    for (const [method, url, , payload] of actions) {
      const answer = await admin(method as 'POST', url, payload, { 'x-operator': 'ada.ops' });
      assert.ok(answer.statusCode < 300, `${url}: ${answer.body}`);
    }
    const listed = await events();
    assert.equal(
      listed.pagination.total,
      before + 2 * actions.length,
      'two rows per action (started before it runs, then its outcome), none per read',
    );
    const newest = listed.data.slice(0, 2 * actions.length).reverse();
    actions.forEach(([, , action], index) => {
      const started = newest[2 * index] as AuditRow;
      const done = newest[2 * index + 1] as AuditRow;
      for (const row of [started, done]) {
        assert.equal(row.action, action);
        assert.equal(row.actor, 'break-glass:ada.ops');
        assert.equal(row.sourceIp, '10.1.2.3');
        assert.ok(!Number.isNaN(Date.parse(row.at)));
      }
      assert.equal(started.outcome, 'started');
      assert.match(done.outcome, /^20[01]$/);
      assert.ok(done.requestId);
      assert.equal(started.requestId, done.requestId, 'both rows name the same request');
    });
    assert.equal(newest[5]?.target, client.mainAccountNumber);
    assert.equal(newest[0]?.target, `${client.ibsClientId}/${appId}`);
    assert.match(
      String(newest[1]?.target),
      new RegExp(`^${client.ibsClientId}/${appId}/[0-9a-f]{24}$`),
      'the new key id',
    );
  });

  it('records refused admin calls (a wrong token) but not the token', async () => {
    const wrong = 'not-the-admin-token-but-a-guess-0123456789';
    const answer = await testApp.app.inject({
      method: 'GET',
      url: '/admin/audit-events',
      headers: { authorization: `Bearer ${wrong}` },
    });
    assert.equal(answer.statusCode, 401);
    const [row] = (await events('&action=admin')).data;
    assert.equal(row?.outcome, '401');
    assert.equal(row?.action, 'admin.get /admin/audit-events');
    const text = await allEventsText();
    assert.equal(text.includes(wrong), false);
    assert.equal(text.includes(TEST_SECRETS.adminToken), false);
  });

  it('records failed client assertions and refresh-token reuse as security events', async () => {
    const { client, tokens } = await signedInClient(testApp, 'Reuse Ltd');
    const other = rsaKeyPair(2);
    const forged = await testApp.app.inject({
      method: 'POST',
      url: '/oauth2/token',
      payload: {
        grant_type: 'client_credentials',
        client_id: client.oauthClientId,
        client_assertion: await signAssertion(
          { oauthClientId: client.oauthClientId, privateKey: other.privateKey },
          { now: testApp.clock.now() },
        ),
      },
    });
    assert.equal(forged.statusCode, 401);
    const [failed] = (await events('&action=token.client_authentication_failed')).data;
    assert.equal(failed?.actor, `oauth-client:${client.oauthClientId}`);
    assert.match(String(failed?.details.cause), /signature/);

    const refresh = async () =>
      testApp.app.inject({
        method: 'POST',
        url: '/oauth2/token',
        payload: {
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
          client_id: client.oauthClientId,
          client_assertion: await signAssertion(client, { now: testApp.clock.now() }),
        },
      });
    assert.equal((await refresh()).statusCode, 201);
    assert.equal((await refresh()).statusCode, 400, 'the reuse');
    const [reuse] = (await events('&action=token.refresh_reuse')).data;
    assert.equal(reuse?.outcome, 'family_revoked');
    const text = await allEventsText();
    assert.equal(text.includes(tokens.refresh_token), false);
    assert.equal(text.includes(tokens.access_token), false);
  });

  it('records a client changing its webhook URL or secret, never the secret', async () => {
    const { client, headers } = await signedInClient(testApp, 'Hooks Ltd');
    const changed = await testApp.app.inject({
      method: 'PUT',
      url: '/webhooks/settings',
      headers,
      payload: { url: 'http://127.0.0.1:9/new?token=abc123', rotateSecret: true },
    });
    assert.equal(changed.statusCode, 200);
    const [row] = (await events('&action=webhook')).data;
    assert.equal(row?.actor, `client:${client.ibsClientId}`);
    assert.deepEqual(
      { origin: row?.details.urlOrigin, rotated: row?.details.secretRotated },
      { origin: 'http://127.0.0.1:9', rotated: true },
    );
    const text = await allEventsText();
    assert.equal(text.includes(changed.json().data.secret), false);
    assert.equal(text.includes('abc123'), false);
  });

  it('filters by action area, actor and target, and pages', async () => {
    const byActor = await events('&actor=break-glass:ada.ops');
    assert.ok(byActor.data.length >= 9);
    assert.ok(byActor.data.every((row) => row.actor === 'break-glass:ada.ops'));
    const area = await events('&action=token');
    assert.ok(area.data.length >= 2);
    assert.ok(area.data.every((row) => row.action.startsWith('token.')));
    const page = await admin('GET', '/admin/audit-events?limit=2&page=1');
    assert.equal(page.json().data.length, 2);
    const bad = await admin('GET', '/admin/audit-events?from=yesterday');
    assert.equal(bad.statusCode, 400);
  });

  it('records a call of every admin route that is not a read, whatever its answer', async () => {
    const document = (await testApp.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const routes = Object.entries(document.paths as Record<string, Record<string, unknown>>)
      .filter(([path]) => path.startsWith('/admin'))
      .flatMap(([path, operations]) =>
        Object.keys(operations)
          .filter((method) => method !== 'get')
          .map((method) => ({ method: method.toUpperCase(), path })),
      );
    assert.ok(routes.length >= 18, `${routes.length} admin routes that change something`);
    for (const { method, path } of routes) {
      // Fastify's pattern (`:id`) is what the trail records; the document writes `{id}`.
      const pattern = path.replace(/\{([^}]+)\}/g, ':$1');
      const url = path.replace(/\{[^}]+\}/g, '000000000000000000000000');
      const answer = await admin(method as 'POST', url, {});
      const [row] = (await events()).data;
      assert.equal(row?.action, `admin.${method.toLowerCase()} ${pattern}`, `${method} ${path}`);
      assert.equal(row?.outcome, String(answer.statusCode));
    }
  });

  it('records refused admin calls whatever their path holds: U+0000, lone surrogates, bytes that are not UTF-8', async () => {
    const wrong = { authorization: 'Bearer not-the-admin-token' };
    const attempts: [string, string | undefined][] = [
      ['/admin/clients/%00/disable', '\\u0000'],
      ['/admin/accounts/%00/freeze', '\\u0000'],
      ['/admin/clients/a%00b/apps', 'a\\u0000b'],
      ['/admin/accounts/%ED%A0%80/freeze', undefined],
      ['/admin/accounts/%C0%80/unfreeze', undefined],
      [`/admin/clients/${'a'.repeat(101)}/disable`, undefined],
    ];
    for (const [url, shown] of attempts) {
      const answer = await testApp.app.inject({ method: 'POST', url, headers: wrong });
      assert.ok(answer.statusCode >= 400 && answer.statusCode < 500, `${url}: ${answer.body}`);
      const rows = await testApp.db.query<{ action: string; outcome: string; target: string }>(
        'SELECT action, outcome, target FROM audit_events WHERE request_id = $1',
        [answer.headers['x-request-id'] as string],
      );
      assert.equal(rows.length, 1, `${url}: one row for the refused call`);
      assert.match(String(rows[0]?.action), /^admin\.post /, url);
      assert.equal(rows[0]?.outcome, String(answer.statusCode), url);
      if (shown !== undefined) {
        assert.equal(rows[0]?.target, shown, `${url}: the hostile character is shown escaped`);
      }
    }
  });

  it('an operator action whose row cannot be written is refused and does not happen', async () => {
    const { client } = await signedInClient(testApp, 'Unrecorded Ltd');
    // The database itself refuses this operator's rows, as a full disk or a revoked grant would.
    await testApp.db.exec(`
      CREATE FUNCTION audit_events_refuse_test() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.actor = 'break-glass:unrecorded' THEN RAISE EXCEPTION 'audit write refused'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER audit_events_refuse_test BEFORE INSERT ON audit_events
        FOR EACH ROW EXECUTE FUNCTION audit_events_refuse_test();`);
    try {
      const frozen = await admin(
        'POST',
        `/admin/accounts/${client.mainAccountNumber}/freeze`,
        undefined,
        { 'x-operator': 'unrecorded' },
      );
      assert.equal(frozen.statusCode, 503, frozen.body);
      assert.equal(frozen.json().code, 'AUDIT_TRAIL_UNAVAILABLE');
      const disabled = await admin(
        'POST',
        `/admin/clients/${client.ibsClientId}/disable`,
        undefined,
        {
          'x-operator': 'unrecorded',
        },
      );
      assert.equal(disabled.statusCode, 503, disabled.body);
    } finally {
      await testApp.db.exec(`
        DROP TRIGGER audit_events_refuse_test ON audit_events;
        DROP FUNCTION audit_events_refuse_test();`);
    }
    const accounts = await admin(
      'GET',
      `/admin/clients/${client.ibsClientId}/accounts?accountNumber=${client.mainAccountNumber}`,
    );
    assert.equal(accounts.json().data[0]?.status, 'Active', 'the account was not frozen');
    const access = await admin('GET', `/admin/clients/${client.ibsClientId}/access`);
    assert.equal(access.json().data.status, 'Active', 'the client was not disabled');
  });

  it('is append-only: the database refuses to change or delete a row', async () => {
    await sandboxCredit(
      testApp.app,
      (await signedInClient(testApp, 'Append Ltd')).client.mainAccountNumber,
      1,
    );
    await assert.rejects(
      testApp.db.query("UPDATE audit_events SET actor = 'someone else'"),
      /append-only/,
    );
    await assert.rejects(testApp.db.query('DELETE FROM audit_events'), /append-only/);
    await assert.rejects(testApp.db.query('TRUNCATE audit_events'), /append-only/);
  });

  it('records a lockout once when a limit is reached, not once per refused request', async () => {
    const limited = await buildTestApp({ RATE_LIMIT_ADMIN_FAILURES_PER_MINUTE_PER_IP: '2' });
    try {
      for (let attempt = 0; attempt < 6; attempt += 1) {
        await limited.app.inject({
          method: 'GET',
          url: '/admin/audit-events',
          headers: { authorization: 'Bearer guess' },
          remoteAddress: '192.0.2.7',
        });
      }
      const listed = await limited.app.inject({
        method: 'GET',
        url: '/admin/audit-events?action=security.rate_limited',
        headers: adminHeaders,
      });
      const rows = listed.json().data as AuditRow[];
      assert.equal(rows.length, 1);
      assert.equal(rows[0]?.target, 'admin-failures');
      assert.equal(rows[0]?.sourceIp, '192.0.2.7');
    } finally {
      await limited.close();
    }
  });
});

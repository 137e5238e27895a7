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
      before + actions.length,
      'one row per action, none per read',
    );
    const newest = listed.data.slice(0, actions.length).reverse();
    newest.forEach((row, index) => {
      const [, , action] = actions[index] as [string, string, string];
      assert.equal(row.action, action);
      assert.equal(row.actor, 'operator:ada.ops');
      assert.match(row.outcome, /^20[01]$/);
      assert.equal(row.sourceIp, '10.1.2.3');
      assert.ok(row.requestId);
      assert.ok(!Number.isNaN(Date.parse(row.at)));
    });
    assert.equal(newest[2]?.target, client.mainAccountNumber);
    assert.match(
      String(newest[0]?.target),
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
    const byActor = await events('&actor=operator:ada.ops');
    assert.ok(byActor.data.length >= 9);
    assert.ok(byActor.data.every((row) => row.actor === 'operator:ada.ops'));
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

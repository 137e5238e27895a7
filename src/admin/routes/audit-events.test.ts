import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminHeaders, createClient } from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';

describe('GET /admin/audit-events', () => {
  let testApp: TestApp;
  let clientId: string;
  before(async () => {
    testApp = await buildTestApp();
    clientId = (await createClient(testApp.app, 'Acme Ltd', 0)).ibsClientId;
    const disabled = await testApp.app.inject({
      method: 'POST',
      url: `/admin/clients/${clientId}/disable`,
      headers: { ...adminHeaders, 'x-operator': 'ngozi' },
    });
    assert.equal(disabled.statusCode, 200, disabled.body);
  });
  after(() => testApp?.close());
  const get = (query: string, headers: Record<string, string> = adminHeaders) =>
    testApp.app.inject({ url: `/admin/audit-events${query}`, headers });

  it('200: the operator action, filtered by action, with who, target and outcome', async () => {
    const response = await get('?action=admin.post%20%2Fadmin%2Fclients%2F%3Aid%2Fdisable');
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json();
    // One row when the action starts, one with its answer; newest first.
    assert.equal(body.pagination.total, 2);
    assert.deepEqual(
      body.data.map((event: { outcome: string }) => event.outcome),
      ['200', 'started'],
    );
    for (const event of body.data) {
      assert.equal(event.action, 'admin.post /admin/clients/:id/disable');
      assert.equal(event.actor, 'break-glass:ngozi');
      assert.equal(event.target, clientId);
      assert.deepEqual(event.details, { params: { id: clientId } });
      assert.equal(event.at, testApp.clock.now().toISOString());
    }
    assert.equal(body.data[0].requestId, body.data[1].requestId);
  });

  it('200: filters by actor and target, pages, and an unmatched filter finds nothing', async () => {
    const byActor = (await get('?actor=break-glass:ngozi&limit=100')).json();
    assert.ok(byActor.data.length >= 1);
    for (const event of byActor.data) {
      assert.equal(event.actor, 'break-glass:ngozi');
    }
    const byTarget = (await get(`?target=${clientId}&limit=100`)).json();
    assert.ok(byTarget.data.length >= 1);
    for (const event of byTarget.data) {
      assert.equal(event.target, clientId);
    }
    const none = (await get('?actor=break-glass:nobody')).json();
    assert.deepEqual(none.data, []);
    assert.equal(none.pagination.total, 0);
    const paged = (await get('?limit=1&page=0')).json();
    assert.equal(paged.data.length, 1);
    assert.equal(paged.pagination.limit, '1');
    assert.equal(paged.pagination.page, '0');
    assert.ok(paged.pagination.total >= 2);
  });

  it('400 for a malformed date and for a limit out of range', async () => {
    for (const query of ['?from=yesterday', '?limit=0', '?limit=abc']) {
      const response = await get(query);
      assert.equal(response.statusCode, 400, `${query}: ${response.body}`);
    }
  });

  it('401 without the admin token', async () => {
    const response = await get('', { authorization: 'Bearer wrong' });
    assert.equal(response.statusCode, 401);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adminHeaders } from '../../../test/factories.ts';
import { operatorWithRoles } from '../../../test/operators.ts';
import { describeAdminAuthGuards, useRouteContext } from '../../../test/shared-route-tests.ts';

describe('GET /admin/alerts/suppressed-destinations', () => {
  const context = useRouteContext();

  it('200: the destinations refused for good, newest first, paged', async () => {
    const { testApp } = context();
    for (const [destination, at] of [
      ['gone@customer.example', '2026-01-01T00:00:00Z'],
      ['+2348030000001', '2026-01-02T00:00:00Z'],
    ] as const) {
      await testApp.db.query(
        `INSERT INTO alert_suppressed_destinations (channel, destination, reason, created_at)
         VALUES ($1, $2, '550 no such mailbox', $3)`,
        [destination.includes('@') ? 'email' : 'sms', destination, at],
      );
    }
    const read = await testApp.app.inject({
      url: '/admin/alerts/suppressed-destinations?limit=1',
      headers: adminHeaders,
    });
    assert.equal(read.statusCode, 200, read.body);
    assert.deepEqual(read.json().data, [
      {
        channel: 'sms',
        destination: '+2348030000001',
        reason: '550 no such mailbox',
        createdAt: '2026-01-02T00:00:00.000Z',
      },
    ]);
    assert.equal(read.json().pagination.total, 2);
  });

  it('403 to an operator without the support role', async () => {
    const { testApp } = context();
    const viewer = await operatorWithRoles(testApp, ['viewer']);
    const read = await testApp.app.inject({
      url: '/admin/alerts/suppressed-destinations',
      headers: viewer.headers,
    });
    assert.equal(read.statusCode, 403, read.body);
  });

  describeAdminAuthGuards(context, () => ({
    method: 'GET',
    url: '/admin/alerts/suppressed-destinations',
  }));
});

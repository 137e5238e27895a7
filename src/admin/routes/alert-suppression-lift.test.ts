import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adminHeaders } from '../../../test/factories.ts';
import { describeAdminAuthGuards, useRouteContext } from '../../../test/shared-route-tests.ts';

describe('POST /admin/alerts/suppressed-destinations/lift', () => {
  const context = useRouteContext();
  const lift = (payload: unknown) =>
    context().testApp.app.inject({
      method: 'POST',
      url: '/admin/alerts/suppressed-destinations/lift',
      headers: adminHeaders,
      payload: payload as object,
    });

  it('200: the destination is no longer suppressed; answers the suppression as it was', async () => {
    const { testApp } = context();
    await testApp.db.query(
      `INSERT INTO alert_suppressed_destinations (channel, destination, reason, created_at)
       VALUES ('email', 'fixed@customer.example', '550 mailbox full for good', $1)`,
      [testApp.clock.now()],
    );
    const lifted = await lift({ channel: 'email', destination: 'fixed@customer.example' });
    assert.equal(lifted.statusCode, 200, lifted.body);
    assert.equal(lifted.json().data.reason, '550 mailbox full for good');
    const left = await testApp.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM alert_suppressed_destinations WHERE destination = 'fixed@customer.example'",
    );
    assert.equal(left[0]?.n, 0);
    const again = await lift({ channel: 'email', destination: 'fixed@customer.example' });
    assert.equal(again.statusCode, 400, again.body);
    assert.equal(again.json().code, 'RECORD_NOT_FOUND');
  });

  it('400 for a channel it does not know or no destination, nothing lifted', async () => {
    for (const body of [
      { channel: 'fax', destination: 'x' },
      { channel: 'sms', destination: '' },
      { channel: 'sms' },
    ]) {
      const refused = await lift(body);
      assert.equal(refused.statusCode, 400, refused.body);
    }
  });

  describeAdminAuthGuards(context, () => ({
    method: 'POST',
    url: '/admin/alerts/suppressed-destinations/lift',
    payload: { channel: 'sms', destination: '+2348030000002' },
  }));
});

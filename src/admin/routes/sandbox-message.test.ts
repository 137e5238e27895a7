import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { adminHeaders, sandboxCredit } from '../../../test/factories.ts';
import { inProduction } from '../../../test/sandbox-controls.ts';
import { describeAdminAuthGuards, useRouteContext } from '../../../test/shared-route-tests.ts';

describe('GET /admin/sandbox/messages/:id', () => {
  const context = useRouteContext();
  let messageId = '';

  before(async () => {
    const { testApp, ibsClientId, ownAccountNumber } = context();
    await testApp.db.query('UPDATE clients SET email_address = $2 WHERE id = $1', [
      ibsClientId,
      'one@example.test',
    ]);
    await sandboxCredit(testApp.app, ownAccountNumber, 900);
    await testApp.services.alertComposer.composeBatch();
    const listed = await testApp.app.inject({
      method: 'GET',
      url: `/admin/sandbox/messages?accountNumber=${ownAccountNumber}&channel=email`,
      headers: adminHeaders,
    });
    messageId = (listed.json().data as { _id: string }[])[0]?._id ?? '';
    assert.ok(messageId !== '', listed.body);
  });

  const get = (id: string) =>
    context().testApp.app.inject({
      method: 'GET',
      url: `/admin/sandbox/messages/${encodeURIComponent(id)}`,
      headers: adminHeaders,
    });

  describe('200: the message', () => {
    it('answers the email with its text and HTML, still pending before the worker sends it', async () => {
      const answer = await get(messageId);
      assert.equal(answer.statusCode, 200, answer.body);
      const message = answer.json().data;
      assert.equal(message._id, messageId);
      assert.equal(message.status, 'pending');
      assert.match(message.body, /₦900\.00/);
      assert.match(message.html, /₦900\.00/);
    });
  });

  describe('400 "Unable to locate record": an unknown id', () => {
    for (const id of ['al0000', 'not an id', "' OR '1'='1"]) {
      it(`answers RECORD_NOT_FOUND for ${JSON.stringify(id)}`, async () => {
        const answer = await get(id);
        assert.equal(answer.statusCode, 400, answer.body);
        assert.equal(answer.json().code, 'RECORD_NOT_FOUND');
      });
    }
  });

  describe('403: sandbox only', () => {
    it('production keeps no inbox', async () => {
      const [answer] = await inProduction([
        { method: 'GET', url: '/admin/sandbox/messages/al0000' },
      ]);
      assert.equal(answer?.statusCode, 403, answer?.body);
      assert.equal(answer?.json().code, 'SANDBOX_ONLY');
    });
  });

  describeAdminAuthGuards(context, () => ({
    method: 'GET',
    url: '/admin/sandbox/messages/al0000',
  }));
});

import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { adminHeaders, sandboxCredit } from '../../../test/factories.ts';
import { inProduction } from '../../../test/sandbox-controls.ts';
import { describeAdminAuthGuards, useRouteContext } from '../../../test/shared-route-tests.ts';

interface Message {
  _id: string;
  accountNumber: string;
  channel: string;
  to: string;
  status: string;
  subject: string | null;
  body: string;
  html: string | null;
}

describe('GET /admin/sandbox/messages', () => {
  const context = useRouteContext();

  before(async () => {
    const { testApp, ibsClientId, ownAccountNumber } = context();
    await testApp.db.query('UPDATE clients SET email_address = $2 WHERE id = $1', [
      ibsClientId,
      'acme@example.test',
    ]);
    await sandboxCredit(testApp.app, ownAccountNumber, 700);
    // The worker's two steps, as the server runs them; the sandbox keeps the email unsent.
    await testApp.services.alertComposer.composeBatch();
    await testApp.services.alertDelivery.sendBatch();
  });

  const list = (query: string) =>
    context().testApp.app.inject({
      method: 'GET',
      url: `/admin/sandbox/messages${query}`,
      headers: adminHeaders,
    });

  describe('200: the messages, newest first, by account and channel', () => {
    it("lists the account's alert email as rendered, sent", async () => {
      const answer = await list(`?accountNumber=${context().ownAccountNumber}`);
      assert.equal(answer.statusCode, 200, answer.body);
      const messages = answer.json().data as Message[];
      const email = messages.find((m) => m.channel === 'email' && /₦700\.00/.test(m.body));
      assert.ok(email !== undefined, answer.body);
      assert.equal(email.to, 'acme@example.test');
      assert.equal(email.status, 'sent');
      assert.match(email.subject ?? '', /^OpenIBS Credit alert: ₦700\.00$/);
      assert.match(email.html ?? '', /<html/);
    });
    it('filters by channel: the main account has no phone, so no SMS', async () => {
      const answer = await list(`?accountNumber=${context().ownAccountNumber}&channel=sms`);
      assert.equal(answer.statusCode, 200, answer.body);
      assert.deepEqual(answer.json().data, []);
    });
    it("another account's messages are not listed under this one", async () => {
      const answer = await list('?accountNumber=0000000000');
      assert.deepEqual(answer.json().data, []);
    });
  });

  describe('400: a malformed filter', () => {
    it('refuses a channel it does not know and a number that is not 10 digits', async () => {
      assert.equal((await list('?channel=fax')).statusCode, 400);
      assert.equal((await list('?accountNumber=12')).statusCode, 400);
    });
  });

  describe('403: sandbox only', () => {
    it('production keeps no inbox: reading it is refused', async () => {
      const [answer] = await inProduction([{ method: 'GET', url: '/admin/sandbox/messages' }]);
      assert.equal(answer?.statusCode, 403, answer?.body);
      assert.equal(answer?.json().code, 'SANDBOX_ONLY');
    });
  });

  describeAdminAuthGuards(context, () => ({ method: 'GET', url: '/admin/sandbox/messages' }));
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminHeaders, createClient, sandboxCredit } from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';

describe('GET /admin/accounts/:accountNumber', () => {
  let testApp: TestApp;
  let client: Awaited<ReturnType<typeof createClient>>;
  before(async () => {
    testApp = await buildTestApp();
    client = await createClient(testApp.app, 'Acme Ltd', 0);
    await sandboxCredit(testApp.app, client.mainAccountNumber, 2500);
  });
  after(() => testApp?.close());
  const get = (accountNumber: string, headers: Record<string, string> = adminHeaders) =>
    testApp.app.inject({ url: `/admin/accounts/${accountNumber}`, headers });

  it("200: any client's account by number, with its balance, as the client sees it", async () => {
    const response = await get(client.mainAccountNumber);
    assert.equal(response.statusCode, 200, response.body);
    const account = response.json().data;
    assert.equal(account.accountNumber, client.mainAccountNumber);
    assert.equal(account._id, client.mainAccountId);
    assert.equal(account.accountBalance, 2500);
  });

  it('400 for an unknown number, and for one that is not ten digits', async () => {
    for (const number of ['0000000000', '12345']) {
      const response = await get(number);
      assert.equal(response.statusCode, 400, response.body);
    }
  });

  it('401 without the admin token', async () => {
    const response = await get(client.mainAccountNumber, { authorization: 'Bearer wrong' });
    assert.equal(response.statusCode, 401);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DashboardBrowser } from '../../../test/dashboard-browser.ts';
import { adminHeaders } from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';

describe('POST /admin/dashboard/sessions/end-all', () => {
  let testApp: TestApp;
  before(async () => {
    testApp = await buildTestApp();
  });
  after(async () => testApp?.close());

  const endAll = (headers: Record<string, string>, extra: Record<string, unknown> = {}) =>
    testApp.app.inject({
      method: 'POST',
      url: '/admin/dashboard/sessions/end-all',
      headers,
      ...extra,
    });
  const signedIn = async (operator: string) => {
    const browser = new DashboardBrowser(testApp.app);
    await browser.signIn(operator);
    assert.equal((await browser.get('/dashboard')).statusCode, 200);
    return browser;
  };

  it('200: signs every operator out and counts the sessions it ended', async () => {
    const one = await signedIn('ada');
    const two = await signedIn('bola');
    const response = await endAll(adminHeaders);
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json();
    assert.equal(body.message, 'Dashboard sessions ended.');
    assert.equal(body.data.ended, 2);
    const page = await one.get('/dashboard');
    assert.equal(page.statusCode, 303);
    assert.match(String(page.headers.location), /\/dashboard\/login/);
    assert.equal((await two.get('/dashboard')).statusCode, 303);
  });

  it('200 with ended 0 when no session is open, and a new sign-in works afterwards', async () => {
    const response = await endAll(adminHeaders);
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json().data.ended, 0);
    await signedIn('chidi');
  });

  it('400: a malformed JSON body ends no session', async () => {
    const browser = await signedIn('dayo');
    const response = await endAll(
      { ...adminHeaders, 'content-type': 'application/json' },
      { payload: '{"not json' },
    );
    assert.equal(response.statusCode, 400, response.body);
    assert.equal((await browser.get('/dashboard')).statusCode, 200);
  });

  for (const [label, headers] of [
    ['without an Authorization header', {}],
    ['with a wrong admin token', { authorization: 'Bearer wrong-token' }],
  ] as const) {
    it(`401 ${label}: every session stays open`, async () => {
      const browser = await signedIn('efe');
      const response = await endAll(headers);
      assert.equal(response.statusCode, 401, response.body);
      assert.equal(response.json().error, 'Unauthorized');
      assert.equal((await browser.get('/dashboard')).statusCode, 200);
    });
  }
});

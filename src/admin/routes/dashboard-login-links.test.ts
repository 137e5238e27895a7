import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminHeaders } from '../../../test/factories.ts';
import { buildTestApp, TEST_BASE_URL, type TestApp } from '../../../test/harness.ts';

describe('POST /admin/dashboard/login-links', () => {
  let testApp: TestApp;
  before(async () => {
    testApp = await buildTestApp();
  });
  after(() => testApp?.close());
  const post = (headers: Record<string, string> = adminHeaders) =>
    testApp.app.inject({ method: 'POST', url: '/admin/dashboard/login-links', headers });

  it('201: a one-time link under the public base URL that signs in once', async () => {
    const response = await post();
    assert.equal(response.statusCode, 201, response.body);
    const { url, expiresAt } = response.json().data;
    assert.ok(url.startsWith(`${TEST_BASE_URL}/dashboard/login/`), url);
    assert.ok(Date.parse(expiresAt) > testApp.clock.now().getTime(), expiresAt);
    const path = new URL(url).pathname;
    const first = await testApp.app.inject({ url: path });
    assert.equal(first.statusCode, 303, first.body);
    assert.equal(first.headers.location, '/dashboard');
    const again = await testApp.app.inject({ url: path });
    assert.equal(again.statusCode, 401, again.body);
  });

  it('each call makes a different link', async () => {
    const first = (await post()).json().data.url;
    const second = (await post()).json().data.url;
    assert.notEqual(first, second);
  });

  // The route takes no id or body, so it has no 400; a made-up ticket signs nobody in.
  it('401 for a ticket that was never issued', async () => {
    const response = await testApp.app.inject({ url: '/dashboard/login/not-a-ticket' });
    assert.equal(response.statusCode, 401, response.body);
  });

  it('401 without the admin token', async () => {
    const response = await post({ authorization: 'Bearer wrong' });
    assert.equal(response.statusCode, 401);
    assert.equal(response.json().data, undefined);
  });
});

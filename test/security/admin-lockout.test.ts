/**
 * The admin token lockout: an address that has spent its wrong guesses (the admin API's and the
 * dashboard sign-in's, one allowance) is refused 429 with Retry-After on every admin request and
 * every sign-in until the window ends, the right token included: the token is not compared, so
 * guessing runs at the failure limit's pace, not at the admin API's.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { DashboardBrowser } from '../dashboard-browser.ts';
import { adminHeaders } from '../factories.ts';
import { buildTestApp, TEST_SECRETS, type TestApp } from '../harness.ts';

const FAILURES = 3;

function assertLockedOut(response: LightMyRequestResponse, label: string) {
  assert.equal(response.statusCode, 429, `${label}: ${response.statusCode} ${response.body}`);
  const seconds = Number(response.headers['retry-after']);
  assert.ok(Number.isInteger(seconds) && seconds >= 1 && seconds <= 60, `${label}: ${seconds}`);
}

describe('the admin lockout', () => {
  let testApp: TestApp;

  before(async () => {
    testApp = await buildTestApp({
      RATE_LIMIT_ADMIN_PER_MINUTE_PER_IP: '1000',
      RATE_LIMIT_ADMIN_FAILURES_PER_MINUTE_PER_IP: String(FAILURES),
    });
  });
  after(() => testApp?.close());

  const admin = (remoteAddress: string, authorization: string) =>
    testApp.app.inject({
      method: 'GET',
      url: '/admin/clients?page=0&limit=1',
      remoteAddress,
      headers: { authorization },
    });

  it('admin API: once an address has spent its wrong tokens, the right one is refused too', async () => {
    for (let index = 0; index < FAILURES; index++) {
      assert.equal((await admin('198.51.100.20', 'Bearer guess')).statusCode, 401);
    }
    assertLockedOut(await admin('198.51.100.20', adminHeaders.authorization), 'the right token');
    assertLockedOut(await admin('198.51.100.20', 'Bearer guess'), 'another guess');
    assertLockedOut(await admin('198.51.100.20', ''), 'no token at all');
    const answer = await admin('198.51.100.20', adminHeaders.authorization);
    assert.equal(answer.json().code, 'RATE_LIMITED');
    // Another address is not locked out by this one.
    assert.equal((await admin('198.51.100.21', adminHeaders.authorization)).statusCode, 200);
  });

  it('asking whether an address is locked counts nothing: the right token never locks it', async () => {
    for (let index = 0; index < FAILURES * 5; index++) {
      assert.equal((await admin('198.51.100.22', adminHeaders.authorization)).statusCode, 200);
    }
  });

  it('dashboard sign-in: past the limit the right token gets a 429 page with Retry-After and no session', async () => {
    const browser = new DashboardBrowser(testApp.app, '198.51.100.30');
    await browser.get('/dashboard/login');
    for (let index = 0; index < FAILURES; index++) {
      const wrong = await browser.post('/dashboard/login', { adminToken: 'guess', operator: 'x' });
      assert.equal(wrong.statusCode, 401, wrong.body);
    }
    const wrongAgain = await browser.post('/dashboard/login', {
      adminToken: 'guess',
      operator: 'x',
    });
    assertLockedOut(wrongAgain, 'a fourth wrong token at sign-in');
    assert.match(String(wrongAgain.headers['content-type']), /^text\/html/);
    assert.match(wrongAgain.body, /Error 429/);
    const right = await browser.post('/dashboard/login', {
      adminToken: TEST_SECRETS.adminToken,
      operator: 'x',
    });
    assertLockedOut(right, 'the right token at sign-in');
    assert.match(right.body, /Too many/);
    assert.equal(browser.cookies.has('openibs_dashboard'), false);
    // One allowance for both doors: the admin API is locked for this address as well.
    assertLockedOut(await admin('198.51.100.30', adminHeaders.authorization), 'admin API');
  });

  it('a one-click link from a locked address is refused and stays unspent', async () => {
    for (let index = 0; index < FAILURES; index++) {
      await admin('198.51.100.40', 'Bearer guess');
    }
    const { ticket } = testApp.services.dashboardLoginLinks.issue();
    const locked = new DashboardBrowser(testApp.app, '198.51.100.40');
    assertLockedOut(await locked.get(`/dashboard/login/${ticket}`), 'a link from a locked address');
    const elsewhere = new DashboardBrowser(testApp.app, '198.51.100.41');
    assert.equal((await elsewhere.get(`/dashboard/login/${ticket}`)).statusCode, 303);
  });

  it('the lockout is one row in the audit trail, not one per refused request', async () => {
    const events = await testApp.services.auditLog.list({
      action: 'security.rate_limited',
      offset: 0,
      limit: 100,
    });
    const fromFirst = events.events.filter((event) => event.sourceIp === '198.51.100.20');
    assert.equal(fromFirst.length, 1, JSON.stringify(fromFirst));
    assert.equal(fromFirst[0]?.outcome, 'locked_out');
  });
});

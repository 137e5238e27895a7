/**
 * Dashboard sessions end on the server: a cookie copied before sign-out (by a shared machine, a
 * proxy log, malware) is no session after it, on this server process and on any other one on
 * the same database. The operator API ends every session at once, and a new admin token ends
 * them too.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { createServices } from '../../src/services.ts';
import { DashboardBrowser } from '../dashboard-browser.ts';
import { adminHeaders } from '../factories.ts';
import { buildSecondApp, buildTestApp, TEST_SECRETS, type TestApp } from '../harness.ts';

/** A browser on `app` holding a copy of another browser's cookies. */
function copyOf(browser: DashboardBrowser, app: FastifyInstance): DashboardBrowser {
  const copy = new DashboardBrowser(app);
  for (const [name, value] of browser.cookies) {
    copy.cookies.set(name, value);
  }
  copy.csrf = browser.csrf;
  return copy;
}

describe('dashboard sessions end on the server, on every process', () => {
  let testApp: TestApp;
  let second: FastifyInstance;

  before(async () => {
    testApp = await buildTestApp();
    second = await buildSecondApp(testApp);
  });
  after(async () => {
    await second?.close();
    await testApp?.close();
  });

  it('a cookie copied before sign-out is no session after it, here and on another process', async () => {
    const browser = new DashboardBrowser(testApp.app);
    await browser.signIn('alice');
    const stolenHere = copyOf(browser, testApp.app);
    const stolenThere = copyOf(browser, second);
    assert.equal((await stolenHere.get('/dashboard')).statusCode, 200);
    assert.equal((await stolenThere.get('/dashboard')).statusCode, 200, 'the session is shared');

    const out = await browser.post('/dashboard/logout');
    assert.equal(out.statusCode, 303);

    for (const [label, stolen] of [
      ['this process', stolenHere],
      ['another process', stolenThere],
    ] as const) {
      const page = await stolen.get('/dashboard');
      assert.equal(page.statusCode, 303, label);
      assert.equal(page.headers.location, '/dashboard/login', label);
      const live = await stolen.get('/dashboard/clients', { 'x-dashboard-live': '1' });
      assert.equal(live.statusCode, 401, label);
      const action = await stolen.post('/dashboard/clients', { name: 'After Sign-out Ltd' });
      assert.equal(action.statusCode, 401, label);
    }
  });

  it('signing out on one process ends the session on the other', async () => {
    const browser = new DashboardBrowser(testApp.app);
    await browser.signIn('bob');
    const there = copyOf(browser, second);
    assert.equal((await there.post('/dashboard/logout')).statusCode, 303);
    assert.equal((await browser.get('/dashboard')).statusCode, 303);
  });

  it('the operator API ends every dashboard session at once, recorded in the audit trail', async () => {
    const one = new DashboardBrowser(testApp.app);
    await one.signIn('carol');
    const two = new DashboardBrowser(second);
    await two.signIn('dave');
    const ended = await testApp.app.inject({
      method: 'POST',
      url: '/admin/dashboard/sessions/end-all',
      headers: { ...adminHeaders, 'x-operator': 'security-desk' },
    });
    assert.equal(ended.statusCode, 200, ended.body);
    assert.ok(ended.json().data.ended >= 2, ended.body);
    assert.equal((await one.get('/dashboard')).statusCode, 303);
    assert.equal((await two.get('/dashboard')).statusCode, 303);
    const events = await testApp.services.auditLog.list({
      action: 'admin.post /admin/dashboard/sessions/end-all',
      offset: 0,
      limit: 10,
    });
    assert.equal(events.events[0]?.actor, 'break-glass:security-desk');
    assert.equal(events.events[0]?.outcome, '200');
    // A new sign-in afterwards works as before.
    await one.signIn('carol');
    assert.equal((await one.get('/dashboard')).statusCode, 200);
  });

  it('ending every session needs the admin token', async () => {
    const answer = await testApp.app.inject({
      method: 'POST',
      url: '/admin/dashboard/sessions/end-all',
    });
    assert.equal(answer.statusCode, 401);
  });

  it('a new admin token ends every session', async () => {
    const browser = new DashboardBrowser(testApp.app);
    await browser.signIn('erin');
    const secrets = { ...TEST_SECRETS, adminToken: 'rotated-admin-token-0123456789abcdefghijklm' };
    const services = createServices({
      config: testApp.config,
      db: testApp.db,
      clock: testApp.clock,
      secrets,
    });
    const rotated = await buildApp({
      config: testApp.config,
      services,
      db: testApp.db,
      clock: testApp.clock,
      secrets,
    });
    try {
      assert.equal((await copyOf(browser, rotated).get('/dashboard')).statusCode, 303);
    } finally {
      await rotated.close();
    }
  });
});

/**
 * The audit trail page: the events the admin API answers, newest first, filtered by who, what
 * and target, a page at a time.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminAnswer, column, DashboardBrowser } from '../../../test/dashboard-browser.ts';
import { adminHeaders } from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';

describe('dashboard: audit trail', () => {
  let testApp: TestApp;
  let browser: DashboardBrowser;

  /** An operator action of `operator`, recorded in the audit trail. */
  const queueOutcome = (operator: string) =>
    testApp.app.inject({
      method: 'POST',
      url: '/admin/sandbox/nip/next-outcome',
      headers: { ...adminHeaders, 'x-operator': operator },
      payload: { responseCode: '00' },
    });

  before(async () => {
    testApp = await buildTestApp();
    browser = new DashboardBrowser(testApp.app);
    await browser.signIn('ada');
    // Each action is two events (started, then its outcome): 52, with the sign-in 53.
    for (let made = 0; made < 26; made += 1) {
      await queueOutcome(made % 2 === 0 ? 'tunde' : 'bisi');
    }
  });
  after(async () => testApp?.close());

  it('shows the events the admin API answers, newest first', async () => {
    const page = await browser.get('/dashboard/audit');
    assert.equal(page.statusCode, 200, page.body);
    const events = (await adminAnswer(testApp.app, '/admin/audit-events?page=0&limit=50')).data;
    assert.deepEqual(
      column(page.body, 'Who'),
      events.map((event: { actor: string }) => event.actor),
    );
    assert.deepEqual(
      column(page.body, 'What'),
      events.map((event: { action: string }) => event.action),
    );
    assert.match(page.body, /Page 1 of 2 \(\d+ in all\)/);
    assert.match(page.body, /href="\/dashboard\/audit\?page=1" rel="next"/);
  });

  it('filters by who and keeps the filter on the next page', async () => {
    const page = await browser.get('/dashboard/audit?actor=break-glass:tunde');
    const who = column(page.body, 'Who');
    assert.equal(who.length, 26);
    assert.ok(who.every((actor) => actor === 'break-glass:tunde'));
    assert.match(page.body, /value="break-glass:tunde"/);
    const signIns = await browser.get('/dashboard/audit?action=dashboard');
    assert.deepEqual(column(signIns.body, 'What'), ['dashboard.sign-in']);
    assert.deepEqual(column(signIns.body, 'Who'), ['break-glass:ada']);
  });

  it('a filter that matches nothing says so', async () => {
    const page = await browser.get('/dashboard/audit?actor=break-glass:nobody');
    assert.match(page.body, /Nothing matches\./);
  });
});

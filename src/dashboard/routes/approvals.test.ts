/**
 * The approvals queue: the pending requests with who asked, what, on what and when, and the
 * Approve and Reject buttons; linked from the main navigation.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { column } from '../../../test/dashboard-browser.ts';
import {
  frozenAccount,
  operatorBrowser,
  requestUnfreeze,
  useFourEyesContext,
} from '../../../test/four-eyes.ts';

describe('dashboard: the approvals queue', () => {
  const context = useFourEyesContext();

  it('lists what waits, who asked and when, with Approve and Reject; the nav links it', async () => {
    const { testApp, ada, bola } = context();
    const accountNumber = await frozenAccount(context());
    const approvalId = await requestUnfreeze(context(), accountNumber, ada);
    const browser = await operatorBrowser(testApp, bola);
    const page = await browser.get('/dashboard/approvals');
    assert.equal(page.statusCode, 200, page.body);
    assert.match(
      page.body,
      /<a class="tab" href="\/dashboard\/approvals" aria-current="page">Approvals<\/a>/,
    );
    assert.deepEqual(column(page.body, 'Action'), ['POST /admin/accounts/:accountNumber/unfreeze']);
    assert.deepEqual(column(page.body, 'On'), [accountNumber]);
    assert.deepEqual(column(page.body, 'Requested by'), [`operator:${ada.email}`]);
    assert.deepEqual(column(page.body, 'Requested'), ['2026-03-02 09:00:00Z']);
    assert.match(page.body, new RegExp(`action="/dashboard/approvals/${approvalId}/approve"`));
    assert.match(page.body, new RegExp(`action="/dashboard/approvals/${approvalId}/reject"`));
    assert.match(page.body, /name="_csrf"/);
  });

  it('other statuses on asking; an empty queue says so', async () => {
    const browser = await operatorBrowser(context().testApp, context().chidi);
    const applied = await browser.get('/dashboard/approvals?status=applied');
    assert.match(applied.body, /Nothing waits for approval\./);
    const wrong = await browser.get('/dashboard/approvals?status=whatever');
    assert.equal(wrong.statusCode, 200);
    assert.match(wrong.body, /status/);
  });
});

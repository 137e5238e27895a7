/**
 * Approve and Reject from the queue, as the signed-in operator, with the CSRF token: approved,
 * the action runs; the requester's own, and break-glass, are refused by the admin API and say
 * so; an action the dashboard sends that is held says "sent for approval".
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DashboardBrowser } from '../../../test/dashboard-browser.ts';
import {
  accountStatus,
  frozenAccount,
  operatorBrowser,
  requestUnfreeze,
  transferAcross,
  useFourEyesContext,
} from '../../../test/four-eyes.ts';

describe('dashboard: approve and reject', () => {
  const context = useFourEyesContext();
  const queue = '/dashboard/approvals';

  it('another operator approves: the action runs, the notice says so', async () => {
    const { testApp, ada, bola } = context();
    const accountNumber = await frozenAccount(context());
    const approvalId = await requestUnfreeze(context(), accountNumber, ada);
    const browser = await operatorBrowser(testApp, bola);
    await browser.get(queue);
    const approved = await browser.post(`${queue}/${approvalId}/approve`);
    assert.equal(approved.statusCode, 303, approved.body);
    assert.equal(approved.headers.location, queue);
    const page = await browser.get(queue);
    assert.match(
      page.body,
      new RegExp(`Approved ${approvalId}: POST /admin/accounts/:accountNumber/unfreeze applied\\.`),
    );
    assert.equal(await accountStatus(context(), accountNumber), 'Active');
  });

  it('the requester approving their own is refused, and may withdraw it', async () => {
    const { testApp, ada } = context();
    const accountNumber = await frozenAccount(context());
    const approvalId = await requestUnfreeze(context(), accountNumber, ada);
    const browser = await operatorBrowser(testApp, ada);
    await browser.get(queue);
    await browser.post(`${queue}/${approvalId}/approve`);
    assert.match(
      (await browser.get(queue)).body,
      /another operator must approve it\. \(HTTP 403\)/,
    );
    await browser.post(`${queue}/${approvalId}/reject`);
    assert.match(
      (await browser.get(queue)).body,
      new RegExp(`Rejected ${approvalId}: it will not run\\.`),
    );
    assert.equal(await accountStatus(context(), accountNumber), 'Frozen');
  });

  it('without the CSRF token: refused, nothing decided', async () => {
    const { testApp, ada, bola } = context();
    const accountNumber = await frozenAccount(context());
    const approvalId = await requestUnfreeze(context(), accountNumber, ada);
    const browser = await operatorBrowser(testApp, bola);
    const forged = await browser.post(`${queue}/${approvalId}/approve`, {}, { csrf: null });
    assert.equal(forged.statusCode, 403, forged.body);
    assert.equal(await accountStatus(context(), accountNumber), 'Frozen');
  });

  it('break-glass signed in: the approval is refused, with why', async () => {
    const { testApp, ada } = context();
    const accountNumber = await frozenAccount(context());
    const approvalId = await requestUnfreeze(context(), accountNumber, ada);
    const browser = new DashboardBrowser(testApp.app);
    await browser.signIn('olu');
    await browser.post(`${queue}/${approvalId}/approve`);
    assert.match((await browser.get(queue)).body, /Break-glass cannot approve or reject/);
  });

  it('an action the dashboard sends that four eyes holds: "sent for approval (id)"', async () => {
    const { testApp, own, ada } = context();
    const sent = await transferAcross(context(), 20);
    const browser = await operatorBrowser(testApp, ada);
    const story = `/dashboard/clients/${own.client.ibsClientId}/transfers/${sent._id}`;
    await browser.get(story);
    const reversed = await browser.post(`${story}/reversal`, { reason: 'Wrong account' });
    assert.equal(reversed.statusCode, 303, reversed.body);
    assert.match((await browser.get(story)).body, /Sent for approval \(apr_[\w-]+\)/);
  });
});

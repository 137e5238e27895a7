/**
 * The dashboard's message inbox (sandbox): the alerts a transfer caused, listed and filtered
 * over the admin API, an email rendered as its holder sees it (its HTML in a sandboxed iframe,
 * escaped into `srcdoc`), its text part, and an SMS.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DashboardBrowser } from '../../../test/dashboard-browser.ts';
import {
  openSubAccount,
  sandboxCredit,
  sendTransfer,
  signedInClient,
} from '../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/harness.ts';

const HOSTILE = '<script>alert(1)</script> "quoted"';

describe('dashboard: the message inbox', () => {
  let testApp: TestApp;
  let browser: DashboardBrowser;
  let sub: Awaited<ReturnType<typeof openSubAccount>>;

  before(async () => {
    testApp = await buildTestApp({ ALERTS_WORKER_ENABLED: 'false' });
    const { client, headers } = await signedInClient(testApp, 'Inbox Ltd');
    await sandboxCredit(testApp.app, client.mainAccountNumber, 10_000);
    sub = await openSubAccount(testApp.app, headers, client.mainAccountNumber, {
      emailAddress: 'holder@inbox.test',
      phoneNumber: '+2348035550123',
    });
    const settings = await testApp.app.inject({
      method: 'PUT',
      url: `/accounts/${sub._id}`,
      headers,
      payload: { notificationSettings: { smsNotification: true } },
    });
    assert.equal(settings.statusCode, 200, settings.body);
    const sent = await sendTransfer(testApp.app, headers, {
      debitAccountNumber: client.mainAccountNumber,
      beneficiaryBankCode: '999240',
      beneficiaryAccountNumber: sub.accountNumber,
      amount: 250,
      narration: HOSTILE,
    });
    assert.equal(sent.statusCode, 200, sent.body);
    for (let round = 0; round < 5; round += 1) {
      await testApp.services.alertComposer.composeBatch();
      await testApp.services.alertDelivery.sendBatch();
    }
    browser = new DashboardBrowser(testApp.app);
    await browser.signIn('ada');
  });
  after(async () => testApp?.close());

  const messageLinks = (body: string) =>
    [...body.matchAll(/href="\/dashboard\/inbox\/([^"?]+)"/g)].map((match) => match[1] ?? '');

  describe('the list', () => {
    it('shows the credit alert the transfer caused, by email and by SMS, with a tab in the navigation', async () => {
      const page = await browser.get('/dashboard/inbox');
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /href="\/dashboard\/inbox" aria-current="page">Inbox/);
      assert.match(page.body, /Credit alert: ₦250\.00/);
      assert.match(page.body, /holder@inbox\.test/);
      assert.match(page.body, /\+2348035550123/);
      assert.doesNotMatch(page.body, /<script>alert/);
    });

    it('filters by account number and by channel', async () => {
      const sms = await browser.get(
        `/dashboard/inbox?accountNumber=${sub.accountNumber}&channel=sms`,
      );
      assert.equal(messageLinks(sms.body).length, 1);
      assert.doesNotMatch(sms.body, /holder@inbox\.test/);
      const other = await browser.get('/dashboard/inbox?accountNumber=0000000000');
      assert.equal(messageLinks(other.body).length, 0);
      assert.match(other.body, /No message yet/);
    });

    it('shows an admin API refusal of a filter as its message', async () => {
      const page = await browser.get('/dashboard/inbox?accountNumber=12ab');
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /accountNumber/);
    });
  });

  describe('a message', () => {
    it('renders the email in a sandboxed iframe from srcdoc, escaped, with its text part, under a policy that lets it style itself', async () => {
      const list = await browser.get(
        `/dashboard/inbox?accountNumber=${sub.accountNumber}&channel=email`,
      );
      const [id] = messageLinks(list.body);
      assert.ok(id !== undefined && id !== '');
      const page = await browser.get(`/dashboard/inbox/${id}`);
      assert.equal(page.statusCode, 200);
      const frame = /<iframe class="email-preview" sandbox="" srcdoc="([^"]*)"/.exec(page.body);
      assert.ok(frame !== null, 'a sandboxed iframe with the email as srcdoc');
      const srcdoc = unescapeAttribute(frame[1] ?? '');
      assert.match(srcdoc, /^<!doctype html>/);
      assert.match(srcdoc, /&lt;script&gt;alert\(1\)&lt;\/script&gt; &quot;quoted&quot;/);
      assert.doesNotMatch(page.body, /<script>alert/);
      assert.match(page.body, /<pre class="email-text">[^<]*Credit/);
      const policy = String(page.headers['content-security-policy']);
      assert.match(policy, /style-src 'self' 'unsafe-inline'/);
      assert.match(policy, /script-src 'self';/);
      assert.match(policy, /frame-ancestors 'none'/);
    });

    it('shows an SMS as its text', async () => {
      const list = await browser.get(
        `/dashboard/inbox?accountNumber=${sub.accountNumber}&channel=sms`,
      );
      const [id] = messageLinks(list.body);
      const page = await browser.get(`/dashboard/inbox/${id}`);
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /<p class="sms">[^<]*Credit: ₦250\.00/);
      assert.doesNotMatch(page.body, /<iframe/);
    });

    it('an unknown id is the admin API’s refusal, as a page', async () => {
      const page = await browser.get('/dashboard/inbox/al0000');
      assert.equal(page.statusCode, 400);
      assert.match(page.body, /Unable to locate record/);
    });
  });
});

function unescapeAttribute(value: string): string {
  return value
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

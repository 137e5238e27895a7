/**
 * The operator dashboard in a real browser: an operator signs in, onboards a client, watches a
 * transfer arrive live, follows a webhook from its failure to its replay, pays a virtual account
 * in the sandbox and freezes an account, with headless Chromium driving every page. Needs
 * Debian's chromium at /usr/bin/chromium (CI installs it).
 *
 * DASHBOARD_SCREENSHOTS=1 writes the screenshots to docs/images/ for the docs; otherwise they go
 * to a temporary folder so a test run leaves the repository as it was.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  type Browser,
  type BrowserContext,
  chromium,
  type Locator,
  type Page,
} from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { createDeliveryWorker, type DeliveryWorker } from '../../src/webhooks/delivery-worker.ts';
import { createHttpSender, type WebhookSender } from '../../src/webhooks/http-sender.ts';
import {
  createVirtualAccount,
  issueTokens,
  openSubAccount,
  publicKeyPem,
  rsaKeyPair,
  sandboxCredit,
  sendTransfer,
  signedInClient,
} from '../factories.ts';
import { buildTestApp, TEST_SECRETS, type TestApp } from '../harness.ts';

const CHROMIUM = '/usr/bin/chromium';
const WAIT = { timeout: 15_000 };
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const SCREENS =
  process.env.DASHBOARD_SCREENSHOTS === '1'
    ? path.resolve(import.meta.dirname, '../../docs/images')
    : path.join(os.tmpdir(), `openibs-dashboard-screens-${process.pid}`);
const skip = existsSync(CHROMIUM)
  ? false
  : `Chromium is not installed at ${CHROMIUM} (apt-get install chromium); browser tests skipped`;

type Json = Record<string, unknown>;

/** A client's webhook receiver on 127.0.0.1: answers 500 "broken" until told to work. */
class Receiver {
  status = 500;
  readonly requests: { headers: IncomingHttpHeaders; body: string }[] = [];
  private readonly server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      this.requests.push({ headers: request.headers, body: Buffer.concat(chunks).toString() });
      response
        .writeHead(this.status, { 'content-type': 'text/plain' })
        .end(this.status === 200 ? 'ok' : 'broken');
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Naira as the dashboard shows it (`₦1,234.50`), as a number. */
const nairaOf = (shown: string | null) => Number((shown ?? '').replace(/[₦,\s]/g, ''));

describe('Operator dashboard in a real browser', { skip }, () => {
  let testApp: TestApp;
  let browser: Browser;
  let base: string;
  const receiver = new Receiver();
  let receiverUrl: string;
  let sender: WebhookSender;
  let worker: DeliveryWorker;

  // The client the API drives (its transfers, webhooks, virtual account, frozen account).
  let headers: Record<string, string>;
  let clientId: string;
  let accountNumber: string;
  let clientPage: string;

  // The operator's browser, signed in by the first test and used by the next ones.
  let operator: BrowserContext;
  let page: Page;
  let storyUrl = '';

  before(async () => {
    // The clock starts now: webhook timestamps and the page's times are today's.
    testApp = await buildTestApp({}, { clockStart: new Date() });
    const signedIn = await signedInClient(testApp, 'Acme Stores', 0);
    headers = signedIn.headers;
    clientId = signedIn.client.ibsClientId;
    accountNumber = signedIn.client.mainAccountNumber;
    await sandboxCredit(testApp.app, accountNumber, 50_000);
    base = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    clientPage = `${base}/dashboard/clients/${clientId}`;
    receiverUrl = await receiver.start();

    // The test app runs no background worker: the test drives the delivery rounds itself.
    sender = createHttpSender({
      timeoutMs: 2_000,
      policy: { requireHttps: false, allowLoopback: true, allowPrivate: false },
    });
    worker = createDeliveryWorker({
      db: testApp.db,
      clock: testApp.clock,
      sender,
      // Ten minutes before a retry: within the test, only a replay sends a failed event again.
      retryScheduleSeconds: [600, 3600],
      timeoutMs: 2_000,
      batchSize: 50,
      pollIntervalMs: 10,
    });

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  });

  after(async () => {
    await browser?.close();
    sender?.close();
    await receiver.stop();
    await testApp?.close();
  });

  async function newContext(
    viewport = DESKTOP,
    extra: Parameters<Browser['newContext']>[0] = {},
  ): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport, ...extra });
    const opened = await context.newPage();
    opened.setDefaultTimeout(WAIT.timeout);
    return { context, page: opened };
  }

  /** One delivery round at the current time, as the background worker would run it. */
  async function deliveryRound(): Promise<number> {
    testApp.clock.set(new Date());
    return worker.runOnce();
  }

  /** Clicks a link or a form's button and waits for the page it leads to. */
  async function follow(target: Locator): Promise<void> {
    const on = target.page();
    const navigated = on.waitForEvent('framenavigated', {
      predicate: (frame) => frame === on.mainFrame(),
      ...WAIT,
    });
    await target.click();
    await navigated;
    await on.waitForLoadState('domcontentloaded');
  }

  const heading = (on: Page) => on.getByRole('heading', { level: 1 });
  const notice = (on: Page) => on.locator('main .notice');

  /** The row of a table in `scope` that holds `text`. */
  const rowWith = (scope: Page | Locator, text: string) =>
    scope.locator('tbody tr').filter({ hasText: text });

  const cell = (row: Locator, label: string) => row.locator(`td[data-label="${label}"]`);

  test('sign in: the admin token and a name, then a one-click link in a fresh browser', async () => {
    ({ context: operator, page } = await newContext());
    await page.goto(`${base}/dashboard`);
    // Not signed in: the sign-in page.
    await page.waitForURL(`${base}/dashboard/login`);
    assert.equal(await heading(page).textContent(), 'OpenIBS dashboard');

    // A wrong token is refused, on the page.
    await page.getByLabel('Admin token').fill('not-the-admin-token');
    await page.getByLabel('Your name (recorded in the audit trail)').fill('ada.obi');
    await follow(page.getByRole('button', { name: 'Sign in with the admin token' }));
    await page.getByRole('alert').waitFor(WAIT);
    assert.equal(await page.getByRole('alert').textContent(), 'That is not the admin token.');

    await page.getByLabel('Admin token').fill(TEST_SECRETS.adminToken);
    await page.getByLabel('Your name (recorded in the audit trail)').fill('ada.obi');
    await follow(page.getByRole('button', { name: 'Sign in with the admin token' }));
    await page.waitForURL(`${base}/dashboard`);
    assert.equal(await heading(page).textContent(), 'Overview');
    assert.equal(await page.locator('.who').textContent(), 'ada.obi');
    assert.equal(await page.locator('.env').textContent(), 'Sandbox');
    // The overview: the ledger holds, the API's client is among the newest, the sign-in recorded.
    assert.match(
      (await page.locator('section.card').first().textContent()) ?? '',
      /Every invariant holds/,
    );
    await rowWith(page, 'Acme Stores').getByRole('link', { name: 'Acme Stores' }).waitFor(WAIT);
    const audit = page.locator('section[aria-labelledby="latest-actions"]');
    await rowWith(audit, 'dashboard.sign-in').first().waitFor(WAIT);
    assert.match((await audit.textContent()) ?? '', /break-glass:ada\.obi/);

    // A one-click link signs in a browser with no cookie, once.
    const { ticket } = testApp.services.dashboardLoginLinks.issue();
    const fresh = await newContext();
    try {
      await fresh.page.goto(`${base}/dashboard/login/${ticket}`);
      await fresh.page.waitForURL(`${base}/dashboard`);
      assert.equal(await heading(fresh.page).textContent(), 'Overview');
      assert.equal(await fresh.page.locator('.who').textContent(), 'local');

      const other = await newContext();
      try {
        await other.page.goto(`${base}/dashboard/login/${ticket}`);
        assert.match(
          (await other.page.getByRole('alert').textContent()) ?? '',
          /used already or has expired/,
        );
        assert.equal(await other.page.locator('.who').count(), 0, 'not signed in');
      } finally {
        await other.context.close();
      }
    } finally {
      await fresh.context.close();
    }
  });

  test('onboard a client, then register an app with a pasted PEM key', async () => {
    await page.goto(`${base}/dashboard/clients`);
    assert.equal(await heading(page).textContent(), 'Clients');
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Kola Foods');
    await page.getByRole('textbox', { name: 'Email address (optional)' }).fill('ops@kola.example');
    await follow(page.getByRole('button', { name: 'Onboard' }));
    await page.waitForURL(/\/dashboard\/clients\/[^/]+$/);
    const kolaId = decodeURIComponent(page.url().split('/').pop() ?? '');
    assert.equal(await heading(page).textContent(), 'Kola Foods');
    assert.equal(await notice(page).textContent(), 'Client Kola Foods onboarded.');
    const facts = page.locator('dl.details');
    assert.match(
      (await facts.textContent()) ?? '',
      new RegExp(`Client id \\(ClientID header\\)${kolaId}`),
    );
    assert.match((await facts.textContent()) ?? '', /ops@kola\.example/);
    assert.match((await facts.textContent()) ?? '', /\d{10} · ₦0\.00/);
    assert.match((await facts.textContent()) ?? '', /AccessActive/);
    assert.equal(
      await page.locator('#apps ~ p.empty').textContent(),
      'No app yet: register one with its public key below.',
    );

    const keys = rsaKeyPair(1);
    await page.getByRole('textbox', { name: 'App name' }).fill('Kola POS');
    await page.locator('#register-key').fill(publicKeyPem(keys.publicKey));
    await follow(page.getByRole('button', { name: 'Register app' }));
    await page.waitForURL(`${base}/dashboard/clients/${kolaId}`);
    const registered = (await notice(page).textContent()) ?? '';
    const oauthClientId = /its OAuth client id is (\S+)\.$/.exec(registered)?.[1];
    assert.ok(oauthClientId, registered);

    const apps = page.getByRole('region', { name: 'OAuth apps' });
    const appRow = rowWith(apps, 'Kola POS');
    assert.equal(await appRow.count(), 1);
    assert.match((await cell(appRow, 'App').textContent()) ?? '', new RegExp(oauthClientId));
    assert.equal(await cell(appRow, 'Status').textContent(), 'Active');
    const keyItems = cell(appRow, 'Keys').locator('ul.plain li');
    assert.equal(await keyItems.count(), 1, 'one key listed');
    assert.match((await keyItems.textContent()) ?? '', /RS256/);
    await keyItems.getByRole('button', { name: 'Revoke key' }).waitFor(WAIT);
    await appRow.getByRole('button', { name: 'Revoke app' }).waitFor(WAIT);

    // The key pasted in the browser is the one the app signs its token requests with.
    const tokens = await issueTokens(testApp, {
      ibsClientId: kolaId,
      oauthClientId,
      privateKey: keys.privateKey,
      mainAccountId: '',
      mainAccountNumber: '',
    });
    assert.equal(tokens.ibs_client_id, kolaId);
  });

  test('a transfer made through the API appears on the open Transfers page, then its story', async () => {
    await page.goto(`${clientPage}/transfers`);
    assert.equal(await heading(page).textContent(), 'Transfers');
    assert.equal(
      await page.locator('.client-nav a[aria-current="page"]').textContent(),
      'Transfers',
    );
    const live = page.locator('[data-live]');
    // The sandbox credit of the setup is already there; the transfer is not.
    await rowWith(live, '₦50,000.00').waitFor(WAIT);
    assert.equal(await rowWith(live, '₦1,234.00').count(), 0);
    await page.evaluate('window.__notReloaded = true');

    const sent = await sendTransfer(testApp.app, headers, {
      debitAccountNumber: accountNumber,
      amount: 1234,
      narration: 'Dashboard live test',
    });
    assert.equal(sent.statusCode, 200, sent.body);
    const transfer = sent.json().data as Json;

    // The page polls its live region every 3 s: the row arrives without a reload.
    const row = rowWith(live, '₦1,234.00');
    await row.waitFor(WAIT);
    assert.equal(await page.evaluate('window.__notReloaded'), true, 'the page was not reloaded');
    assert.equal(await cell(row, 'Direction').textContent(), 'Outwards');
    assert.match((await cell(row, 'From').textContent()) ?? '', new RegExp(accountNumber));
    assert.match((await cell(row, 'To').textContent()) ?? '', /YUSUF ABUBAKAR 0123456789/);
    assert.equal(await cell(row, 'Reference').textContent(), String(transfer.paymentReference));
    const status = (await cell(row, 'Status').textContent()) ?? '';
    assert.ok(['Completed', 'Processing'].includes(status), status);

    await follow(row.getByRole('link', { name: 'Open' }));
    await page.waitForURL(`${clientPage}/transfers/${String(transfer._id)}`);
    storyUrl = page.url();
    assert.equal(await heading(page).textContent(), 'Transfer story');
    const request = page.locator('section[aria-labelledby="request"]');
    const told = (await request.textContent()) ?? '';
    assert.match(told, new RegExp(`Id${String(transfer._id)}`));
    assert.match(told, /Amount₦1,234\.00/);
    assert.match(told, /NarrationDashboard live test/);
    assert.match(told, new RegExp(`Session id${String(transfer.sessionId)}`));

    // The ledger: the debit of the client's account and the credits it paid for.
    const entries = page.getByRole('region', { name: 'Ledger entries of this transfer' });
    const debit = rowWith(entries, accountNumber).filter({ hasText: 'Debit' });
    assert.ok((await debit.count()) >= 1, 'the account is debited');
    assert.equal(nairaOf(await cell(debit.first(), 'Amount').textContent()), 1234);
    assert.ok((await entries.locator('tbody tr').count()) >= 2, 'a balanced journal');

    // A NIP transfer: the session at the network and what it answered.
    const nip = page.locator('section[aria-labelledby="nip"]');
    assert.equal(await nip.locator('p.empty').count(), 0);
    assert.match(
      (await nip.textContent()) ?? '',
      new RegExp(`Session id${String(transfer.sessionId)}`),
    );
    assert.match((await nip.textContent()) ?? '', /Response code00/);
    // Its webhook event, queued (no URL is set yet).
    const events = page.locator('section[aria-labelledby="events"]');
    assert.match((await events.textContent()) ?? '', /transfer/);
    await events.getByRole('link', { name: 'Every delivery, with its attempts' }).waitFor(WAIT);
  });

  test('webhooks: the secret is shown once, a failed attempt shows HTTP 500, a replay delivers', async () => {
    await page.goto(clientPage);
    await page.getByRole('textbox', { name: 'Webhook URL' }).fill(receiverUrl);
    await follow(page.getByRole('button', { name: 'Save webhook settings' }));
    assert.equal(await heading(page).textContent(), 'Webhook settings saved');
    assert.match(
      (await notice(page).textContent()) ?? '',
      new RegExp(`Webhook URL: ${receiverUrl}`),
    );
    const secret = ((await page.locator('#webhook-secret').textContent()) ?? '').trim();
    assert.match(secret, /^whsec_[A-Za-z0-9+/=]{20,}$/);
    await page.getByRole('button', { name: 'Copy' }).waitFor(WAIT);

    // Back on the client page: the URL is there, the secret is not.
    await follow(page.getByRole('link', { name: 'Back to the client' }));
    await page.waitForURL(clientPage);
    const webhookCard = page.locator('section[aria-labelledby="webhook"]');
    assert.match((await webhookCard.textContent()) ?? '', new RegExp(`Now: ${receiverUrl}\\.`));
    assert.equal(
      await page.getByRole('textbox', { name: 'Webhook URL' }).inputValue(),
      receiverUrl,
    );
    await page.reload();
    assert.ok(!(await page.content()).includes(secret), 'the secret is not shown again');

    // Money arrives from another bank (the sandbox form): one transfer event.
    await page.goto(`${clientPage}/accounts`);
    const credit = page.locator('section[aria-labelledby="credit"]');
    await credit.getByRole('combobox', { name: 'Account' }).selectOption(accountNumber);
    await credit.getByRole('textbox', { name: 'Amount (₦)' }).fill('750');
    await credit.getByRole('textbox', { name: 'Narration' }).fill('Webhook test credit');
    await follow(credit.getByRole('button', { name: 'Credit account' }));
    assert.match(
      (await notice(page).textContent()) ?? '',
      new RegExp(`^₦750(\\.00)? credited to ${accountNumber}\\.$`),
    );
    const listed = await testApp.app.inject({
      method: 'GET',
      url: '/webhooks/deliveries?type=transfer&limit=100',
      headers,
    });
    const event = (listed.json().data as { _id: string; payload: { data: Json } }[]).find(
      (item) => item.payload.data.narration === 'Webhook test credit',
    );
    assert.ok(event, listed.body);

    // The Webhooks page is open when the worker makes its (failed) attempt.
    await follow(
      page.getByRole('navigation', { name: 'Client' }).getByRole('link', { name: 'Webhooks' }),
    );
    assert.equal(await heading(page).textContent(), 'Webhook deliveries');
    const live = page.locator('[data-live]');
    const row = rowWith(live, event._id);
    assert.equal(await cell(row, 'Attempts').textContent(), 'none yet');
    // The events queued before the URL was set (the setup's credit, the transfer) go out too.
    assert.ok((await deliveryRound()) >= 1);
    const sentFor = () =>
      receiver.requests.filter((received) => received.headers['webhook-id'] === event._id);
    assert.equal(sentFor().length, 1);
    await row.locator('summary').filter({ hasText: '1 attempt' }).waitFor(WAIT);
    assert.equal(await cell(row, 'Status').textContent(), 'pending');
    assert.match(
      (await cell(row, 'Next attempt').textContent()) ?? '',
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ$/,
    );
    await row.locator('summary').click();
    const attempt = row.locator('ol.attempts li');
    await attempt.waitFor({ state: 'visible', ...WAIT });
    assert.match(
      (await attempt.textContent()) ?? '',
      new RegExp(`→ ${receiverUrl}: HTTP 500 in \\d+ ms`),
    );
    assert.equal(await attempt.locator('pre.excerpt').textContent(), 'broken');

    // The receiver is mended; the operator replays the delivery now.
    receiver.status = 200;
    await follow(row.getByRole('button', { name: 'Replay now' }));
    await page.waitForURL(`${clientPage}/webhooks`);
    assert.equal(await notice(page).textContent(), `Delivery ${event._id} queued to be sent now.`);
    assert.equal(await deliveryRound(), 1, 'only the replayed delivery is due');
    await cell(row, 'Status').filter({ hasText: 'delivered' }).waitFor(WAIT);
    assert.match((await cell(row, 'Attempts').textContent()) ?? '', /^2 attempts/);
    await row.locator('summary').click();
    assert.match(
      (await row.locator('ol.attempts li').nth(1).textContent()) ?? '',
      new RegExp(`→ ${receiverUrl}: HTTP 200 in \\d+ ms`),
    );

    // Both attempts carried the same webhook-id, signed with the secret shown once.
    assert.equal(sentFor().length, 2);
    for (const received of sentFor()) {
      const verified = new Webhook(secret).verify(
        received.body,
        received.headers as Record<string, string>,
      ) as { type: string; data: Json };
      assert.equal(verified.type, 'transfer');
      assert.equal(verified.data.amount, 750);
    }
  });

  test('a customer pays a virtual account (sandbox form): settled, and the balance grows', async () => {
    const virtual = await createVirtualAccount(testApp.app, headers, accountNumber, {
      amount: 2500,
    });
    await page.goto(`${clientPage}/accounts`);
    const mainRow = rowWith(page, accountNumber);
    const before = nairaOf(await cell(mainRow, 'Available').textContent());
    assert.ok(before > 0);

    await follow(
      page
        .getByRole('navigation', { name: 'Client' })
        .getByRole('link', { name: 'Virtual accounts' }),
    );
    await page.waitForURL(`${clientPage}/virtual-accounts`);
    assert.equal(await heading(page).textContent(), 'Virtual accounts');
    const row = rowWith(page.locator('[data-live]'), virtual.accountNumber);
    assert.equal(await cell(row, 'Status').textContent(), 'Active');
    assert.equal(nairaOf(await cell(row, 'Amount').textContent()), 2500);
    // Its expiry reads as every time on the dashboard does (UTC to the second).
    assert.match(
      (await cell(row, 'Expiry date').textContent()) ?? '',
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ$/,
    );

    const pay = page.locator('section[aria-labelledby="pay-va"]');
    await pay
      .getByRole('combobox', { name: 'Virtual account' })
      .selectOption(virtual.accountNumber);
    await pay.getByRole('textbox', { name: 'Amount (₦)' }).fill('2,500');
    await pay.getByRole('combobox', { name: 'When' }).selectOption('onTime');
    await follow(pay.getByRole('button', { name: 'Pay' }));
    await page.waitForURL(`${clientPage}/virtual-accounts`);
    assert.equal(await notice(page).getAttribute('class'), 'notice notice-success');
    assert.equal(
      await notice(page).textContent(),
      'Virtual account payment received successfully.',
    );

    const paid = rowWith(page.locator('[data-live]'), virtual.accountNumber);
    assert.equal(nairaOf(await cell(paid, 'Amount paid').textContent()), 2500);
    assert.equal(await cell(paid, 'Status').textContent(), 'Paid');

    await follow(
      page
        .getByRole('navigation', { name: 'Client' })
        .getByRole('link', { name: 'Accounts', exact: true }),
    );
    const after = nairaOf(await cell(rowWith(page, accountNumber), 'Available').textContent());
    // The payment arrived as an inbound transfer; the account grew by it, less its charges.
    const inbound = await testApp.app.inject({
      method: 'GET',
      url: '/transfers?type=Inwards&limit=100',
      headers,
    });
    const payment = (inbound.json().data as Json[]).find(
      (transfer) => transfer.creditAccountNumber === virtual.accountNumber,
    );
    assert.ok(payment, inbound.body);
    assert.equal(payment.amount, 2500);
    const charges = Number(payment.fees) + Number(payment.vat) + Number(payment.stampDuty ?? 0);
    assert.ok(after > before, `the balance grew: ${before} → ${after}`);
    assert.equal(Math.round((after - before) * 100), Math.round((2500 - charges) * 100));
  });

  test("the inbox: a transfer's credit alert, the email rendered as its holder sees it, and the SMS", async () => {
    const hostile = '<img src=x onerror="document.title=1"> Rent';
    const sub = await openSubAccount(testApp.app, headers, accountNumber, {
      emailAddress: 'tenant@inbox.test',
      phoneNumber: '+2348035550199',
    });
    const settings = await testApp.app.inject({
      method: 'PUT',
      url: `/accounts/${sub._id}`,
      headers,
      payload: { notificationSettings: { emailNotification: true, smsNotification: true } },
    });
    assert.equal(settings.statusCode, 200, settings.body);
    const sent = await sendTransfer(testApp.app, headers, {
      debitAccountNumber: accountNumber,
      beneficiaryBankCode: '999240',
      beneficiaryAccountNumber: sub.accountNumber,
      amount: 1234.5,
      narration: hostile,
    });
    assert.equal(sent.statusCode, 200, sent.body);
    // The test app runs no worker: compose and send the alerts as the alerts worker would.
    for (let round = 0; round < 3; round += 1) {
      await testApp.services.alertComposer.composeBatch();
      await testApp.services.alertDelivery.sendBatch();
    }

    await page.goto(`${base}/dashboard`);
    await follow(page.getByRole('link', { name: 'Inbox', exact: true }));
    assert.equal(await heading(page).textContent(), 'Inbox');
    const rows = rowWith(page, sub.accountNumber);
    assert.equal(await rows.count(), 2, 'one email and one SMS for the credit');
    const email = rows.filter({ hasText: 'tenant@inbox.test' });
    assert.equal(await cell(email, 'Channel').textContent(), 'Email');
    await follow(cell(email, 'Message').getByRole('link'));
    assert.equal(await heading(page).textContent(), 'Email');
    const shown = page.frameLocator('iframe[title="The email as its holder sees it"]');
    const body = (await shown.locator('body').textContent()) ?? '';
    assert.match(body, /1,234\.50/);
    assert.match(body, /Rent/);
    // The narration is the sender's text: shown as text, never run as markup.
    assert.match(body, /<img src=x onerror=/);
    assert.equal(await shown.locator('img[src="x"]').count(), 0);
    assert.notEqual(await page.title(), '1');

    await follow(page.getByRole('link', { name: 'Back to the inbox' }));
    const sms = rowWith(page, '+2348035550199');
    await follow(cell(sms, 'Message').getByRole('link'));
    assert.equal(await heading(page).textContent(), 'SMS');
    assert.match((await page.locator('p.sms').textContent()) ?? '', /1,234\.50/);
  });

  test('freeze the main account: the API refuses its transfer, the page shows it Frozen', async () => {
    await page.goto(`${clientPage}/accounts`);
    const row = rowWith(page, accountNumber);
    assert.equal(await cell(row, 'Status').textContent(), 'Active');

    // Dismissing the confirmation changes nothing.
    page.once('dialog', (dialog) => {
      assert.match(dialog.message(), /Freeze this account\?/);
      void dialog.dismiss();
    });
    await row.getByRole('button', { name: 'Freeze', exact: true }).click();
    await page.waitForTimeout(300);
    assert.equal(page.url(), `${clientPage}/accounts`);
    assert.equal(await notice(page).count(), 0);
    assert.equal(await cell(row, 'Status').textContent(), 'Active');

    page.once('dialog', (dialog) => void dialog.accept());
    await follow(row.getByRole('button', { name: 'Freeze', exact: true }));
    await notice(page).waitFor(WAIT);
    assert.equal(
      await notice(page).textContent(),
      `Account ${accountNumber} frozen: it takes no debit and no credit.`,
    );
    assert.equal(await cell(row, 'Status').textContent(), 'Frozen');
    await row.getByRole('button', { name: 'Unfreeze', exact: true }).waitFor(WAIT);

    const refused = await sendTransfer(testApp.app, headers, {
      debitAccountNumber: accountNumber,
      amount: 100,
    });
    assert.equal(refused.statusCode, 402, refused.body);
    assert.equal(refused.json().code, 'ACCOUNT_NOT_ACTIVE');
    await page.reload();
    assert.equal(await cell(rowWith(page, accountNumber), 'Status').textContent(), 'Frozen');

    // Unfrozen from the same page, it moves money again.
    await follow(
      rowWith(page, accountNumber).getByRole('button', { name: 'Unfreeze', exact: true }),
    );
    await notice(page).waitFor(WAIT);
    assert.equal(await notice(page).textContent(), `Account ${accountNumber} unfrozen.`);
    assert.equal(await cell(rowWith(page, accountNumber), 'Status').textContent(), 'Active');
    const sent = await sendTransfer(testApp.app, headers, {
      debitAccountNumber: accountNumber,
      amount: 100,
    });
    assert.equal(sent.statusCode, 200, sent.body);
  });

  test('keyboard: Skip to content first; screenshots on a desktop and a phone', async () => {
    assert.ok(storyUrl !== '', 'the transfer story of the third test');
    const state = await operator.storageState();

    // Tab from the top of a page: the skip link first, and it moves focus to the content.
    const keys = await newContext(DESKTOP, { storageState: state });
    try {
      await keys.page.goto(`${clientPage}/transfers`);
      await keys.page.keyboard.press('Tab');
      const focused = keys.page.locator(':focus');
      assert.equal(await focused.textContent(), 'Skip to content');
      assert.equal(await focused.getAttribute('href'), '#main');
      const box = await focused.boundingBox();
      assert.ok(box !== null && box.x >= 0 && box.y >= 0, 'the focused skip link is on screen');
      await keys.page.keyboard.press('Enter');
      assert.equal(await keys.page.evaluate('document.activeElement.id'), 'main');
      // The next Tab stop is inside the content, past the navigation.
      await keys.page.keyboard.press('Tab');
      assert.equal(
        await keys.page.evaluate(
          'document.getElementById("main").contains(document.activeElement)',
        ),
        true,
      );
    } finally {
      await keys.context.close();
    }

    mkdirSync(SCREENS, { recursive: true });
    const shots: string[] = [];
    const pages: [name: string, url: string][] = [
      ['overview', `${base}/dashboard`],
      ['client', clientPage],
      ['transfers', `${clientPage}/transfers`],
      ['transfer-story', storyUrl],
      ['webhooks', `${clientPage}/webhooks`],
      ['accounts', `${clientPage}/accounts`],
    ];
    const overflow: string[] = [];
    for (const [size, viewport, extra] of [
      ['desktop', DESKTOP, {}],
      ['phone', PHONE, { isMobile: true, hasTouch: true, deviceScaleFactor: 2 }],
    ] as const) {
      const shooter = await newContext(viewport, { storageState: state, ...extra });
      try {
        for (const [name, url] of pages) {
          const response = await shooter.page.goto(url);
          assert.equal(response?.status(), 200, `${name} answers 200`);
          assert.notEqual(await heading(shooter.page).textContent(), 'Sign in');
          if (size === 'phone') {
            // Tables are cards on a phone: no value is cut off at the card's edge.
            const cut = (await shooter.page.evaluate(
              `[...document.querySelectorAll('td')].filter((td) => td.scrollWidth > td.clientWidth + 1).map((td) => td.dataset.label + ': ' + td.textContent.trim().slice(0, 40))`,
            )) as string[];
            overflow.push(...cut.map((value) => `${name} (${size}): cut off: ${value}`));
          }
          const wider = (await shooter.page.evaluate(
            'document.documentElement.scrollWidth - document.documentElement.clientWidth',
          )) as number;
          if (wider > 0) {
            overflow.push(`${name} (${size}): ${wider}px wider than the screen`);
          }
          const file = path.join(SCREENS, `dashboard-${name}-${size}.png`);
          await shooter.page.screenshot({ path: file, fullPage: true });
          shots.push(file);
        }
      } finally {
        await shooter.context.close();
      }
    }
    assert.deepEqual(overflow, [], 'no page is wider than its screen');
    assert.equal(shots.length, 12);
    for (const file of shots) {
      assert.ok(existsSync(file));
      console.log(`dashboard screenshot: ${file}`);
    }
  });
});

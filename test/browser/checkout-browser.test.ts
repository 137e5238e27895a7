/**
 * Checkout in a real browser: a merchant's page on one origin loads the widget from OpenIBS on
 * another, and the customer pays (or not) in the hosted page the widget frames, with headless
 * Chromium driving both. Needs Debian's chromium at /usr/bin/chromium (CI installs it).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  type Browser,
  type BrowserContext,
  type ConsoleMessage,
  chromium,
  type FrameLocator,
  type Page,
} from 'playwright-core';
import { getAccount, signedInClient } from '../factories.ts';
import { buildTestApp, type TestApp } from '../harness.ts';

const CHROMIUM = '/usr/bin/chromium';
const WAIT = { timeout: 30_000 };
const SCREENS = path.join(os.tmpdir(), `openibs-checkout-screens-${process.pid}`);
const skip = existsSync(CHROMIUM)
  ? false
  : `Chromium is not installed at ${CHROMIUM} (apt-get install chromium); browser tests skipped`;

type Json = Record<string, unknown>;

/** The merchant's shop: loads the widget from OpenIBS and pays with whatever config it is given. */
function merchantPage(api: string, scriptPath: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Acme Stores</title></head>
<body>
<h1>Acme Stores</h1>
<p>Your basket: 1 &times; Ankara tote bag</p>
<button id="pay" type="button">Pay now</button>
<script src="${api}${scriptPath}"></script>
<script>
  window.__closed = 0;
  document.getElementById('pay').addEventListener('click', function () {
    var config = Object.assign({}, window.__config);
    if (!config.redirectUrl) {
      config.callback = function (response) { window.__result = response; };
    }
    config.onClose = function () { window.__closed += 1; };
    window.__handle = SafeHavenCheckout(config);
  });
</script>
</body></html>`;
}

describe('Checkout in a real browser', { skip }, () => {
  let testApp: TestApp;
  let browser: Browser;
  let merchant: Server;
  let api: string;
  let shop: string;
  let headers: Record<string, string>;
  let oauthClientId: string;
  let accountId: string;
  let accountNumber: string;
  let references = 0;

  before(async () => {
    // The clock starts now, so the page's countdowns (on the browser's clock) make sense.
    testApp = await buildTestApp({}, { clockStart: new Date() });
    const signedIn = await signedInClient(testApp, 'Acme Stores', 0);
    headers = signedIn.headers;
    oauthClientId = signedIn.client.oauthClientId;
    accountId = signedIn.client.mainAccountId;
    accountNumber = signedIn.client.mainAccountNumber;
    api = await testApp.app.listen({ port: 0, host: '127.0.0.1' });

    // The shop is on localhost, OpenIBS on 127.0.0.1: two origins, as in real life.
    merchant = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      if (url.pathname === '/done') {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end('<!doctype html><title>Thanks</title><h1>Thank you for your order</h1>');
        return;
      }
      if (url.pathname !== '/') {
        response.writeHead(404).end();
        return;
      }
      const scriptPath = url.searchParams.get('script') ?? '/assets/checkout.min.js';
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(merchantPage(api, scriptPath));
    });
    await new Promise<void>((resolve) => merchant.listen(0, 'localhost', resolve));
    shop = `http://localhost:${(merchant.address() as AddressInfo).port}`;

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  });

  after(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (merchant ? merchant.close(() => resolve()) : resolve()));
    await testApp?.close();
  });

  function config(extra: Json = {}): Json {
    references += 1;
    return {
      environment: 'sandbox',
      clientId: oauthClientId,
      referenceCode: `ORDER-${process.pid}-${references}`,
      customer: {
        firstName: 'Adaeze',
        lastName: 'Okafor',
        emailAddress: 'adaeze@example.com',
        phoneNumber: '+2348032273616',
      },
      currency: 'NGN',
      amount: 2500,
      feeBearer: 'account',
      settlementAccount: { bankCode: '999240', accountNumber },
      ...extra,
    };
  }

  async function newPage(
    viewport = { width: 1280, height: 800 },
    mobile = false,
  ): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({
      viewport,
      ...(mobile ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
    });
    const page = await context.newPage();
    page.setDefaultTimeout(WAIT.timeout);
    return { context, page };
  }

  /** The shop page, the checkout opened on it, and the hosted page once it has loaded. */
  async function openCheckout(
    page: Page,
    checkoutConfig: Json,
    scriptPath = '/assets/checkout.min.js',
  ): Promise<FrameLocator> {
    await page.goto(`${shop}/?script=${encodeURIComponent(scriptPath)}`);
    await page.evaluate((given) => {
      (globalThis as unknown as { __config: unknown }).__config = given;
    }, checkoutConfig);
    await page.getByRole('button', { name: 'Pay now' }).click();
    const frame = page.frameLocator('iframe[title="Secure checkout"]');
    await frame.getByRole('heading', { name: 'Acme Stores' }).waitFor(WAIT);
    return frame;
  }

  async function callbackResult(page: Page): Promise<Json> {
    await page.waitForFunction('window.__result !== undefined', undefined, WAIT);
    return (await page.evaluate('window.__result')) as Json;
  }

  async function verify(referenceCode: unknown): Promise<Json> {
    const response = await testApp.app.inject({
      method: 'GET',
      url: `/checkout/${String(referenceCode)}/verify`,
      headers,
    });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json().message, 'Transaction Fetched Successfully.');
    return response.json().data;
  }

  const balance = async () =>
    (await getAccount(testApp.app, headers, accountId)).accountBalance as number;
  const naira = (value: number) => Math.round(value * 100) / 100;

  /** Every button and tab the customer can see has a name a screen reader can say. */
  async function assertNamedControls(frame: FrameLocator) {
    const tree = await frame.locator('body').ariaSnapshot();
    const unnamed = tree
      .split('\n')
      .filter((line) => /^\s*- (button|tab|link|combobox)\s*(?:\[[^\]]*\])?\s*:?\s*$/.test(line));
    assert.deepEqual(unnamed, [], `unnamed controls in:\n${tree}`);
    return tree;
  }

  test('bank transfer: the customer pays the account shown and the merchant is credited', async () => {
    const { context, page } = await newPage();
    try {
      const order = config({ feeBearer: 'customer' });
      const before = await balance();
      const frame = await openCheckout(page, order);
      // The customer bears the fee: the summary shows it and the total.
      await frame.getByText('Fee', { exact: true }).waitFor(WAIT);
      await frame.getByRole('tab', { name: 'Bank transfer' }).click();
      const account = frame.locator('#transfer-account');
      await account.waitFor({ state: 'visible', ...WAIT });
      assert.match((await account.textContent()) ?? '', /^\d{10}$/);
      assert.match((await frame.locator('#transfer-countdown').textContent()) ?? '', /^\d+:\d\d$/);
      await frame.getByRole('button', { name: 'Sandbox: simulate payment' }).click();

      const result = await callbackResult(page);
      assert.equal(result.status, 'Completed');
      assert.equal(result.channel, 'BANK_TRANSFER');
      assert.equal(result.referenceCode, order.referenceCode);
      assert.equal(result.amount, 2500);
      assert.equal(result.feeBearer, 'customer');
      const fees = result.fees as number;
      assert.ok(fees > 0, 'a bank transfer is charged');
      // The customer paid the amount and the fee on top.
      assert.equal(naira((result.amountPaid as number) - fees), 2500);
      assert.equal(await page.locator('iframe').count(), 0, 'the overlay is gone');

      const verified = await verify(order.referenceCode);
      assert.equal(verified.status, 'Completed');
      assert.equal(verified.amount, 2500);
      assert.equal(verified.amountPaid, result.amountPaid);
      assert.equal(verified.fees, fees);
      assert.equal(verified.channel, 'BANK_TRANSFER');
      assert.equal(verified.transactionId, result.transactionId);
      assert.equal(naira((await balance()) - before), 2500);
    } finally {
      await context.close();
    }
  });

  test('USSD: the customer picks a bank, dials the code, and the callback says USSD', async () => {
    const { context, page } = await newPage();
    try {
      const order = config({ amount: 1200.5 });
      const before = await balance();
      const frame = await openCheckout(page, order);
      await frame.getByRole('tab', { name: 'USSD' }).click();
      await frame.getByLabel('Your bank').selectOption({ label: 'Guaranty Trust Bank' });
      const dial = frame.locator('#ussd-string');
      await dial.waitFor({ state: 'visible', ...WAIT });
      assert.match((await dial.textContent()) ?? '', /^\*737\*000\*\d+#$/);
      await frame.getByRole('button', { name: 'Sandbox: simulate payment' }).click();

      const result = await callbackResult(page);
      assert.equal(result.status, 'Completed');
      assert.equal(result.channel, 'USSD');
      assert.equal(result.amount, 1200.5);
      // The merchant bears the fee: the customer paid exactly the amount.
      assert.equal(result.amountPaid, 1200.5);
      const fees = result.fees as number;
      assert.ok(fees > 0, 'a USSD payment is charged');

      const verified = await verify(order.referenceCode);
      assert.equal(verified.status, 'Completed');
      assert.equal(verified.channel, 'USSD');
      assert.equal(verified.amount, 1200.5);
      assert.equal(verified.fees, fees);
      assert.equal(naira((await balance()) - before), naira(1200.5 - fees));
    } finally {
      await context.close();
    }
  });

  test('closing the checkout calls onClose, removes the overlay, and charges nothing', async () => {
    const { context, page } = await newPage();
    try {
      // Loaded from /checkout, where a published React wrapper looks for the script.
      const order = config();
      let frame = await openCheckout(page, order, '/checkout');
      await frame.getByRole('tab', { name: 'Bank transfer' }).click();
      await frame.locator('#transfer-account').waitFor({ state: 'visible', ...WAIT });
      await frame.getByRole('button', { name: 'Close checkout' }).click();
      await page.waitForFunction('window.__closed === 1', undefined, WAIT);
      assert.equal(await page.locator('iframe').count(), 0);
      assert.equal(await page.locator('[data-openibs-checkout]').count(), 0);
      assert.equal(await page.evaluate('window.__result'), undefined);
      assert.equal((await verify(order.referenceCode)).status, 'Pending');

      // Escape closes it too (the page handles the key, the widget removes the overlay).
      const again = config();
      frame = await openCheckout(page, again);
      // No click first: the widget has already put the keyboard focus in the frame.
      await page.keyboard.press('Escape');
      await page.waitForFunction('window.__closed === 1', undefined, WAIT);
      assert.equal(await page.locator('iframe').count(), 0);
      assert.equal((await verify(again.referenceCode)).status, 'Pending');

      // The merchant's own close() removes it without calling onClose (the customer did not).
      await openCheckout(page, config());
      await page.evaluate('window.__handle.close()');
      assert.equal(await page.locator('iframe').count(), 0);
      assert.equal(await page.evaluate('window.__closed'), 0);
    } finally {
      await context.close();
    }
  });

  test('redirectUrl: after paying, the browser goes to it with the reference and status', async () => {
    const { context, page } = await newPage();
    try {
      const order = config({ redirectUrl: `${shop}/done` });
      const frame = await openCheckout(page, order);
      await frame.getByRole('tab', { name: 'Bank transfer' }).click();
      await frame.locator('#transfer-account').waitFor({ state: 'visible', ...WAIT });
      await frame.getByRole('button', { name: 'Sandbox: simulate payment' }).click();
      await page.waitForURL(/\/done\?/, WAIT);
      const landed = new URL(page.url());
      assert.equal(landed.origin, shop);
      assert.equal(landed.searchParams.get('reference'), order.referenceCode);
      assert.equal(landed.searchParams.get('status'), 'Completed');
      assert.equal((await verify(order.referenceCode)).status, 'Completed');
    } finally {
      await context.close();
    }
  });

  test('an invalid config is refused in the console, with no overlay and no session', async () => {
    const { context, page } = await newPage();
    try {
      const errors: string[] = [];
      const sessionCalls: string[] = [];
      // The widget's own errors (Chromium also logs the refused request itself).
      const fromWidget = (message: ConsoleMessage) =>
        message.type() === 'error' && message.text().startsWith('SafeHavenCheckout:');
      page.on('console', (message) => {
        if (fromWidget(message)) {
          errors.push(message.text());
        }
      });
      page.on('request', (request) => {
        if (request.url().includes('/checkout/sessions')) {
          sessionCalls.push(request.url());
        }
      });
      await page.goto(shop);
      await page.evaluate(
        (given) => {
          (globalThis as unknown as { __config: unknown }).__config = given;
        },
        config({ currency: 'USD' }),
      );
      const refusedHere = page.waitForEvent('console', { predicate: fromWidget, ...WAIT });
      await page.getByRole('button', { name: 'Pay now' }).click();
      await refusedHere;
      assert.deepEqual(errors, ['SafeHavenCheckout: currency must be "NGN"']);
      assert.equal(await page.locator('iframe').count(), 0);
      assert.equal(await page.locator('[data-openibs-checkout]').count(), 0);
      assert.deepEqual(sessionCalls, []);

      // Valid in the browser but refused by the server (a production config on the sandbox):
      // the server's message reaches the console, and still nothing is shown.
      await page.evaluate(
        (given) => {
          (globalThis as unknown as { __config: unknown }).__config = given;
        },
        config({ environment: 'production' }),
      );
      const refused = page.waitForEvent('console', { predicate: fromWidget, ...WAIT });
      await page.getByRole('button', { name: 'Pay now' }).click();
      await refused;
      assert.equal(errors[1], 'SafeHavenCheckout: environment must be "sandbox" on this server.');
      assert.equal(await page.locator('iframe').count(), 0);
      assert.equal(await page.evaluate('window.__closed'), 0);
    } finally {
      await context.close();
    }
  });

  test('the hosted page on a desktop and a phone: screenshots and accessible controls', async () => {
    mkdirSync(SCREENS, { recursive: true });
    const shots: string[] = [];
    const shoot = async (page: Page, name: string) => {
      const file = path.join(SCREENS, `${name}.png`);
      await page.screenshot({ path: file });
      shots.push(file);
    };

    const desktop = await newPage({ width: 1280, height: 800 });
    try {
      const frame = await openCheckout(desktop.page, config({ feeBearer: 'customer' }));
      await assertNamedControls(frame);
      await shoot(desktop.page, 'desktop-1-methods');
      await frame.getByRole('tab', { name: 'Bank transfer' }).click();
      await frame.locator('#transfer-account').waitFor({ state: 'visible', ...WAIT });
      await assertNamedControls(frame);
      await shoot(desktop.page, 'desktop-2-bank-transfer');
    } finally {
      await desktop.context.close();
    }

    const phone = await newPage({ width: 390, height: 844 }, true);
    try {
      const frame = await openCheckout(phone.page, config());
      await shoot(phone.page, 'phone-1-methods');
      await frame.getByRole('tab', { name: 'Bank transfer' }).click();
      await frame.locator('#transfer-account').waitFor({ state: 'visible', ...WAIT });
      await shoot(phone.page, 'phone-2-bank-transfer');
      await frame.getByRole('tab', { name: 'USSD' }).click();
      // The bank list is a labelled control.
      const banks = frame.getByRole('combobox', { name: 'Your bank' });
      await banks.selectOption({ label: 'Zenith Bank' });
      await frame.locator('#ussd-string').waitFor({ state: 'visible', ...WAIT });
      const tree = await assertNamedControls(frame);
      assert.match(tree, /combobox "Your bank"/);
      assert.match(tree, /link "Dial now"/);
      await shoot(phone.page, 'phone-3-ussd');
      // Nothing is wider than the phone's screen.
      const overflow = () =>
        frame.locator('html').evaluate((html) => html.scrollWidth - html.clientWidth);
      assert.equal(await overflow(), 0);
      // Nor on the narrowest phones we support.
      await phone.page.setViewportSize({ width: 360, height: 740 });
      assert.equal(await overflow(), 0);
      await shoot(phone.page, 'phone-4-ussd-360px');
    } finally {
      await phone.context.close();
    }

    // The page opened on its own (not framed), paid: the success panel.
    const open = await testApp.app.inject({
      method: 'POST',
      url: '/checkout/sessions',
      payload: config({ customIconUrl: 'https://merchant.invalid/logo.png' }),
    });
    assert.equal(open.statusCode, 200, open.body);
    const standalone = await newPage({ width: 1280, height: 800 });
    try {
      await standalone.page.goto(`${api}${open.json().data.pageUrl}`);
      await standalone.page.getByRole('tab', { name: 'Bank transfer' }).click();
      await standalone.page.locator('#transfer-account').waitFor({ state: 'visible', ...WAIT });
      await standalone.page.getByRole('button', { name: 'Sandbox: simulate payment' }).click();
      await standalone.page.getByRole('heading', { name: 'Payment received' }).waitFor(WAIT);
      await standalone.page.getByText('You can close this page now.').waitFor(WAIT);
      await shoot(standalone.page, 'desktop-3-paid-standalone');
    } finally {
      await standalone.context.close();
    }

    for (const file of shots) {
      assert.ok(existsSync(file));
      console.log(`checkout screenshot: ${file}`);
    }
  });
});

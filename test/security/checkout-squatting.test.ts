import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { signedInClient } from '../factories.ts';
import { buildTestApp, type TestApp } from '../harness.ts';
import { buildSecurityApp } from './security-helpers.ts';

/**
 * A stranger copies a merchant's public widget config and opens the merchant's next
 * referenceCode first, from its own page and with its own webhook and redirect URLs; the
 * merchant's real page opens the same referenceCode second, and its customer pays. The
 * merchant's notifications, redirect and metadata must win, or the stranger must be refused.
 */
describe('checkout reference squatting, stranger first and merchant second', () => {
  let testApp: TestApp;
  let merchant: Awaited<ReturnType<typeof signedInClient>>;
  let address = 0;
  before(async () => {
    testApp = await buildSecurityApp();
    merchant = await signedInClient(testApp, 'Merchant Ltd', 0);
  });
  after(() => testApp?.close());

  const widgetConfig = (referenceCode: string, extra: Record<string, unknown>) => ({
    environment: 'sandbox',
    clientId: merchant.client.oauthClientId,
    referenceCode,
    customer: { firstName: 'Ada', lastName: 'Obi', emailAddress: 'ada.obi@example.com' },
    currency: 'NGN',
    amount: 2500,
    settlementAccount: { bankCode: '999240', accountNumber: merchant.client.mainAccountNumber },
    ...extra,
  });
  const open = (body: unknown, origin: string) =>
    testApp.app.inject({
      method: 'POST',
      url: '/checkout/sessions',
      remoteAddress: `10.40.0.${++address}`,
      headers: { origin },
      payload: body as Record<string, unknown>,
    });
  const strangerExtra = {
    webhookUrl: 'https://evil.example/hook',
    redirectUrl: 'https://evil.example/phish',
    customer: { firstName: 'Eve', lastName: 'Stranger', emailAddress: 'eve@evil.example' },
    metadata: { attacker: true },
  };
  const merchantExtra = {
    webhookUrl: 'https://shop.example/hook',
    redirectUrl: 'https://shop.example/thanks',
    metadata: { orderId: 77 },
  };

  /** The merchant's customer pays the page the merchant's widget got; what everyone sees. */
  async function payAndRead(merchantAnswer: LightMyRequestResponse, referenceCode: string) {
    assert.equal(merchantAnswer.statusCode, 200, merchantAnswer.body);
    const [, id, token] = /^\/checkout\/pay\/([0-9a-f]{24})#(.+)$/.exec(
      merchantAnswer.json().data.pageUrl,
    ) ?? [''];
    const headers = { 'x-checkout-token': token ?? '' };
    const page = await testApp.app.inject({ url: `/checkout/sessions/${id}`, headers });
    const paid = await testApp.app.inject({
      method: 'POST',
      url: `/checkout/sessions/${id}/simulate`,
      headers,
      payload: { method: 'BANK_TRANSFER' },
    });
    assert.equal(paid.statusCode, 200, paid.body);
    const verify = await testApp.app.inject({
      url: `/checkout/${referenceCode}/verify`,
      headers: merchant.headers,
    });
    const events = await testApp.db.query<{ callback_url: string | null; payload: unknown }>(
      `SELECT callback_url, payload FROM webhook_events
        WHERE type = 'checkout.payment' AND payload::text LIKE $1`,
      [`%${referenceCode}%`],
    );
    return { page: page.json().data, verified: verify.json().data, events };
  }

  it('unregistered sandbox: the stranger gets a session of its own, the merchant its own', async () => {
    const stranger = await open(widgetConfig('SQUAT-1', strangerExtra), 'https://evil.example');
    assert.equal(stranger.statusCode, 200, stranger.body);
    const merchantAnswer = await open(
      widgetConfig('SQUAT-1', merchantExtra),
      'https://shop.example',
    );
    assert.notEqual(merchantAnswer.json().data.sessionId, stranger.json().data.sessionId);
    const { page, verified, events } = await payAndRead(merchantAnswer, 'SQUAT-1');
    assert.equal(page.merchantOrigin, 'https://shop.example');
    assert.equal(page.redirectUrl, 'https://shop.example/thanks');
    assert.equal(verified.status, 'Completed');
    assert.deepEqual(verified.metadata, { orderId: 77 });
    assert.equal(verified.customer.firstName, 'Ada');
    assert.deepEqual(
      events.map((event) => event.callback_url),
      ['https://shop.example/hook'],
      'checkout.payment goes to the merchant only',
    );
  });

  it('a stranger with another amount does not block the merchant (no 409 before payment)', async () => {
    const stranger = await open(
      widgetConfig('SQUAT-2', { ...strangerExtra, amount: 1 }),
      'https://evil.example',
    );
    assert.equal(stranger.statusCode, 200, stranger.body);
    const merchantAnswer = await open(
      widgetConfig('SQUAT-2', merchantExtra),
      'https://shop.example',
    );
    const { verified } = await payAndRead(merchantAnswer, 'SQUAT-2');
    assert.equal(verified.amount, 2500);
    assert.deepEqual(verified.metadata, { orderId: 77 });
  });

  it('registered origins and webhook URL: the stranger is refused, the merchant paid', async () => {
    const registered = await testApp.app.inject({
      method: 'PUT',
      url: '/checkout/settings',
      headers: merchant.headers,
      payload: {
        allowedOrigins: ['https://shop.example'],
        webhookUrls: ['https://shop.example/hook'],
      },
    });
    assert.equal(registered.statusCode, 200, registered.body);
    // From its own page; and forging the merchant's Origin, with its own URLs.
    const fromEvil = await open(widgetConfig('SQUAT-3', strangerExtra), 'https://evil.example');
    assert.equal(fromEvil.statusCode, 403, fromEvil.body);
    const forged = await open(widgetConfig('SQUAT-3', strangerExtra), 'https://shop.example');
    assert.equal(forged.statusCode, 400, forged.body);
    const merchantAnswer = await open(
      widgetConfig('SQUAT-3', merchantExtra),
      'https://shop.example',
    );
    const { page, verified, events } = await payAndRead(merchantAnswer, 'SQUAT-3');
    assert.equal(page.redirectUrl, 'https://shop.example/thanks');
    assert.deepEqual(verified.metadata, { orderId: 77 });
    assert.deepEqual(
      events.map((event) => event.callback_url),
      ['https://shop.example/hook'],
    );
  });
});

describe("a stranger cannot spend a merchant's checkout budget with invalid configs", () => {
  let testApp: TestApp;
  let merchant: Awaited<ReturnType<typeof signedInClient>>;
  before(async () => {
    testApp = await buildTestApp({
      CHECKOUT_SESSIONS_PER_MINUTE_PER_IP: '30',
      CHECKOUT_SESSIONS_PER_MINUTE_PER_CLIENT: '20',
    });
    merchant = await signedInClient(testApp, 'Merchant Ltd', 0);
  });
  after(() => testApp?.close());

  it("60 invalid configs naming the merchant from 6 addresses leave its customer's session open", async () => {
    const base = {
      environment: 'sandbox',
      clientId: merchant.client.oauthClientId,
      customer: { firstName: 'Ada', lastName: 'Obi', emailAddress: 'ada.obi@example.com' },
      currency: 'NGN',
      amount: 2500,
      settlementAccount: { bankCode: '999240', accountNumber: merchant.client.mainAccountNumber },
    };
    const invalid = [
      { currency: 'USD' },
      { environment: 'production' },
      { settlementAccount: { bankCode: '999240', accountNumber: '0000000000' } },
    ];
    for (let i = 0; i < 60; i += 1) {
      const response = await testApp.app.inject({
        method: 'POST',
        url: '/checkout/sessions',
        remoteAddress: `10.50.0.${(i % 6) + 1}`,
        payload: { ...base, referenceCode: `JUNK-${i}`, ...invalid[i % invalid.length] },
      });
      assert.equal(response.statusCode, 400, response.body);
    }
    const real = await testApp.app.inject({
      method: 'POST',
      url: '/checkout/sessions',
      remoteAddress: '10.60.0.1',
      payload: { ...base, referenceCode: 'REAL-1' },
    });
    assert.equal(real.statusCode, 200, real.body);
  });
});

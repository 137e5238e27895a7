import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { signedInClient } from '../../../../test/factories.ts';
import { describeAuthGuards, useRouteContext } from '../../../../test/shared-route-tests.ts';

let serial = 0;
const nextAddress = () => `10.30.${Math.floor(++serial / 250)}.${(serial % 250) + 1}`;

describe('GET and PUT /checkout/settings', () => {
  const context = useRouteContext();
  const settings = (method: 'GET' | 'PUT', payload?: unknown, headers = context().headers) =>
    context().testApp.app.inject({
      method,
      url: '/checkout/settings',
      headers,
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });

  describe('200: the client registers its checkout origins and webhook URLs', () => {
    it('reads empty lists before anything is registered', async () => {
      const response = await settings('GET');
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(response.json().data, {
        allowedOrigins: [],
        webhookUrls: [],
        updatedAt: null,
      });
    });

    it('replaces both lists, without duplicates, and records who changed them', async () => {
      const response = await settings('PUT', {
        allowedOrigins: ['https://shop.example', 'https://shop.example', 'http://localhost:3000'],
        webhookUrls: ['https://api.shop.example/hooks/checkout?token=s3cret'],
      });
      assert.equal(response.statusCode, 200, response.body);
      const data = response.json().data;
      assert.deepEqual(data.allowedOrigins, ['https://shop.example', 'http://localhost:3000']);
      assert.deepEqual(data.webhookUrls, ['https://api.shop.example/hooks/checkout?token=s3cret']);
      assert.match(data.updatedAt, /^\d{4}-\d\d-\d\dT/);
      assert.deepEqual((await settings('GET')).json().data, data);
      const [row] = await context().testApp.db.query<{ details: Record<string, unknown> }>(
        `SELECT details FROM audit_events WHERE action = 'checkout.settings_changed'
          ORDER BY id DESC LIMIT 1`,
      );
      assert.deepEqual(row?.details.webhookUrlOrigins, ['https://api.shop.example']);
      assert.doesNotMatch(JSON.stringify(row?.details), /s3cret/, 'no URL token in the trail');
      // Each client's own: the other client still has none.
      const theirs = await settings('GET', undefined, context().otherHeaders);
      assert.deepEqual(theirs.json().data.allowedOrigins, []);
    });
  });

  describe('400: what is not an origin or a deliverable URL', () => {
    for (const origin of [
      'https://shop.example/',
      'https://shop.example/checkout',
      'shop.example',
      'javascript:alert(1)',
      'https://user@shop.example',
      'ftp://shop.example',
    ]) {
      it(`refuses the origin ${JSON.stringify(origin)}`, async () => {
        const response = await settings('PUT', { allowedOrigins: [origin] });
        assert.equal(response.statusCode, 400, response.body);
        assert.equal(response.json().code, 'VALIDATION_ERROR');
        assert.match(response.json().message, /allowedOrigins\[0\]/);
      });
    }

    it('refuses a webhook URL our deliveries would refuse (a private address)', async () => {
      const response = await settings('PUT', {
        allowedOrigins: ['https://shop.example'],
        webhookUrls: ['http://169.254.169.254/latest'],
      });
      assert.equal(response.statusCode, 400, response.body);
    });

    it('refuses more than 20 origins', async () => {
      const allowedOrigins = Array.from({ length: 21 }, (_, i) => `https://s${i}.example`);
      assert.equal((await settings('PUT', { allowedOrigins })).statusCode, 400);
    });
  });

  describeAuthGuards(context, () => ({ method: 'GET', url: '/checkout/settings' }));
});

describe('POST /checkout/sessions bound to the registered settings', () => {
  const context = useRouteContext();
  let merchant: Awaited<ReturnType<typeof signedInClient>>;
  before(async () => {
    merchant = await signedInClient(context().testApp, 'Bound Shop Ltd', 2);
    const response = await context().testApp.app.inject({
      method: 'PUT',
      url: '/checkout/settings',
      headers: merchant.headers,
      payload: {
        allowedOrigins: ['https://shop.example'],
        webhookUrls: ['https://api.shop.example/checkout-hook'],
      },
    });
    assert.equal(response.statusCode, 200, response.body);
  });
  const config = (extra: Record<string, unknown> = {}) => ({
    environment: 'sandbox',
    clientId: merchant.client.oauthClientId,
    referenceCode: `BOUND-${++serial}`,
    customer: { firstName: 'Ada', lastName: 'Obi', emailAddress: 'ada.obi@example.com' },
    currency: 'NGN',
    amount: 2500,
    settlementAccount: { bankCode: '999240', accountNumber: merchant.client.mainAccountNumber },
    ...extra,
  });
  const open = (payload: unknown, origin?: string) =>
    context().testApp.app.inject({
      method: 'POST',
      url: '/checkout/sessions',
      remoteAddress: nextAddress(),
      headers: origin === undefined ? {} : { origin },
      payload: payload as Record<string, unknown>,
    });

  it('200 from a registered origin, with a redirect on it and a registered webhook URL', async () => {
    const response = await open(
      config({
        redirectUrl: 'https://shop.example/thanks',
        webhookUrl: 'https://api.shop.example/checkout-hook',
      }),
      'https://shop.example',
    );
    assert.equal(response.statusCode, 200, response.body);
  });

  it('403 CHECKOUT_ORIGIN_NOT_ALLOWED from any other page, or with no Origin at all', async () => {
    for (const origin of ['https://evil.example', 'https://shop.example.evil.example', undefined]) {
      const response = await open(config(), origin);
      assert.equal(response.statusCode, 403, `${origin}: ${response.body}`);
      assert.equal(response.json().code, 'CHECKOUT_ORIGIN_NOT_ALLOWED');
    }
  });

  it('400 for a redirect off the registered origins, or a webhook URL nobody registered', async () => {
    for (const [field, change] of [
      ['redirectUrl', { redirectUrl: 'https://evil.example/steal' }],
      ['webhookUrl', { webhookUrl: 'https://evil.example/hook' }],
    ] as const) {
      const response = await open(config(change), 'https://shop.example');
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json().code, 'VALIDATION_ERROR');
      assert.match(response.json().message, new RegExp(field));
    }
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createClient } from '../../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../../test/harness.ts';
import { useRouteContext } from '../../../../test/shared-route-tests.ts';

let serial = 0;
/** A fresh address per call, so the per-IP limit of opening sessions stays out of the way. */
const nextAddress = () => `10.20.${Math.floor(++serial / 250)}.${(serial % 250) + 1}`;

/** The Checkout.js config a merchant page passes, as the widget posts it. */
function checkoutConfig(clientId: string, accountNumber: string, extra: Record<string, unknown>) {
  return {
    environment: 'sandbox',
    clientId,
    referenceCode: `ORDER-${++serial}`,
    customer: {
      firstName: 'Ada',
      lastName: 'Obi',
      emailAddress: 'ada.obi@example.com',
      phoneNumber: '+2348032273616',
    },
    currency: 'NGN',
    amount: 2500,
    feeBearer: 'account',
    settlementAccount: { bankCode: '999240', accountNumber },
    ...extra,
  };
}

describe('POST /checkout/sessions', () => {
  const context = useRouteContext();
  const config = (extra: Record<string, unknown> = {}) =>
    checkoutConfig(context().oauthClientId, context().ownAccountNumber, extra);
  const open = (payload: unknown, headers: Record<string, string> = {}) =>
    context().testApp.app.inject({
      method: 'POST',
      url: '/checkout/sessions',
      remoteAddress: nextAddress(),
      headers,
      payload: payload as Record<string, unknown>,
    });
  const countSessions = async () => {
    const [row] = await context().testApp.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM checkout_sessions',
    );
    return row?.count ?? -1;
  };
  /** The page's view of a session, through the token of its pageUrl. */
  const pageOf = async (pageUrl: string) => {
    const match = /^\/checkout\/pay\/([0-9a-f]{24})#([A-Za-z0-9_-]+)$/.exec(pageUrl);
    assert.ok(match, pageUrl);
    const response = await context().testApp.app.inject({
      method: 'GET',
      url: `/checkout/sessions/${match[1]}`,
      headers: { 'x-checkout-token': match[2] ?? '' },
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().data;
  };
  const verify = async (referenceCode: string) => {
    const { testApp, headers } = context();
    const response = await testApp.app.inject({
      method: 'GET',
      url: `/checkout/${referenceCode}/verify`,
      headers,
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().data;
  };

  describe('200: opens the session and answers where its page is', () => {
    it('answers the session id and the page URL with its token in the fragment', async () => {
      const body = config();
      const response = await open(body);
      assert.equal(response.statusCode, 200, response.body);
      const answer = response.json();
      assert.equal(answer.statusCode, 200);
      assert.equal(answer.message, 'Checkout session opened successfully.');
      const { sessionId, pageUrl, status } = answer.data;
      assert.match(sessionId, /^[0-9a-f]{24}$/);
      assert.match(pageUrl, new RegExp(`^/checkout/pay/${sessionId}#[A-Za-z0-9_-]{43}$`));
      assert.equal(status, 'Pending');
      const page = await pageOf(pageUrl);
      assert.equal(page.id, sessionId);
      assert.equal(page.referenceCode, body.referenceCode);
      assert.equal(page.amount, 2500);
    });

    it('keeps the whole config: customer, fee bearer, URLs and metadata', async () => {
      const body = config({
        amount: '1500.50',
        feeBearer: 'customer',
        redirectUrl: 'https://shop.example/thanks?order=7',
        webhookUrl: 'https://shop.example/hooks/checkout',
        customIconUrl: 'https://shop.example/logo.svg',
        metadata: { orderId: 7, basket: ['tea'] },
      });
      const response = await open(body, { origin: 'https://shop.example' });
      assert.equal(response.statusCode, 200, response.body);
      const page = await pageOf(response.json().data.pageUrl);
      assert.equal(page.amount, 1500.5);
      assert.equal(page.feeBearer, 'customer');
      assert.equal(page.redirectUrl, 'https://shop.example/thanks?order=7');
      assert.equal(page.customIconUrl, 'https://shop.example/logo.svg');
      assert.equal(page.merchantOrigin, 'https://shop.example');
      assert.equal(page.customerName, 'Ada Obi');
      const verified = await verify(body.referenceCode);
      assert.deepEqual(verified.customer, body.customer);
      assert.deepEqual(verified.metadata, { orderId: 7, basket: ['tea'] });
      assert.deepEqual(verified.settlementAccount, body.settlementAccount);
    });

    it("defaults feeBearer to 'account' and a missing phone number to null", async () => {
      const { feeBearer: _, ...body } = config();
      const { phoneNumber: __, ...customer } = body.customer;
      const response = await open({ ...body, customer });
      assert.equal(response.statusCode, 200, response.body);
      const verified = await verify(body.referenceCode);
      assert.equal(verified.feeBearer, 'account');
      assert.equal(verified.customer.phoneNumber, null);
    });

    it('reads the empty strings a published React wrapper sends by default as absent', async () => {
      const body = config({ redirectUrl: '', webhookUrl: '', customIconUrl: '', metadata: '' });
      const response = await open(body);
      assert.equal(response.statusCode, 200, response.body);
      const page = await pageOf(response.json().data.pageUrl);
      assert.equal(page.redirectUrl, null);
      assert.equal(page.customIconUrl, null);
      assert.equal((await verify(body.referenceCode)).metadata, null);
    });

    it('takes the amount as a number or a decimal string', async () => {
      for (const [amount, naira] of [
        [100, 100],
        ['99.9', 99.9],
        [0.01, 0.01],
        ['2500.05', 2500.05],
      ] as const) {
        const body = config({ amount });
        const response = await open(body);
        assert.equal(response.statusCode, 200, `${amount}: ${response.body}`);
        assert.equal((await verify(body.referenceCode)).amount, naira);
      }
    });
  });

  /** The sandbox customer pays the session of this pageUrl by bank transfer. */
  const pay = async (pageUrl: string) => {
    const [, id, token] = /^\/checkout\/pay\/([0-9a-f]{24})#(.+)$/.exec(pageUrl) ?? [];
    const response = await context().testApp.app.inject({
      method: 'POST',
      url: `/checkout/sessions/${id}/simulate`,
      headers: { 'x-checkout-token': token ?? '' },
      payload: { method: 'BANK_TRANSFER' },
    });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json().data.status, 'Completed');
  };

  describe('the same referenceCode: the same config reopens its session, another opens its own', () => {
    it('reopens the same session, with the same token, for the same config', async () => {
      const body = config({ metadata: { orderId: 1, basket: ['tea'] } });
      const first = await open(body, { origin: 'https://shop.example' });
      const before = await countSessions();
      // The same config in another key order and amount spelling is the same session.
      const { amount, currency, ...rest } = body;
      const again = await open(
        { currency, ...rest, amount: `${amount}.00` },
        {
          origin: 'https://shop.example',
        },
      );
      assert.equal(again.statusCode, 200, again.body);
      assert.equal(again.json().data.sessionId, first.json().data.sessionId);
      assert.equal(again.json().data.pageUrl, first.json().data.pageUrl);
      assert.equal(await countSessions(), before);
    });

    it('never hands one caller the session another config opened: customer, URLs, metadata, origin or amount', async () => {
      const body = config({ redirectUrl: 'https://shop.example/thanks', metadata: { orderId: 1 } });
      const first = await open(body, { origin: 'https://shop.example' });
      const changes: [Record<string, unknown>, Record<string, string>][] = [
        [
          { customer: { ...body.customer, firstName: 'Adaeze' } },
          { origin: 'https://shop.example' },
        ],
        [{ redirectUrl: 'https://elsewhere.example/thanks' }, { origin: 'https://shop.example' }],
        [{ webhookUrl: 'https://elsewhere.example/hook' }, { origin: 'https://shop.example' }],
        [{ metadata: { orderId: 2 } }, { origin: 'https://shop.example' }],
        [{}, { origin: 'https://elsewhere.example' }],
        [{ amount: 2500.01 }, { origin: 'https://shop.example' }],
        [{ feeBearer: 'customer' }, { origin: 'https://shop.example' }],
      ];
      const ids = new Set([first.json().data.sessionId]);
      for (const [change, headers] of changes) {
        const response = await open({ ...body, ...change }, headers);
        assert.equal(response.statusCode, 200, `${JSON.stringify(change)}: ${response.body}`);
        ids.add(response.json().data.sessionId);
      }
      assert.equal(ids.size, changes.length + 1, 'each config is a session of its own');
      const page = await pageOf(first.json().data.pageUrl);
      assert.equal(page.redirectUrl, 'https://shop.example/thanks');
      assert.equal(page.merchantOrigin, 'https://shop.example');
    });

    it('once one session of the reference is paid: another config gets 409, the others close', async () => {
      const body = config();
      const first = await open(body);
      const second = await open({ ...body, amount: 99 });
      await pay(first.json().data.pageUrl);
      const before = await countSessions();
      const refused = await open({ ...body, amount: 42 });
      assert.equal(refused.statusCode, 409, refused.body);
      assert.equal(refused.json().code, 'DUPLICATE_REFERENCE');
      assert.match(refused.json().message, /referenceCode/);
      assert.equal(await countSessions(), before);
      // The paid config still reopens its (completed) session.
      const again = await open(body);
      assert.equal(again.json().data.sessionId, first.json().data.sessionId);
      assert.equal(again.json().data.status, 'Completed');
      // The unpaid sibling takes no method any more: the order is paid.
      const [, id, token] =
        /^\/checkout\/pay\/([0-9a-f]{24})#(.+)$/.exec(second.json().data.pageUrl) ?? [];
      const method = await context().testApp.app.inject({
        method: 'POST',
        url: `/checkout/sessions/${id}/bank-transfer`,
        headers: { 'x-checkout-token': token ?? '' },
      });
      assert.equal(method.statusCode, 400, method.body);
      assert.equal(method.json().code, 'CHECKOUT_CLOSED');
      const verified = await verify(body.referenceCode);
      assert.equal(verified.status, 'Completed');
      assert.equal(verified.amount, 2500);
    });

    it("is each client's own: another client can use the same referenceCode", async () => {
      const { testApp } = context();
      const rival = await createClient(testApp.app, 'Other Shop Ltd', 1);
      const body = config();
      const ours = await open(body);
      const theirs = await open({
        ...body,
        clientId: rival.oauthClientId,
        settlementAccount: { bankCode: '999240', accountNumber: rival.mainAccountNumber },
        amount: 99,
      });
      assert.equal(theirs.statusCode, 200, theirs.body);
      assert.notEqual(theirs.json().data.sessionId, ours.json().data.sessionId);
    });
  });

  describe('4xx in the error envelope: refused, storing nothing', () => {
    const assertEnvelope = (response: LightMyRequestResponse, status: number, label: string) => {
      assert.equal(response.statusCode, status, `${label}: ${response.body}`);
      const body = response.json();
      assert.equal(body.statusCode, status, label);
      assert.equal(typeof body.message, 'string', label);
      assert.equal(body.error_description, body.message, label);
      assert.match(body.code, /^[A-Z_]+$/, label);
      assert.equal(body.data, undefined, label);
    };
    const refuses = async (
      payload: unknown,
      expected: { status?: number; code?: string; message?: RegExp },
      label: string,
    ) => {
      const before = await countSessions();
      const response = await open(payload);
      assertEnvelope(response, expected.status ?? 400, label);
      if (expected.code !== undefined) {
        assert.equal(response.json().code, expected.code, label);
      }
      if (expected.message !== undefined) {
        assert.match(response.json().message, expected.message, label);
      }
      assert.equal(await countSessions(), before, `${label}: nothing is stored`);
    };

    it("another client's account as the settlement account, or an unknown one", async () => {
      for (const accountNumber of [context().otherAccountNumber, '0000000000']) {
        await refuses(
          config({ settlementAccount: { bankCode: '999240', accountNumber } }),
          { code: 'VALIDATION_ERROR', message: /settlementAccount\.accountNumber/ },
          accountNumber,
        );
      }
    });

    it('a settlement bank code that is not ours, naming ours', async () => {
      for (const bankCode of ['090286', '000013']) {
        await refuses(
          config({ settlementAccount: { bankCode, accountNumber: context().ownAccountNumber } }),
          { message: /999240/ },
          bankCode,
        );
      }
    });

    it('a clientId that is no active OAuth client id (the ibs_client_id included)', async () => {
      for (const clientId of ['ffffffffffffffffffffffffffffffff', context().ibsClientId, 'x']) {
        await refuses(
          config({ clientId }),
          { code: 'VALIDATION_ERROR', message: /clientId/ },
          clientId,
        );
      }
    });

    it("environment 'production' on the sandbox server, or no environment at all", async () => {
      await refuses(
        config({ environment: 'production' }),
        { code: 'VALIDATION_ERROR', message: /environment must be "sandbox"/ },
        'production',
      );
      await refuses(config({ environment: 'staging' }), {}, 'staging');
      const { environment: _, ...rest } = config();
      await refuses(rest, {}, 'missing');
    });

    it("a currency other than 'NGN'", async () => {
      for (const currency of ['USD', 'ngn', '']) {
        await refuses(config({ currency }), { message: /currency/ }, currency);
      }
    });

    it('amounts that are not money', async () => {
      for (const amount of [0, -5, '0.00', 10.001, '10.001', 'ten', '', '1e3', null, true]) {
        await refuses(config({ amount }), { code: 'INVALID_AMOUNT' }, JSON.stringify(amount));
      }
    });

    it('a missing customer, or a customer without a name or email address', async () => {
      const { customer, ...rest } = config();
      await refuses(rest, { code: 'VALIDATION_ERROR', message: /customer/ }, 'no customer');
      for (const field of ['firstName', 'lastName', 'emailAddress'] as const) {
        const { [field]: _, ...partial } = customer;
        await refuses(
          { ...rest, customer: partial },
          { code: 'VALIDATION_ERROR', message: new RegExp(`customer\\.${field}`) },
          field,
        );
      }
      await refuses({ ...rest, customer: { ...customer, firstName: '' } }, {}, 'blank name');
    });

    it('an email address or phone number that is not one', async () => {
      const { customer } = config();
      for (const emailAddress of ['ada.example.com', 'ada obi@example.com', '@', 'ada@']) {
        await refuses(
          config({ customer: { ...customer, emailAddress } }),
          { message: /customer\.emailAddress/ },
          emailAddress,
        );
      }
      await refuses(
        config({ customer: { ...customer, phoneNumber: '0803 227 3616' } }),
        { message: /customer\.phoneNumber/ },
        'phone with spaces',
      );
    });

    it('a referenceCode with spaces or other characters, empty, or over 100 characters', async () => {
      // sessions, pay and verify name the page's own paths, where verify could not reach them.
      for (const referenceCode of [
        'ORDER 1',
        'order/1',
        'ORDER#1',
        '',
        'R'.repeat(101),
        'sessions',
        'pay',
        'verify',
      ]) {
        await refuses(
          config({ referenceCode }),
          { code: 'VALIDATION_ERROR', message: /referenceCode/ },
          referenceCode,
        );
      }
    });

    it('a redirectUrl or customIconUrl that is not an http(s) URL', async () => {
      for (const [field, url] of [
        ['redirectUrl', 'javascript:alert(1)'],
        ['redirectUrl', 'data:text/html,<script>alert(1)</script>'],
        ['redirectUrl', 'https://user:pass@shop.example/'],
        ['redirectUrl', '/relative/path'],
        ['customIconUrl', 'ftp://x'],
        ['customIconUrl', 'not a url'],
      ] as const) {
        await refuses(
          config({ [field]: url }),
          { code: 'VALIDATION_ERROR', message: new RegExp(`${field} must be an http\\(s\\) URL`) },
          `${field} ${url}`,
        );
      }
    });

    it('a webhookUrl the webhook destination guard refuses', async () => {
      for (const webhookUrl of [
        'ftp://shop.example/hooks',
        'https://user:pass@shop.example/hooks',
        'http://10.0.0.7/hooks',
        'http://169.254.169.254/latest/meta-data',
        'not a url',
      ]) {
        await refuses(
          config({ webhookUrl }),
          { code: 'VALIDATION_ERROR', message: /not an allowed webhook destination/ },
          webhookUrl,
        );
      }
    });

    it('a body that is not the config', async () => {
      await refuses([], {}, 'an array');
      await refuses({}, {}, 'an empty object');
      await refuses(config({ metadata: 'not an object' }), {}, 'metadata as text');
    });
  });

  describe('CORS: merchant pages on any origin open sessions', () => {
    it('answers a preflight from any origin for POST with a JSON body', async () => {
      const response = await context().testApp.app.inject({
        method: 'OPTIONS',
        url: '/checkout/sessions',
        headers: {
          origin: 'https://shop.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
      assert.equal(response.statusCode, 204, response.body);
      assert.equal(response.headers['access-control-allow-origin'], '*');
      assert.match(String(response.headers['access-control-allow-methods']), /POST/);
      assert.match(String(response.headers['access-control-allow-headers']), /content-type/i);
      assert.equal(response.headers['access-control-allow-credentials'], undefined);
    });

    it('lets the page read the answer, a refusal included', async () => {
      const headers = { origin: 'https://shop.example' };
      const opened = await open(config(), headers);
      assert.equal(opened.statusCode, 200, opened.body);
      assert.equal(opened.headers['access-control-allow-origin'], '*');
      const refused = await open(config({ currency: 'USD' }), headers);
      assert.equal(refused.statusCode, 400);
      assert.equal(refused.headers['access-control-allow-origin'], '*');
    });

    it('opens no other route to other origins (the verify call stays server-side)', async () => {
      const { testApp, headers } = context();
      const response = await testApp.app.inject({
        method: 'GET',
        url: '/checkout/ORDER-1/verify',
        headers: { ...headers, origin: 'https://shop.example' },
      });
      assert.equal(response.headers['access-control-allow-origin'], undefined);
    });
  });
});

describe('POST /checkout/sessions: the limits on opening sessions', () => {
  let testApp: TestApp;
  let client: { oauthClientId: string; mainAccountNumber: string };
  before(async () => {
    testApp = await buildTestApp({
      CHECKOUT_SESSIONS_PER_MINUTE_PER_IP: '3',
      CHECKOUT_SESSIONS_PER_MINUTE_PER_CLIENT: '5',
    });
    client = await createClient(testApp.app, 'Acme Ltd', 0);
  });
  after(() => testApp?.close());
  const open = (remoteAddress: string) =>
    testApp.app.inject({
      method: 'POST',
      url: '/checkout/sessions',
      remoteAddress,
      headers: { origin: 'https://shop.example' },
      payload: checkoutConfig(client.oauthClientId, client.mainAccountNumber, {}),
    });
  const assertLimited = (response: LightMyRequestResponse, label: string) => {
    assert.equal(response.statusCode, 429, `${label}: ${response.body}`);
    const body = response.json();
    assert.equal(body.statusCode, 429, label);
    assert.equal(body.code, 'RATE_LIMITED', label);
    assert.equal(body.error, 'Too Many Requests', label);
    assert.match(body.message, /Too many requests/, label);
    assert.equal(body.error_description, body.message, label);
    const retryAfter = Number(response.headers['retry-after']);
    assert.ok(retryAfter > 0 && retryAfter <= 60, `${label}: retry-after ${retryAfter}`);
    assert.equal(response.headers['access-control-allow-origin'], '*', label);
  };

  it('429 RATE_LIMITED with Retry-After for the 4th open from one address within a minute', async () => {
    for (let index = 1; index <= 3; index++) {
      const response = await open('192.0.2.10');
      assert.equal(response.statusCode, 200, `open ${index}: ${response.body}`);
    }
    assertLimited(await open('192.0.2.10'), 'the 4th');
    assertLimited(await open('192.0.2.10'), 'the 5th');
  });

  it('limits a client across addresses too: its 6th session within a minute is refused', async () => {
    // 3 sessions of this client counted above (the refused ones never reached the client limit).
    for (const address of ['192.0.2.20', '192.0.2.21']) {
      const response = await open(address);
      assert.equal(response.statusCode, 200, `${address}: ${response.body}`);
    }
    assertLimited(await open('192.0.2.22'), 'the client limit');
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient } from '../../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../../test/harness.ts';
import { useRouteContext } from '../../../../test/shared-route-tests.ts';
import { cappedShareCharges } from '../../../ledger/charges.ts';

interface PageSession {
  readonly id: string;
  readonly token: string;
  readonly referenceCode: string;
}

describe('GET /checkout/sessions/:id', () => {
  const context = useRouteContext();
  let serial = 0;
  const open = async (extra: Record<string, unknown> = {}, origin?: string) => {
    const { testApp, oauthClientId, ownAccountNumber } = context();
    const referenceCode = `PAGE-${++serial}`;
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/checkout/sessions',
      remoteAddress: `10.30.0.${serial}`,
      headers: origin === undefined ? {} : { origin },
      payload: {
        environment: 'sandbox',
        clientId: oauthClientId,
        referenceCode,
        customer: { firstName: 'Ada', lastName: 'Obi', emailAddress: 'ada.obi@example.com' },
        currency: 'NGN',
        amount: 2500,
        settlementAccount: { bankCode: '999240', accountNumber: ownAccountNumber },
        ...extra,
      },
    });
    assert.equal(response.statusCode, 200, response.body);
    const { sessionId, pageUrl } = response.json().data;
    return { id: sessionId, token: pageUrl.split('#')[1], referenceCode } as PageSession;
  };
  const get = (id: string, token?: string) =>
    context().testApp.app.inject({
      method: 'GET',
      url: `/checkout/sessions/${id}`,
      headers: token === undefined ? {} : { 'x-checkout-token': token },
    });
  const page = async (session: PageSession) => {
    const response = await get(session.id, session.token);
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json().message, 'Checkout session fetched successfully.');
    return response.json().data;
  };
  const kobo = (naira: number) => BigInt(Math.round(naira * 100));
  /** What the merchant keeps of a payment by the method once its charges are taken (kobo). */
  const netOf = (method: 'BANK_TRANSFER' | 'USSD', paidNaira: number) => {
    const { config } = context().testApp;
    const fee =
      method === 'BANK_TRANSFER'
        ? {
            basisPoints: config.virtualAccounts.feeBasisPoints,
            capKobo: config.virtualAccounts.feeCapKobo,
          }
        : { basisPoints: config.ussd.feeBasisPoints, capKobo: config.ussd.feeCapKobo };
    const paid = kobo(paidNaira);
    const { feeKobo, vatKobo } = cappedShareCharges(paid, fee, config.transfers.vatBasisPoints);
    return paid - feeKobo - vatKobo;
  };

  describe('200: what the hosted page shows', () => {
    it('answers the session as the page shows it, and nothing the page does not need', async () => {
      const { testApp, headers } = context();
      const opened = testApp.clock.now();
      const session = await open(
        {
          redirectUrl: 'https://shop.example/thanks',
          customIconUrl: 'https://shop.example/logo.svg',
          metadata: { orderId: 7 },
          webhookUrl: 'https://shop.example/hooks',
        },
        'https://shop.example',
      );
      const view = await page(session);
      const banks = await testApp.app.inject({
        method: 'GET',
        url: '/ussd-payment/banks',
        headers,
      });
      assert.deepEqual(view, {
        id: session.id,
        referenceCode: session.referenceCode,
        environment: 'sandbox',
        merchantName: 'Acme Ltd',
        customIconUrl: 'https://shop.example/logo.svg',
        customerName: 'Ada Obi',
        currency: 'NGN',
        amount: 2500,
        feeBearer: 'account',
        status: 'Pending',
        expiresAt: new Date(opened.getTime() + 3_600_000).toISOString(),
        methods: {
          BANK_TRANSFER: { amountToPay: 2500, customerFee: 0 },
          USSD: { amountToPay: 2500, customerFee: 0 },
        },
        banks: banks
          .json()
          .data.map(({ bankName, ussdBankCode }: { bankName: string; ussdBankCode: string }) => ({
            bankName,
            ussdBankCode,
          })),
        redirectUrl: 'https://shop.example/thanks',
        merchantOrigin: 'https://shop.example',
        result: null,
      });
      assert.equal(view.banks.length, 15);
    });

    it('shows no merchant origin for a session opened without one, or from an opaque origin', async () => {
      assert.equal((await page(await open())).merchantOrigin, null);
      assert.equal((await page(await open({}, 'null'))).merchantOrigin, null);
    });

    it("feeBearer 'account': each method asks the amount, the customer pays no fee", async () => {
      for (const amount of [0.01, 2500, 10_000, 1_000_000]) {
        const view = await page(await open({ amount, feeBearer: 'account' }));
        for (const method of ['BANK_TRANSFER', 'USSD'] as const) {
          assert.deepEqual(view.methods[method], { amountToPay: amount, customerFee: 0 });
        }
      }
    });

    it("feeBearer 'customer': each method adds its fee, so what is paid nets the amount", async () => {
      for (const amount of [1.01, 2500, 9_999.99, 59_677.5, 100_000, 1_000_000]) {
        const view = await page(await open({ amount, feeBearer: 'customer' }));
        for (const method of ['BANK_TRANSFER', 'USSD'] as const) {
          const { amountToPay, customerFee } = view.methods[method];
          const label = `${amount} by ${method}`;
          assert.ok(amountToPay > amount, label);
          assert.equal(kobo(customerFee), kobo(amountToPay) - kobo(amount), label);
          assert.ok(netOf(method, amountToPay) >= kobo(amount), label);
          assert.ok(netOf(method, amountToPay - 0.01) < kobo(amount), `${label}: not minimal`);
        }
      }
    });

    it("feeBearer 'customer': the capped fee (₦300 and VAT) from a payment of ₦60,000", async () => {
      const view = await page(await open({ amount: 100_000, feeBearer: 'customer' }));
      assert.deepEqual(view.methods.BANK_TRANSFER, { amountToPay: 100_322.5, customerFee: 322.5 });
      assert.deepEqual(view.methods.USSD, { amountToPay: 100_322.5, customerFee: 322.5 });
    });

    it("feeBearer 'customer': nothing added where the fee rounds to nothing", async () => {
      const view = await page(await open({ amount: 0.5, feeBearer: 'customer' }));
      assert.deepEqual(view.methods.BANK_TRANSFER, { amountToPay: 0.5, customerFee: 0 });
    });
  });

  describe('Expired once its time has passed', () => {
    it('is Pending to the last millisecond, Expired from expiresAt on', async () => {
      const { testApp } = context();
      const session = await open();
      const restore = testApp.clock.now();
      try {
        testApp.clock.set(new Date(restore.getTime() + 3_600_000 - 1));
        assert.equal((await page(session)).status, 'Pending');
        testApp.clock.set(new Date(restore.getTime() + 3_600_000));
        const expired = await page(session);
        assert.equal(expired.status, 'Expired');
        assert.equal(expired.result, null);
      } finally {
        testApp.clock.set(restore);
      }
      assert.equal((await page(session)).status, 'Pending');
    });
  });

  describe('400 "Unable to locate record": the wrong token, or an id that is no session', () => {
    const assertNotFound = (
      response: Awaited<ReturnType<typeof get>>,
      label: string,
      code = 'RECORD_NOT_FOUND',
    ) => {
      assert.equal(response.statusCode, 400, `${label}: ${response.body}`);
      const body = response.json();
      assert.equal(body.code, code, label);
      if (code === 'RECORD_NOT_FOUND') {
        assert.equal(body.message, 'Unable to locate record', label);
      }
      assert.equal(body.data, undefined, label);
      assert.doesNotMatch(response.body, /PAGE-|Ada|Acme/, `${label}: leaks nothing`);
    };

    it("answers the same for a wrong token, another session's, or one a character off", async () => {
      const session = await open();
      const other = await open();
      const flipped = `${session.token.slice(0, -1)}${session.token.endsWith('A') ? 'B' : 'A'}`;
      for (const [label, token] of [
        ["another session's token", other.token],
        ['one character off', flipped],
        ['shorter', session.token.slice(0, -1)],
        ['longer', `${session.token}A`],
        ['made up', 'x'],
      ] as const) {
        assertNotFound(await get(session.id, token), label);
      }
    });

    it('answers the same for unknown, malformed and uppercase ids with a real token', async () => {
      const session = await open();
      for (const [label, id] of [
        ['unknown', 'ffffffffffffffffffffffff'],
        ['malformed', 'not-an-id'],
        ['injection attempt', encodeURIComponent("' OR '1'='1")],
        ['uppercase hex', session.id.toUpperCase()],
      ] as const) {
        assertNotFound(await get(id, session.token), label);
      }
    });

    it("does not open another client's session with its token and a foreign id", async () => {
      const { testApp } = context();
      const session = await open();
      const rival = await createClient(testApp.app, 'Other Shop Ltd', 1);
      const theirs = await open({
        clientId: rival.oauthClientId,
        settlementAccount: { bankCode: '999240', accountNumber: rival.mainAccountNumber },
      });
      assertNotFound(await get(theirs.id, session.token), 'our token, their id');
    });

    it('400 without the token header (named, as a missing header), leaking nothing', async () => {
      const session = await open();
      assertNotFound(await get(session.id), 'no token', 'VALIDATION_ERROR');
      assert.match((await get(session.id)).json().message, /x-checkout-token/);
    });
  });
});

describe('GET /checkout/sessions/:id: the limit on page calls', () => {
  let testApp: TestApp;
  let session: PageSession;
  before(async () => {
    testApp = await buildTestApp({ CHECKOUT_PAGE_CALLS_PER_MINUTE_PER_IP: '3' });
    const client = await createClient(testApp.app, 'Acme Ltd', 0);
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/checkout/sessions',
      payload: {
        environment: 'sandbox',
        clientId: client.oauthClientId,
        referenceCode: 'LIMITS-1',
        customer: { firstName: 'Ada', lastName: 'Obi', emailAddress: 'ada.obi@example.com' },
        currency: 'NGN',
        amount: 2500,
        settlementAccount: { bankCode: '999240', accountNumber: client.mainAccountNumber },
      },
    });
    const { sessionId, pageUrl } = response.json().data;
    session = { id: sessionId, token: pageUrl.split('#')[1], referenceCode: 'LIMITS-1' };
  });
  after(() => testApp?.close());

  it('counts every page call from one address together: the 4th within a minute is 429', async () => {
    const call = (url: string, method: 'GET' | 'POST', remoteAddress = '198.51.100.7') =>
      testApp.app.inject({
        method,
        url,
        remoteAddress,
        headers: { 'x-checkout-token': session.token },
      });
    const base = `/checkout/sessions/${session.id}`;
    assert.equal((await call(base, 'GET')).statusCode, 200);
    assert.equal((await call(`${base}/bank-transfer`, 'POST')).statusCode, 200);
    assert.equal((await call(base, 'GET')).statusCode, 200);
    const limited = await call(base, 'GET');
    assert.equal(limited.statusCode, 429, limited.body);
    assert.equal(limited.json().code, 'RATE_LIMITED');
    assert.ok(Number(limited.headers['retry-after']) > 0);
    assert.equal((await call(base, 'GET', '198.51.100.8')).statusCode, 200, 'another address');
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  accountBalance,
  adminHeaders,
  type CheckoutPageSession,
  checkoutPageCall,
  createClient,
  openCheckoutSession,
  payVirtualAccount,
} from '../../../../test/factories.ts';
import { buildTestApp, TEST_SECRETS, type TestApp } from '../../../../test/harness.ts';
import { useRouteContext } from '../../../../test/shared-route-tests.ts';

interface Delivery {
  callbackUrl: string | null;
  payload: { type: string; data: { referenceCode: string } & Record<string, unknown> };
}

/**
 * The sandbox customer pays what the hosted page shows, over the simulated NIP network (bank
 * transfer) or USSD gateway: the session completes once, the merchant's account gets what the
 * fee bearer says, and one checkout.payment event carries what verify answers.
 */
describe('POST /checkout/sessions/:id/simulate', () => {
  const context = useRouteContext();
  let serial = 0;
  const open = (extra: Record<string, unknown> = {}): Promise<CheckoutPageSession> => {
    const { testApp, oauthClientId, ownAccountNumber } = context();
    serial++;
    return openCheckoutSession(
      testApp.app,
      { oauthClientId, accountNumber: ownAccountNumber },
      `SIM-${serial}`,
      { remoteAddress: `10.60.0.${serial}`, extra },
    );
  };
  const call = (session: CheckoutPageSession, path: string, payload?: Record<string, unknown>) =>
    checkoutPageCall(context().testApp.app, session, path, payload);
  const simulate = async (session: CheckoutPageSession, method: 'BANK_TRANSFER' | 'USSD') => {
    const response = await call(session, '/simulate', { method });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json().message, 'Sandbox payment made.');
    return response.json().data;
  };
  const page = async (session: CheckoutPageSession) => (await call(session, '')).json().data;
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
  const deliveriesFor = async (referenceCode: string): Promise<Delivery[]> => {
    const { testApp, headers } = context();
    const list = await testApp.app.inject({
      method: 'GET',
      url: '/webhooks/deliveries?type=checkout.payment&limit=100',
      headers,
    });
    assert.equal(list.statusCode, 200, list.body);
    return (list.json().data as Delivery[]).filter(
      (delivery) => delivery.payload.data.referenceCode === referenceCode,
    );
  };
  const kobo = (naira: number) => Math.round(naira * 100);
  const balance = async () =>
    kobo(
      (await accountBalance(
        context().testApp.app,
        context().headers,
        context().ownAccountNumber,
      )) ?? Number.NaN,
    );
  /** The one checkout.payment event of the session, as verify answers the session. */
  const assertOneEvent = async (referenceCode: string, callbackUrl: string | null = null) => {
    const deliveries = await deliveriesFor(referenceCode);
    assert.equal(deliveries.length, 1, `${referenceCode}: one checkout.payment event`);
    const [delivery] = deliveries;
    assert.equal(delivery?.payload.type, 'checkout.payment');
    assert.equal(delivery?.callbackUrl, callbackUrl);
    assert.deepEqual(delivery?.payload.data, await verify(referenceCode));
  };

  describe('BANK_TRANSFER: the customer pays the virtual account the page shows', () => {
    it("feeBearer 'account': completes the session; the merchant gets the amount less the fees", async () => {
      const session = await open({ amount: 2500, feeBearer: 'account' });
      const before = await balance();
      const view = await simulate(session, 'BANK_TRANSFER');
      assert.equal(view.id, session.id);
      assert.equal(view.status, 'Completed');
      const { result } = view;
      assert.equal(result.status, 'Completed');
      assert.equal(result.referenceCode, session.referenceCode);
      assert.equal(result.channel, 'BANK_TRANSFER');
      assert.match(result.transactionId, /^[0-9a-f]{24}$/);
      assert.equal(result.amount, 2500);
      assert.equal(result.amountPaid, 2500);
      // 0.5% is ₦12.50, VAT on it ₦0.94; no stamp duty below ₦10,000.
      assert.equal(result.fees, 13.44);
      assert.equal(result.feeBearer, 'account');
      assert.equal(result.currency, 'NGN');
      assert.equal(result.paidAt, context().testApp.clock.now().toISOString());
      assert.equal((await balance()) - before, kobo(2500) - kobo(13.44));
      assert.deepEqual(await page(session), view);
      await assertOneEvent(session.referenceCode);
    });

    it('pays into the account the page opened, and lands as one Inwards transfer', async () => {
      const { testApp, headers, ownAccountId } = context();
      const session = await open({ amount: 777 });
      const opened = await call(session, '/bank-transfer');
      assert.equal(opened.statusCode, 200, opened.body);
      const view = await simulate(session, 'BANK_TRANSFER');
      const transfers = await testApp.app.inject({
        method: 'GET',
        url: `/transfers?accountId=${ownAccountId}&limit=5`,
        headers,
      });
      const transfer = transfers
        .json()
        .data.find((item: { _id: string }) => item._id === view.result.transactionId);
      assert.ok(transfer, 'the transfer is listed');
      assert.equal(transfer.type, 'Inwards');
      assert.equal(transfer.amount, 777);
      assert.equal(transfer.creditAccountNumber, opened.json().data.accountNumber);
      const paidAgain = await payVirtualAccount(testApp.app, opened.json().data.accountNumber, 777);
      assert.equal(paidAgain.statusCode, 400, 'the account took its one payment');
    });

    it("feeBearer 'customer': the customer pays the fee, the merchant gets exactly the amount", async () => {
      for (const amount of [2500, 1234.56, 9000]) {
        const session = await open({ amount, feeBearer: 'customer' });
        const toPay = (await page(session)).methods.BANK_TRANSFER.amountToPay;
        const before = await balance();
        const { result } = await simulate(session, 'BANK_TRANSFER');
        assert.equal(result.amountPaid, toPay, `${amount}`);
        assert.equal(kobo(result.fees), kobo(toPay) - kobo(amount), `${amount}`);
        const moved = (await balance()) - before;
        // Documented: at most a kobo over, where rounding leaves no exact sum.
        assert.ok(moved - kobo(amount) >= 0 && moved - kobo(amount) <= 1, `${amount}: ${moved}`);
        assert.equal(moved, kobo(toPay) - kobo(result.fees), `${amount}`);
        await assertOneEvent(session.referenceCode);
      }
    });

    it("feeBearer 'customer' from ₦10,000: stamp duty stays the merchant's", async () => {
      const session = await open({ amount: 20_000, feeBearer: 'customer' });
      const toPay = (await page(session)).methods.BANK_TRANSFER.amountToPay;
      const before = await balance();
      const { result } = await simulate(session, 'BANK_TRANSFER');
      assert.equal(result.amountPaid, toPay);
      assert.equal(kobo(result.fees), kobo(toPay) - kobo(20_000) + 5_000);
      assert.equal((await balance()) - before, kobo(20_000) - 5_000);
    });

    it('sends the event to the webhookUrl of the config when it has one', async () => {
      const session = await open({ webhookUrl: 'https://shop.example/hooks/checkout' });
      await simulate(session, 'BANK_TRANSFER');
      await assertOneEvent(session.referenceCode, 'https://shop.example/hooks/checkout');
    });
  });

  describe('USSD: the customer dials the reference of the bank they chose', () => {
    it('400 before a bank is chosen, moving nothing', async () => {
      const session = await open();
      const before = await balance();
      const response = await call(session, '/simulate', { method: 'USSD' });
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json().code, 'VALIDATION_ERROR');
      assert.match(response.json().message, /choose a bank/);
      assert.equal((await page(session)).status, 'Pending');
      assert.equal(await balance(), before);
    });

    it("completes with channel USSD; feeBearer 'account' leaves the amount less the fees", async () => {
      const session = await open({ amount: 3000 });
      const chosen = await call(session, '/ussd', { ussdBankCode: '901' });
      assert.equal(chosen.statusCode, 200, chosen.body);
      const before = await balance();
      const { status, result } = await simulate(session, 'USSD');
      assert.equal(status, 'Completed');
      assert.equal(result.channel, 'USSD');
      assert.equal(result.amountPaid, 3000);
      // 0.5% is ₦15.00, VAT on it ₦1.13 (half up).
      assert.equal(result.fees, 16.13);
      assert.equal((await balance()) - before, kobo(3000) - kobo(16.13));
      const reference = await context().testApp.app.inject({
        method: 'GET',
        url: `/ussd-payment/${chosen.json().data.reference}`,
        headers: context().headers,
      });
      assert.equal(reference.json().data.status, 'Paid');
      assert.equal(reference.json().data.payment.transferId, result.transactionId);
      await assertOneEvent(session.referenceCode);
    });

    it("feeBearer 'customer': the merchant gets exactly the amount", async () => {
      const session = await open({ amount: 4321, feeBearer: 'customer' });
      const toPay = (await page(session)).methods.USSD.amountToPay;
      // The sandbox gateway plays other outcomes for amounts ending .51 to .55.
      assert.ok(![51, 52, 53, 54, 55].includes(kobo(toPay) % 100), `${toPay}`);
      assert.equal((await call(session, '/ussd', { ussdBankCode: '737' })).statusCode, 200);
      const before = await balance();
      const { result } = await simulate(session, 'USSD');
      assert.equal(result.amountPaid, toPay);
      const moved = (await balance()) - before;
      assert.ok(moved - kobo(4321) >= 0 && moved - kobo(4321) <= 1, `${moved}`);
    });

    it('closes the virtual account the page had opened, so it cannot be paid as well', async () => {
      const { testApp } = context();
      const session = await open({ amount: 1500 });
      const account = (await call(session, '/bank-transfer')).json().data;
      assert.equal((await call(session, '/ussd', { ussdBankCode: '737' })).statusCode, 200);
      await simulate(session, 'USSD');
      const before = await balance();
      const late = await payVirtualAccount(testApp.app, account.accountNumber, 1500);
      assert.equal(late.statusCode, 400, late.body);
      assert.equal(late.json().code, 'VIRTUAL_ACCOUNT_CLOSED');
      assert.equal(await balance(), before);
      assert.equal((await verify(session.referenceCode)).channel, 'USSD');
    });
  });

  describe('400 CHECKOUT_CLOSED: nothing more to pay', () => {
    it('on a Completed session, by either method, moving nothing', async () => {
      const session = await open();
      assert.equal((await call(session, '/ussd', { ussdBankCode: '737' })).statusCode, 200);
      await simulate(session, 'BANK_TRANSFER');
      const before = await balance();
      for (const method of ['BANK_TRANSFER', 'USSD']) {
        const response = await call(session, '/simulate', { method });
        assert.equal(response.statusCode, 400, `${method}: ${response.body}`);
        assert.equal(response.json().code, 'CHECKOUT_CLOSED', method);
      }
      assert.equal(await balance(), before);
      assert.equal((await verify(session.referenceCode)).channel, 'BANK_TRANSFER');
      await assertOneEvent(session.referenceCode);
    });

    it('on an Expired session', async () => {
      const { testApp } = context();
      const session = await open();
      const restore = testApp.clock.now();
      testApp.clock.advanceSeconds(3_600);
      try {
        const response = await call(session, '/simulate', { method: 'BANK_TRANSFER' });
        assert.equal(response.statusCode, 400, response.body);
        assert.equal(response.json().code, 'CHECKOUT_CLOSED');
      } finally {
        testApp.clock.set(restore);
      }
    });
  });

  describe('400: not a method, or not the session', () => {
    it('an unknown method, a wrong token', async () => {
      const session = await open();
      const unknown = await call(session, '/simulate', { method: 'CARD' });
      assert.equal(unknown.statusCode, 400, unknown.body);
      const wrong = await call({ ...session, token: 'x' }, '/simulate', {
        method: 'BANK_TRANSFER',
      });
      assert.equal(wrong.statusCode, 400, wrong.body);
      assert.equal(wrong.json().message, 'Unable to locate record');
      assert.equal((await page(session)).status, 'Pending');
    });
  });
});

describe('POST /checkout/sessions/:id/simulate in production', () => {
  let testApp: TestApp;
  let session: CheckoutPageSession;
  before(async () => {
    testApp = await buildTestApp({
      IBS_ENV: 'production',
      // Required in production; the harness runs on its own test database regardless.
      DATABASE_URL: 'postgres://unused.invalid/openibs',
      ADMIN_TOKEN: TEST_SECRETS.adminToken,
      TOKEN_SIGNING_SECRET: TEST_SECRETS.tokenSigningSecret,
      OPERATOR_SECRETS_KEY: 'c'.repeat(64),
      INSTITUTION_CODE: '999240',
      // Registering the client's app would wait for a second operator (four eyes).
      FOUR_EYES: 'none',
    });
    const client = await createClient(testApp.app, 'Acme Ltd', 0);
    const payload = {
      environment: 'production',
      clientId: client.oauthClientId,
      referenceCode: 'PROD-1',
      customer: { firstName: 'Ada', lastName: 'Obi', emailAddress: 'ada.obi@example.com' },
      currency: 'NGN',
      amount: 2500,
      settlementAccount: { bankCode: '999240', accountNumber: client.mainAccountNumber },
    };
    // Production opens no checkout for a client that registered no origin.
    const unregistered = await testApp.app.inject({
      method: 'POST',
      url: '/checkout/sessions',
      headers: { origin: 'https://shop.example' },
      payload,
    });
    assert.equal(unregistered.statusCode, 403, unregistered.body);
    assert.equal(unregistered.json().code, 'CHECKOUT_NOT_CONFIGURED');
    const registered = await testApp.app.inject({
      method: 'PUT',
      url: `/admin/clients/${client.ibsClientId}/checkout-settings`,
      headers: adminHeaders,
      payload: { allowedOrigins: ['https://shop.example'] },
    });
    assert.equal(registered.statusCode, 200, registered.body);
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/checkout/sessions',
      headers: { origin: 'https://shop.example' },
      payload,
    });
    assert.equal(response.statusCode, 200, response.body);
    const { sessionId, pageUrl } = response.json().data;
    session = { id: sessionId, token: pageUrl.split('#')[1], referenceCode: 'PROD-1' };
  });
  after(() => testApp?.close());

  it('403 SANDBOX_ONLY: nobody pays by simulation, the session stays Pending', async () => {
    const headers = { 'x-checkout-token': session.token };
    const response = await testApp.app.inject({
      method: 'POST',
      url: `/checkout/sessions/${session.id}/simulate`,
      headers,
      payload: { method: 'BANK_TRANSFER' },
    });
    assert.equal(response.statusCode, 403, response.body);
    assert.equal(response.json().code, 'SANDBOX_ONLY');
    const view = await testApp.app.inject({
      method: 'GET',
      url: `/checkout/sessions/${session.id}`,
      headers,
    });
    assert.equal(view.json().data.status, 'Pending');
    assert.equal(view.json().data.environment, 'production');
  });
});

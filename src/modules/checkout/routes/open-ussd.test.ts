import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type CheckoutPageSession,
  checkoutPageCall,
  dialUssd,
  openCheckoutSession,
} from '../../../../test/factories.ts';
import { useRouteContext } from '../../../../test/shared-route-tests.ts';

describe('POST /checkout/sessions/:id/ussd', () => {
  const context = useRouteContext();
  let serial = 0;
  const open = (extra: Record<string, unknown> = {}): Promise<CheckoutPageSession> => {
    const { testApp, oauthClientId, ownAccountNumber } = context();
    serial++;
    return openCheckoutSession(
      testApp.app,
      { oauthClientId, accountNumber: ownAccountNumber },
      `USSD-${serial}`,
      { remoteAddress: `10.50.0.${serial}`, extra },
    );
  };
  const call = (session: CheckoutPageSession, path: string, payload?: Record<string, unknown>) =>
    checkoutPageCall(context().testApp.app, session, path, payload);
  const ussd = async (session: CheckoutPageSession, ussdBankCode: string) => {
    const response = await call(session, '/ussd', { ussdBankCode });
    assert.equal(response.statusCode, 200, `${ussdBankCode}: ${response.body}`);
    assert.equal(response.json().message, 'USSD details fetched successfully.');
    return response.json().data;
  };
  const page = async (session: CheckoutPageSession) =>
    (
      await context().testApp.app.inject({
        method: 'GET',
        url: `/checkout/sessions/${session.id}`,
        headers: { 'x-checkout-token': session.token },
      })
    ).json().data;
  const later = async <T>(seconds: number, body: () => Promise<T>): Promise<T> => {
    const { clock } = context().testApp;
    const restore = clock.now();
    clock.advanceSeconds(seconds);
    try {
      return await body();
    } finally {
      clock.set(restore);
    }
  };

  describe('200: the string the customer dials at the bank they chose', () => {
    it('answers a 10-digit reference in the dial string of that bank, the amount and a 15-minute expiry', async () => {
      const { testApp, headers, ownAccountNumber } = context();
      const session = await open();
      const now = testApp.clock.now();
      const details = await ussd(session, '901');
      assert.match(details.reference, /^\d{10}$/);
      assert.equal(details.ussdString, `*901*000*${details.reference}#`);
      assert.equal(details.bankName, 'Access Bank');
      assert.equal(details.amount, 2500);
      assert.equal(new Date(details.expiresAt).getTime(), now.getTime() + 900_000);
      assert.deepEqual(Object.keys(details).sort(), [
        'amount',
        'bankName',
        'expiresAt',
        'reference',
        'ussdString',
      ]);
      // It is a USSD reference of the merchant's, named for it, settling to the session's account,
      // whose own event goes to the merchant's webhook URL only.
      const reference = await testApp.app.inject({
        method: 'GET',
        url: `/ussd-payment/${details.reference}`,
        headers,
      });
      assert.equal(reference.statusCode, 200, reference.body);
      const stored = reference.json().data;
      assert.equal(stored.merchantName, 'Acme Ltd');
      assert.equal(stored.callbackUrl, null);
      assert.equal(stored.status, 'Pending');
      assert.deepEqual(stored.settlementAccount, {
        bankCode: '999240',
        accountNumber: ownAccountNumber,
      });
    });

    it('asks what the page shows the customer to pay by USSD', async () => {
      for (const feeBearer of ['account', 'customer']) {
        const session = await open({ feeBearer, amount: 4000 });
        const details = await ussd(session, '737');
        assert.equal(details.amount, (await page(session)).methods.USSD.amountToPay, feeBearer);
        assert.equal(details.amount > 4000, feeBearer === 'customer', feeBearer);
      }
    });

    it('answers the same reference again for the same bank, however the code is written', async () => {
      const session = await open();
      const first = await ussd(session, '901');
      assert.deepEqual(await ussd(session, '901'), first);
      assert.deepEqual(await ussd(session, '*901#'), first);
      assert.deepEqual(await later(899, () => ussd(session, '901')), first);
    });

    it('keeps one reference when the customer picks another bank: only the dial string follows', async () => {
      const session = await open();
      const access = await ussd(session, '901');
      const gtb = await ussd(session, '737');
      assert.equal(gtb.reference, access.reference);
      assert.equal(gtb.ussdString, `*737*000*${gtb.reference}#`);
      assert.equal(gtb.bankName, 'Guaranty Trust Bank');
      assert.equal(access.ussdString, `*901*000*${access.reference}#`);
      assert.deepEqual(await ussd(session, '901'), access);
    });

    it('answers a new reference once the last one has expired and the session is still open', async () => {
      const session = await open();
      const first = await ussd(session, '966');
      const second = await later(900, () => ussd(session, '966'));
      assert.notEqual(second.reference, first.reference);
    });
  });

  describe('400: refused, opening nothing', () => {
    it('a bank that is not in the USSD bank list, naming ussdBankCode', async () => {
      const session = await open();
      const chosen = await ussd(session, '737');
      for (const ussdBankCode of ['000', '000013', '*737*000#', '']) {
        const response = await call(session, '/ussd', { ussdBankCode });
        assert.equal(response.statusCode, 400, `${ussdBankCode}: ${response.body}`);
        assert.match(response.json().message, /ussdBankCode/, ussdBankCode);
      }
      assert.deepEqual(await ussd(session, '737'), chosen, 'the chosen reference stands');
    });

    it('no bank at all', async () => {
      const response = await call(await open(), '/ussd', {});
      assert.equal(response.statusCode, 400, response.body);
      assert.match(response.json().message, /ussdBankCode/);
    });

    it('a wrong token: "Unable to locate record"', async () => {
      const session = await open();
      const response = await call({ ...session, token: (await open()).token }, '/ussd', {
        ussdBankCode: '737',
      });
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json().message, 'Unable to locate record');
    });

    it('CHECKOUT_CLOSED once the session is Completed or Expired', async () => {
      const completed = await open();
      const { reference } = await ussd(completed, '737');
      const dialled = await dialUssd(context().testApp.app, reference);
      assert.equal(dialled.json().data.outcome, 'paid', dialled.body);
      assert.equal((await page(completed)).status, 'Completed');
      const afterPayment = await call(completed, '/ussd', { ussdBankCode: '901' });
      assert.equal(afterPayment.statusCode, 400, afterPayment.body);
      assert.equal(afterPayment.json().code, 'CHECKOUT_CLOSED');
      const expired = await open();
      const afterExpiry = await later(3_600, () => call(expired, '/ussd', { ussdBankCode: '901' }));
      assert.equal(afterExpiry.statusCode, 400, afterExpiry.body);
      assert.equal(afterExpiry.json().code, 'CHECKOUT_CLOSED');
    });
  });

  describe('402: the gateway cannot issue a reference', () => {
    it('answers USSD_GATEWAY_UNAVAILABLE and leaves the session as it was (sandbox amount .55)', async () => {
      const session = await open({ amount: '1000.55' });
      const response = await call(session, '/ussd', { ussdBankCode: '737' });
      assert.equal(response.statusCode, 402, response.body);
      assert.equal(response.json().code, 'USSD_GATEWAY_UNAVAILABLE');
      assert.equal((await page(session)).status, 'Pending');
    });
  });
});

import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  type CheckoutPageSession,
  checkoutPageCall,
  createClient,
  dialUssd,
  issueTokens,
  openCheckoutSession,
  payVirtualAccount,
  rsaKeyPair,
} from '../../../../test/factories.ts';
import { describeAuthGuards, useRouteContext } from '../../../../test/shared-route-tests.ts';

describe('GET /checkout/:referenceCode/verify', () => {
  const context = useRouteContext();
  let rival: { oauthClientId: string; mainAccountNumber: string };
  before(async () => {
    rival = await createClient(context().testApp.app, 'Other Shop Ltd', 1);
  });
  let serial = 0;
  const open = (
    extra: Record<string, unknown> = {},
    owner = { clientId: context().oauthClientId, accountNumber: context().ownAccountNumber },
  ): Promise<CheckoutPageSession> => {
    const referenceCode = (extra.referenceCode as string | undefined) ?? `VERIFY-${++serial}`;
    return openCheckoutSession(
      context().testApp.app,
      { oauthClientId: owner.clientId, accountNumber: owner.accountNumber },
      referenceCode,
      { remoteAddress: `10.70.0.${++serial % 250}`, extra },
    );
  };
  const call = (session: CheckoutPageSession, path: string, payload?: Record<string, unknown>) =>
    checkoutPageCall(context().testApp.app, session, path, payload);
  const verifyAt = (url: string, headers = context().headers) =>
    context().testApp.app.inject({ method: 'GET', url, headers });
  const verify = async (referenceCode: string) => {
    const response = await verifyAt(`/checkout/${referenceCode}/verify`);
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json().message, 'Transaction Fetched Successfully.');
    return response.json().data;
  };
  const events = async (referenceCode: string) => {
    const list = await verifyAt('/webhooks/deliveries?type=checkout.payment&limit=100');
    assert.equal(list.statusCode, 200, list.body);
    return (
      list.json().data as {
        payload: { data: { referenceCode: string } & Record<string, unknown> };
      }[]
    ).filter((delivery) => delivery.payload.data.referenceCode === referenceCode);
  };

  describe('200: how the payment stands', () => {
    it('Pending before payment, with the session as the merchant configured it', async () => {
      const { testApp, ownAccountNumber } = context();
      const opened = testApp.clock.now().toISOString();
      const session = await open({
        amount: '1500.50',
        feeBearer: 'customer',
        customer: {
          firstName: 'Ada',
          lastName: 'Obi',
          emailAddress: 'ada.obi@example.com',
          phoneNumber: '+2348032273616',
        },
        metadata: { orderId: 7 },
      });
      assert.deepEqual(await verify(session.referenceCode), {
        _id: session.id,
        referenceCode: session.referenceCode,
        status: 'Pending',
        currency: 'NGN',
        amount: 1500.5,
        amountPaid: null,
        fees: null,
        settledAmount: null,
        feeBearer: 'customer',
        channel: null,
        transactionId: null,
        paidAt: null,
        customer: {
          firstName: 'Ada',
          lastName: 'Obi',
          emailAddress: 'ada.obi@example.com',
          phoneNumber: '+2348032273616',
        },
        settlementAccount: { bankCode: '999240', accountNumber: ownAccountNumber },
        metadata: { orderId: 7 },
        expiresAt: new Date(Date.parse(opened) + 3_600_000).toISOString(),
        createdAt: opened,
        updatedAt: opened,
      });
    });

    it('Completed after payment, with what was paid, taken and settled', async () => {
      const session = await open({ amount: 2500 });
      const paid = await call(session, '/simulate', { method: 'BANK_TRANSFER' });
      assert.equal(paid.statusCode, 200, paid.body);
      const verified = await verify(session.referenceCode);
      assert.equal(verified.status, 'Completed');
      assert.equal(verified.channel, 'BANK_TRANSFER');
      assert.equal(verified.amount, 2500);
      assert.equal(verified.amountPaid, 2500);
      assert.equal(verified.fees, 13.44);
      assert.equal(verified.settledAmount, 2486.56);
      assert.equal(verified.transactionId, paid.json().data.result.transactionId);
      assert.equal(verified.paidAt, paid.json().data.result.paidAt);
    });

    it('answers the same on /checkout/verify/:referenceCode (the order one client sends)', async () => {
      const pending = await open();
      const completed = await open();
      await call(completed, '/simulate', { method: 'BANK_TRANSFER' });
      for (const { referenceCode } of [pending, completed]) {
        const reversed = await verifyAt(`/checkout/verify/${referenceCode}`);
        assert.equal(reversed.statusCode, 200, reversed.body);
        assert.deepEqual(
          reversed.json(),
          (await verifyAt(`/checkout/${referenceCode}/verify`)).json(),
        );
      }
    });

    it('Expired once its time has passed unpaid', async () => {
      const { testApp } = context();
      const session = await open();
      const restore = testApp.clock.now();
      testApp.clock.advanceSeconds(3_600);
      try {
        // The session lives as long as an access token: a fresh token, signed with the same key.
        const { ibsClientId, oauthClientId, ownAccountId, ownAccountNumber } = context();
        const tokens = await issueTokens(testApp, {
          ibsClientId,
          oauthClientId,
          privateKey: rsaKeyPair(0).privateKey,
          mainAccountId: ownAccountId,
          mainAccountNumber: ownAccountNumber,
        });
        const response = await verifyAt(`/checkout/${session.referenceCode}/verify`, {
          authorization: `Bearer ${tokens.access_token}`,
          clientid: ibsClientId,
        });
        assert.equal(response.statusCode, 200, response.body);
        assert.equal(response.json().data.status, 'Expired');
      } finally {
        testApp.clock.set(restore);
      }
    });

    it("reads each client's own referenceCode: the same code of two clients are two payments", async () => {
      const ours = await open({ referenceCode: 'SHARED-CODE', amount: 10 });
      await open(
        { referenceCode: 'SHARED-CODE', amount: 20 },
        { clientId: rival.oauthClientId, accountNumber: rival.mainAccountNumber },
      );
      const verified = await verify('SHARED-CODE');
      assert.equal(verified._id, ours.id);
      assert.equal(verified.amount, 10);
    });
  });

  describe('400 "Unable to locate record": another client\'s referenceCode, or an unknown one', () => {
    it('answers the same on both paths, leaking nothing', async () => {
      const theirs = await open(
        { amount: 30 },
        { clientId: rival.oauthClientId, accountNumber: rival.mainAccountNumber },
      );
      for (const referenceCode of [theirs.referenceCode, 'NO-SUCH-ORDER', theirs.id]) {
        for (const url of [
          `/checkout/${referenceCode}/verify`,
          `/checkout/verify/${referenceCode}`,
        ]) {
          const response = await verifyAt(url);
          assert.equal(response.statusCode, 400, `${url}: ${response.body}`);
          assert.equal(response.json().message, 'Unable to locate record', url);
          assert.equal(response.json().code, 'RECORD_NOT_FOUND', url);
          assert.equal(response.json().data, undefined, url);
        }
      }
    });
  });

  describe('a payment made while no page watched', () => {
    /** A session whose bank-transfer account the customer pays straight from their bank. */
    const paidDirectly = async (amount: number) => {
      const session = await open({ amount });
      const opened = await call(session, '/bank-transfer');
      assert.equal(opened.statusCode, 200, opened.body);
      const payment = await payVirtualAccount(
        context().testApp.app,
        opened.json().data.accountNumber,
        amount,
      );
      assert.equal(payment.statusCode, 201, payment.body);
      return { session, payment: payment.json().data };
    };

    it('is answered as the payment left it, with the one checkout.payment event it queued', async () => {
      const { session, payment } = await paidDirectly(1200);
      const sent = await events(session.referenceCode);
      assert.equal(sent.length, 1, 'queued by the payment, before anybody looked');
      const verified = await verify(session.referenceCode);
      assert.equal(verified.status, 'Completed');
      assert.equal(verified.channel, 'BANK_TRANSFER');
      assert.equal(verified.amountPaid, 1200);
      assert.equal(verified.transactionId, payment._id);
      assert.deepEqual(sent[0]?.payload.data, verified);
      // Reading it again sends nothing more.
      assert.deepEqual(await verify(session.referenceCode), verified);
      assert.equal((await events(session.referenceCode)).length, 1);
    });

    it('is completed by a USSD reference dialled straight at the bank the same way', async () => {
      const session = await open({ amount: 1400 });
      const chosen = await call(session, '/ussd', { ussdBankCode: '737' });
      assert.equal(chosen.statusCode, 200, chosen.body);
      const dialled = await dialUssd(context().testApp.app, chosen.json().data.reference);
      assert.equal(dialled.json().data.outcome, 'paid', dialled.body);
      const sent = await events(session.referenceCode);
      assert.equal(sent.length, 1);
      assert.equal(sent[0]?.payload.data.channel, 'USSD');
      assert.deepEqual(sent[0]?.payload.data, await verify(session.referenceCode));
    });

    it('leaves alone a session with no method opened, or none paid', async () => {
      const untouched = await open();
      const unpaid = await open();
      assert.equal((await call(unpaid, '/bank-transfer')).statusCode, 200);
      for (const session of [untouched, unpaid]) {
        assert.equal((await verify(session.referenceCode)).status, 'Pending');
        assert.equal((await events(session.referenceCode)).length, 0);
      }
    });

    it('completes a session whose account, opened in time, is paid after the session expired', async () => {
      const { testApp } = context();
      const session = await open({ amount: 1600 });
      const restore = testApp.clock.now();
      try {
        testApp.clock.advanceSeconds(3_000);
        const account = (await call(session, '/bank-transfer')).json().data;
        testApp.clock.advanceSeconds(700);
        assert.equal((await call(session, '')).json().data.status, 'Expired');
        const payment = await payVirtualAccount(testApp.app, account.accountNumber, 1600);
        assert.equal(payment.statusCode, 201, payment.body);
        assert.equal((await call(session, '')).json().data.status, 'Completed');
      } finally {
        testApp.clock.set(restore);
      }
      assert.equal((await verify(session.referenceCode)).status, 'Completed');
      assert.equal((await events(session.referenceCode)).length, 1);
    });
  });

  describeAuthGuards(context, () => ({ method: 'GET', url: '/checkout/ORDER-1/verify' }));
});

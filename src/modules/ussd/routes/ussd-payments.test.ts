import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  accountBalance,
  adminHeaders,
  createUssdReference,
  dialUssd,
} from '../../../../test/factories.ts';
import { describeAdminAuthGuards, useRouteContext } from '../../../../test/shared-route-tests.ts';
import { createUssdStatusQueryWorker } from '../ussd-status-query-worker.ts';

interface Delivery {
  callbackUrl: string | null;
  payload: { type: string; data: { reference: string } & Record<string, unknown> };
}

/**
 * A customer dials a reference at their bank (the sandbox gateway, POST /admin/sandbox/ussd-dials):
 * each outcome of the simulator checked through the API, the settlement account's balance and
 * statement, and the ussd.payment webhook. What is accepted lands once, less 0.5% and VAT;
 * what is refused or declined moves nothing.
 */
describe('paying a USSD reference', () => {
  const context = useRouteContext();
  const balance = async () =>
    (await accountBalance(context().testApp.app, context().headers, context().ownAccountNumber)) ??
    0;
  const newReference = (amount: string, extra: Record<string, unknown> = {}) =>
    createUssdReference(context().testApp.app, context().headers, context().ownAccountNumber, {
      amount,
      ...extra,
    });
  const kobo = (naira: number) => Math.round(naira * 100);
  /** The balance moved by exactly these naira since `before` (compared in kobo). */
  const assertMoved = async (before: number, ...naira: number[]) =>
    assert.equal(
      kobo(await balance()),
      kobo(before) + naira.reduce((sum, value) => sum + kobo(value), 0),
    );
  const dial = async (reference: string, extra: Record<string, unknown> = {}) => {
    const response = await dialUssd(context().testApp.app, reference, extra);
    assert.equal(response.statusCode, 200, response.body);
    return response.json().data;
  };
  const get = async (reference: string) =>
    (
      await context().testApp.app.inject({
        method: 'GET',
        url: `/ussd-payment/${reference}`,
        headers: context().headers,
      })
    ).json().data;
  const deliveriesFor = async (reference: string): Promise<Delivery[]> => {
    const list = await context().testApp.app.inject({
      method: 'GET',
      url: '/webhooks/deliveries?type=ussd.payment&limit=100',
      headers: context().headers,
    });
    assert.equal(list.statusCode, 200, list.body);
    return (list.json().data as Delivery[]).filter(
      (delivery) => delivery.payload.data.reference === reference,
    );
  };
  const statementTop = async (rows: number) => {
    const { testApp, headers, ownAccountId } = context();
    const response = await testApp.app.inject({
      method: 'GET',
      url: `/accounts/${ownAccountId}/statement?page=0&limit=${rows}`,
      headers,
    });
    return response.json().data as { type: string; amount: number; narration: string }[];
  };
  /** The status-query worker once, `seconds` later (the clock goes back after). */
  const runStatusQueries = async (seconds: number) => {
    const { testApp } = context();
    testApp.clock.advanceSeconds(seconds);
    try {
      return await createUssdStatusQueryWorker({
        db: testApp.db,
        clock: testApp.clock,
        ussd: testApp.services.ussdService,
        batchSize: 100,
        pollIntervalMs: 1000,
        claimSeconds: 30,
      }).runOnce();
    } finally {
      testApp.clock.advanceSeconds(-seconds);
    }
  };

  describe('paid', () => {
    it('credits the settlement account less 0.5% and VAT, once, with a statement line naming the reference and the bank', async () => {
      const reference = await newReference('1500.00');
      const before = await balance();
      const dialled = await dial(reference.reference);
      assert.equal(dialled.outcome, 'paid');
      assert.match(dialled.sessionId, /^000013\d{24}$/);
      await assertMoved(before, 1500, -7.5, -0.56);
      const paid = await get(reference.reference);
      assert.equal(paid.status, 'Paid');
      assert.deepEqual(paid, dialled.reference);
      assert.equal(paid.payment.sessionId, dialled.sessionId);
      assert.equal(paid.payment.amount, 1500);
      assert.equal(paid.payment.fees, 7.5);
      assert.equal(paid.payment.vat, 0.56);
      assert.equal(paid.payment.stampDuty, 0);
      assert.equal(paid.payment.ussdBankCode, '737');
      assert.equal(paid.payment.bankName, 'Guaranty Trust Bank');
      assert.equal(paid.payment.bankCode, '000013');
      assert.equal(paid.payment.payerAccountName, 'SANDBOX USSD PAYER');
      const [vat, fee, credit] = await statementTop(3);
      assert.deepEqual(
        [credit?.type, credit?.amount, fee?.type, fee?.amount, vat?.type, vat?.amount],
        ['Credit', 1500, 'Debit', 7.5, 'Debit', 0.56],
      );
      assert.equal(
        credit?.narration,
        `USSD ${reference.reference} via Guaranty Trust Bank from SANDBOX USSD PAYER`,
      );
    });

    it('takes a payment from any listed bank, naming that bank', async () => {
      const reference = await newReference('200');
      const dialled = await dial(reference.reference, { ussdBankCode: '901' });
      assert.equal(dialled.outcome, 'paid');
      assert.match(dialled.sessionId, /^000014/);
      const paid = await get(reference.reference);
      assert.equal(paid.ussdBankCode, '737', 'the reference keeps the bank it was made for');
      assert.equal(paid.payment.ussdBankCode, '901');
      assert.equal(paid.payment.bankName, 'Access Bank');
      assert.match((await statementTop(3))[2]?.narration ?? '', /via Access Bank/);
    });

    it('caps the fee at ₦300 and takes stamp duty on ₦10,000 or more', async () => {
      const reference = await newReference('100000');
      const before = await balance();
      assert.equal((await dial(reference.reference)).outcome, 'paid');
      const { payment } = await get(reference.reference);
      assert.deepEqual([payment.fees, payment.vat, payment.stampDuty], [300, 22.5, 50]);
      await assertMoved(before, 100_000, -300, -22.5, -50);
    });

    it('refuses a second payment on a paid reference: reversed, and the money lands once', async () => {
      const reference = await newReference('300');
      assert.equal((await dial(reference.reference)).outcome, 'paid');
      const before = await balance();
      const again = await dial(reference.reference, { ussdBankCode: '966' });
      assert.equal(again.outcome, 'reversed');
      assert.equal(again.code, 'USSD_REFERENCE_CLOSED');
      assert.match(again.reason, /paid already/);
      assert.equal(await balance(), before);
      assert.equal((await get(reference.reference)).payment.ussdBankCode, '737');
      assert.equal((await deliveriesFor(reference.reference)).length, 1);
    });
  });

  describe('the ussd.payment webhook', () => {
    it('goes to the callbackUrl with the paid reference', async () => {
      const reference = await newReference('750');
      await dial(reference.reference);
      const deliveries = await deliveriesFor(reference.reference);
      assert.equal(deliveries.length, 1);
      const [delivery] = deliveries;
      assert.equal(delivery?.callbackUrl, 'https://merchant.example.com/hooks/ussd');
      assert.equal(delivery?.payload.type, 'ussd.payment');
      assert.deepEqual(delivery?.payload.data, await get(reference.reference));
    });

    it('comes with one transfer event for the settlement credit, which /transfers/status answers', async () => {
      const { testApp, headers, ownAccountId, ownAccountNumber } = context();
      const reference = await newReference('760');
      const dialled = await dial(reference.reference);
      const { transferId, sessionId } = dialled.reference.payment;
      const transfers = await testApp.app.inject({
        method: 'GET',
        url: '/webhooks/deliveries?type=transfer&limit=100',
        headers,
      });
      const credits = (
        transfers.json().data as {
          callbackUrl: string | null;
          payload: { data: Record<string, unknown> };
        }[]
      ).filter((item) => item.payload.data._id === transferId);
      assert.equal(credits.length, 1, transfers.body);
      const [credit] = credits;
      assert.equal(credit?.callbackUrl, null, "the settlement account has none: the client's URL");
      assert.equal(credit?.payload.data.account, ownAccountId);
      assert.equal(credit?.payload.data.type, 'Inwards');
      assert.equal(credit?.payload.data.creditAccountNumber, ownAccountNumber);
      assert.equal(credit?.payload.data.paymentReference, sessionId);
      assert.deepEqual(
        [credit?.payload.data.amount, credit?.payload.data.fees, credit?.payload.data.vat],
        [760, 3.8, 0.29],
      );
      const status = await testApp.app.inject({
        method: 'POST',
        url: '/transfers/status',
        headers,
        payload: { sessionId },
      });
      assert.equal(status.statusCode, 200, status.body);
      assert.deepEqual(status.json().data, credit?.payload.data);
    });

    it("goes to the client's webhook URL as well when one is set, once when it is the same", async () => {
      const { testApp, headers } = context();
      const setUrl = (url: string | null) =>
        testApp.app.inject({ method: 'PUT', url: '/webhooks/settings', headers, payload: { url } });
      assert.equal((await setUrl('https://client.example.com/hooks')).statusCode, 200);
      try {
        const reference = await newReference('80');
        await dial(reference.reference);
        const urls = (await deliveriesFor(reference.reference)).map((item) => item.callbackUrl);
        assert.deepEqual(urls.sort(), ['https://merchant.example.com/hooks/ussd', null].sort());
        const same = await newReference('81', {
          callbackUrl: 'https://client.example.com/hooks',
        });
        await dial(same.reference);
        assert.equal((await deliveriesFor(same.reference)).length, 1);
      } finally {
        await setUrl(null);
      }
    });
  });

  describe('declined by the customer’s bank (amount ending .51)', () => {
    it('moves nothing, sends nothing, and leaves the reference payable', async () => {
      const reference = await newReference('1000.51');
      const before = await balance();
      for (const bank of ['737', '894']) {
        const dialled = await dial(reference.reference, { ussdBankCode: bank });
        assert.equal(dialled.outcome, 'declined');
        assert.equal(dialled.reason, 'Insufficient funds');
        assert.equal(dialled.reference.status, 'Pending');
      }
      assert.equal(await balance(), before);
      assert.equal((await get(reference.reference)).payment, null);
      assert.equal((await deliveriesFor(reference.reference)).length, 0);
    });
  });

  describe('the notice is lost, then a status query finds the payment (amount ending .52)', () => {
    it('stays Pending until the worker asks the gateway, then settles once and sends the event', async () => {
      const reference = await newReference('600.52');
      const before = await balance();
      const dialled = await dial(reference.reference);
      assert.equal(dialled.outcome, 'noticeLost');
      assert.equal(dialled.reference.status, 'Pending');
      assert.equal(await balance(), before);
      assert.equal((await deliveriesFor(reference.reference)).length, 0);
      // Not due before the first scheduled query (60 s).
      await runStatusQueries(30);
      assert.equal((await get(reference.reference)).status, 'Pending');
      assert.ok((await runStatusQueries(61)) >= 1);
      const paid = await get(reference.reference);
      assert.equal(paid.status, 'Paid');
      assert.equal(paid.payment.sessionId, dialled.sessionId);
      await assertMoved(before, 600.52, -3, -0.23);
      assert.equal((await deliveriesFor(reference.reference)).length, 1);
      // Paid references are never asked about again, and nothing lands twice.
      await runStatusQueries(600);
      await assertMoved(before, 600.52, -3, -0.23);
    });
  });

  describe('refused by the bank: the gateway returns the money to the customer', () => {
    it('completed a second after expiry (amount ending .53): USSD_REFERENCE_CLOSED', async () => {
      const reference = await newReference('700.53');
      const before = await balance();
      const dialled = await dial(reference.reference);
      assert.equal(dialled.outcome, 'reversed');
      assert.equal(dialled.code, 'USSD_REFERENCE_CLOSED');
      assert.match(dialled.reason, /expired/);
      assert.equal(await balance(), before);
      assert.equal((await deliveriesFor(reference.reference)).length, 0);
    });

    it('a naira short (amount ending .54): USSD_AMOUNT_MISMATCH', async () => {
      const reference = await newReference('900.54');
      const before = await balance();
      const dialled = await dial(reference.reference);
      assert.equal(dialled.outcome, 'reversed');
      assert.equal(dialled.code, 'USSD_AMOUNT_MISMATCH');
      assert.match(dialled.reason, /exactly NGN 900\.54; NGN 899\.54 was sent/);
      assert.equal(await balance(), before);
    });

    it('any other amount than the reference’s, after which the right amount still pays', async () => {
      const reference = await newReference('450');
      const before = await balance();
      for (const amount of [449.99, 450.01, 4500]) {
        const dialled = await dial(reference.reference, { amount });
        assert.equal(dialled.outcome, 'reversed', String(amount));
        assert.equal(dialled.code, 'USSD_AMOUNT_MISMATCH');
      }
      assert.equal(await balance(), before);
      assert.equal((await dial(reference.reference, { amount: 450 })).outcome, 'paid');
      await assertMoved(before, 450, -2.25, -0.17);
    });

    it('dialled after it expired: USSD_REFERENCE_CLOSED, and it reads Expired', async () => {
      const { testApp } = context();
      const reference = await newReference('500');
      const before = await balance();
      testApp.clock.advanceSeconds(900);
      try {
        const dialled = await dial(reference.reference);
        assert.equal(dialled.outcome, 'reversed');
        assert.equal(dialled.code, 'USSD_REFERENCE_CLOSED');
        assert.equal(dialled.reference.status, 'Expired');
        assert.equal(await balance(), before);
      } finally {
        testApp.clock.advanceSeconds(-900);
      }
    });
  });

  describe('status queries of an unpaid reference', () => {
    it('stop once the reference is past its expiry and the grace period', async () => {
      const { testApp } = context();
      const reference = await newReference('120');
      const nextQuery = async () =>
        (
          await testApp.db.query<{ next_status_query_at: Date | null; status_queries: number }>(
            'SELECT next_status_query_at, status_queries FROM ussd_references WHERE reference = $1',
            [reference.reference],
          )
        )[0];
      assert.ok((await nextQuery())?.next_status_query_at);
      await runStatusQueries(61);
      const afterFirst = await nextQuery();
      assert.equal(afterFirst?.status_queries, 1);
      assert.ok(afterFirst?.next_status_query_at, 'asked again while it can still be paid');
      // 900 s of validity and 3600 s of grace later, no query is scheduled.
      await runStatusQueries(4_600);
      const last = await nextQuery();
      assert.equal(last?.next_status_query_at, null);
      assert.equal(last?.status_queries, 2);
    });
  });

  describe('the sandbox dial route', () => {
    it('400 for a reference nobody issued, and for a bank that is not listed', async () => {
      const reference = await newReference('10');
      for (const payload of [
        { reference: '0000000000' },
        { reference: reference.reference, ussdBankCode: '000' },
        { reference: 'abc' },
        { reference: reference.reference, amount: -1 },
      ]) {
        const response = await context().testApp.app.inject({
          method: 'POST',
          url: '/admin/sandbox/ussd-dials',
          headers: adminHeaders,
          payload,
        });
        assert.equal(response.statusCode, 400, `${JSON.stringify(payload)}: ${response.body}`);
      }
      assert.equal((await get(reference.reference)).status, 'Pending');
    });

    describeAdminAuthGuards(context, () => ({
      method: 'POST',
      url: '/admin/sandbox/ussd-dials',
      payload: { reference: '0000000000' },
    }));
  });
});

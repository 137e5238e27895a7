import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  accountBalance,
  adminHeaders,
  type CheckoutPageSession,
  checkoutPageCall,
  dialUssd,
  openCheckoutSession,
  payVirtualAccount,
} from '../../../test/factories.ts';
import { useRouteContext } from '../../../test/shared-route-tests.ts';
import { recordMethod } from './checkout-repository.ts';

/**
 * A checkout session is told of its payment by the payment itself: the claim checkout adds to a
 * payment of its virtual account or USSD reference (checkout-collections.ts) completes the
 * session, queues its checkout.payment event and closes the order's other methods in the
 * payment's own batch item. No worker runs here, and nothing below reads the session through
 * the API before it asserts what the payment did.
 */
describe('checkout sessions paid through their methods', () => {
  const context = useRouteContext();
  let serial = 0;
  const open = (extra: Record<string, unknown> = {}, referenceCode = `TOLD-${++serial}`) => {
    const { testApp, oauthClientId, ownAccountNumber } = context();
    return openCheckoutSession(
      testApp.app,
      { oauthClientId, accountNumber: ownAccountNumber },
      referenceCode,
      { remoteAddress: `10.80.0.${++serial % 250}`, extra },
    );
  };
  const call = async (
    session: CheckoutPageSession,
    path: string,
    payload?: Record<string, unknown>,
  ) => {
    const response = await checkoutPageCall(context().testApp.app, session, path, payload);
    assert.equal(response.statusCode, 200, response.body);
    return response.json().data;
  };
  const balance = async () =>
    accountBalance(context().testApp.app, context().headers, context().ownAccountNumber);
  /** The session's row, and the transaction (or subtransaction) that last wrote it. */
  const sessionRow = async (id: string) => {
    const [row] = await context().testApp.db.query<{
      status: string;
      channel: string | null;
      transfer_id: string | null;
      writer: string;
    }>(
      'SELECT status, channel, transfer_id, xmin::text AS writer FROM checkout_sessions WHERE id = $1',
      [id],
    );
    assert.ok(row, id);
    return row;
  };
  /** The checkout.payment events queued for a referenceCode, and who wrote them. */
  const paymentEvents = (referenceCode: string) =>
    context().testApp.db.query<{ payload: string; writer: string }>(
      `SELECT payload::text AS payload, xmin::text AS writer FROM webhook_events
        WHERE type = 'checkout.payment' AND client_id = $1
          AND payload -> 'data' ->> 'referenceCode' = $2`,
      [context().ibsClientId, referenceCode],
    );
  const transferWriter = async (id: string) => {
    const [row] = await context().testApp.db.query<{ writer: string }>(
      'SELECT xmin::text AS writer FROM transfers WHERE id = $1',
      [id],
    );
    assert.ok(row, id);
    return row.writer;
  };
  /** The session, its one event and the money were written by one (sub)transaction. */
  const assertCompletedWithPayment = async (
    session: CheckoutPageSession,
    channel: string,
    transferId: string,
  ) => {
    const row = await sessionRow(session.id);
    assert.equal(row.status, 'Completed');
    assert.equal(row.channel, channel);
    assert.equal(row.transfer_id, transferId);
    const events = await paymentEvents(session.referenceCode);
    assert.equal(events.length, 1, 'exactly one checkout.payment');
    const writer = await transferWriter(transferId);
    assert.equal(row.writer, writer, 'the session was completed by the payment');
    assert.equal(events[0]?.writer, writer, 'the event was queued by the payment');
    const event = JSON.parse(events[0]?.payload ?? '{}');
    assert.equal(event.data.status, 'Completed');
    assert.equal(event.data.transactionId, transferId);
    return event.data;
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
  const dial = async (reference: string) => {
    const response = await dialUssd(context().testApp.app, reference);
    assert.equal(response.statusCode, 200, response.body);
    return response.json().data;
  };

  /** A virtual account made for the session as openBankTransfer makes it, not yet linked. */
  const accountFor = (session: CheckoutPageSession, amountKobo: bigint) => {
    const { testApp, ibsClientId, ownAccountNumber } = context();
    return testApp.services.virtualAccountService.create(
      { clientId: ibsClientId },
      {
        validForSeconds: 1800,
        callbackUrl: undefined,
        settlementAccount: { bankCode: '999240', accountNumber: ownAccountNumber },
        amountControl: 'Fixed',
        amountKobo,
        externalReference: undefined,
        accountName: `Checkout ${session.referenceCode}`,
      },
      `late-${session.id}`,
      { quiet: true },
    );
  };

  describe('the payment completes its session', () => {
    it('by bank transfer: session, event and money in one transaction', async () => {
      const session = await open({ amount: 2100 });
      const account = await call(session, '/bank-transfer');
      const paid = await payVirtualAccount(context().testApp.app, account.accountNumber, 2100);
      assert.equal(paid.statusCode, 201, paid.body);
      const event = await assertCompletedWithPayment(
        session,
        'BANK_TRANSFER',
        paid.json().data._id,
      );
      assert.equal(event.amountPaid, 2100);
      assert.deepEqual(event, await verify(session.referenceCode), 'what verify answers');
    });

    it('by USSD: session, event and money in one transaction', async () => {
      const session = await open({ amount: 2200 });
      const { reference } = await call(session, '/ussd', { ussdBankCode: '737' });
      assert.equal((await dial(reference)).outcome, 'paid');
      const [row] = await context().testApp.db.query<{ transfer_id: string }>(
        'SELECT transfer_id FROM ussd_references WHERE reference = $1',
        [reference],
      );
      assert.ok(row);
      const event = await assertCompletedWithPayment(session, 'USSD', row.transfer_id);
      assert.equal(event.channel, 'USSD');
      assert.deepEqual(event, await verify(session.referenceCode), 'what verify answers');
    });
  });

  describe('one session, one payment', () => {
    it('once paid by bank transfer, its USSD reference refuses the customer; nothing moves', async () => {
      const session = await open({ amount: 2300 });
      const account = await call(session, '/bank-transfer');
      const { reference } = await call(session, '/ussd', { ussdBankCode: '737' });
      const paid = await payVirtualAccount(context().testApp.app, account.accountNumber, 2300);
      assert.equal(paid.statusCode, 201, paid.body);
      const before = await balance();
      const dialled = await dial(reference);
      assert.equal(dialled.outcome, 'reversed', 'the bank refused it; the gateway gave it back');
      assert.equal(await balance(), before);
      assert.equal((await verify(session.referenceCode)).channel, 'BANK_TRANSFER');
      assert.equal((await paymentEvents(session.referenceCode)).length, 1);
    });

    it('once paid by USSD, its virtual account refuses the sender; nothing moves', async () => {
      const session = await open({ amount: 2400 });
      const account = await call(session, '/bank-transfer');
      const { reference } = await call(session, '/ussd', { ussdBankCode: '737' });
      assert.equal((await dial(reference)).outcome, 'paid');
      const before = await balance();
      const late = await payVirtualAccount(context().testApp.app, account.accountNumber, 2400);
      assert.equal(late.statusCode, 400, late.body);
      assert.equal(late.json().code, 'VIRTUAL_ACCOUNT_CLOSED');
      assert.equal(await balance(), before);
      assert.equal((await paymentEvents(session.referenceCode)).length, 1);
    });

    it('a method opened as the session was paid is linked all the same, and refuses its payment', async () => {
      const { testApp } = context();
      const session = await open({ amount: 2500 });
      const { reference } = await call(session, '/ussd', { ussdBankCode: '737' });
      assert.equal((await dial(reference)).outcome, 'paid');
      const completedAt = (await sessionRow(session.id)).writer;
      // The page asked for a bank transfer before the USSD payment landed; its account is made
      // after: openBankTransfer links it and tells the page the session is closed.
      const late = await accountFor(session, 250_000n);
      const linked = await recordMethod(testApp.db, {
        id: session.id,
        virtualAccountId: late.id,
        now: testApp.clock.now(),
      });
      assert.equal(linked, false, 'the session was no longer Pending');
      const [stored] = await testApp.db.query<{ virtual_account_id: string }>(
        'SELECT virtual_account_id FROM checkout_sessions WHERE id = $1',
        [session.id],
      );
      assert.equal(stored?.virtual_account_id, late.id);
      assert.notEqual((await sessionRow(session.id)).writer, completedAt, 'linked');
      const before = await balance();
      const paid = await payVirtualAccount(testApp.app, late.accountNumber, 2500);
      assert.equal(paid.statusCode, 400, paid.body);
      assert.equal(paid.json().code, 'VIRTUAL_ACCOUNT_CLOSED');
      assert.equal(paid.json().message, 'The checkout session has been paid already.');
      assert.equal(await balance(), before);
      const verified = await verify(session.referenceCode);
      assert.equal(verified.channel, 'USSD');
      const [event] = await paymentEvents(session.referenceCode);
      assert.deepEqual(JSON.parse(event?.payload ?? '{}').data, verified, 'updatedAt kept');
    });
  });

  describe('one order, one payment: the sessions of one referenceCode', () => {
    it('after one session is paid, another of its referenceCode cannot be', async () => {
      const first = await open({ amount: 1000 }, 'ORDER-TWICE');
      const second = await open({ amount: 1000, metadata: { tab: 2 } }, 'ORDER-TWICE');
      assert.notEqual(first.id, second.id, 'two configs, two sessions');
      const firstAccount = await call(first, '/bank-transfer');
      const secondAccount = await call(second, '/bank-transfer');
      const { reference } = await call(second, '/ussd', { ussdBankCode: '737' });
      const paid = await payVirtualAccount(context().testApp.app, firstAccount.accountNumber, 1000);
      assert.equal(paid.statusCode, 201, paid.body);
      const before = await balance();
      const byTransfer = await payVirtualAccount(
        context().testApp.app,
        secondAccount.accountNumber,
        1000,
      );
      assert.equal(byTransfer.statusCode, 400, byTransfer.body);
      assert.equal(byTransfer.json().code, 'VIRTUAL_ACCOUNT_CLOSED');
      assert.equal((await dial(reference)).outcome, 'reversed');
      assert.equal(await balance(), before);
      assert.equal((await sessionRow(second.id)).status, 'Pending');
      assert.equal((await verify('ORDER-TWICE'))._id, first.id);
      assert.equal((await paymentEvents('ORDER-TWICE')).length, 1);
    });

    it("a method linked to the order's other session after the order was paid is refused", async () => {
      const { testApp } = context();
      const first = await open({ amount: 1100 }, 'ORDER-RACED');
      const second = await open({ amount: 1100, metadata: { tab: 2 } }, 'ORDER-RACED');
      const firstAccount = await call(first, '/bank-transfer');
      const paid = await payVirtualAccount(testApp.app, firstAccount.accountNumber, 1100);
      assert.equal(paid.statusCode, 201, paid.body);
      // The second page passed its check before the first payment landed; its account is made
      // and linked after, so the payment closed nothing of it.
      const late = await accountFor(second, 110_000n);
      const linked = await recordMethod(testApp.db, {
        id: second.id,
        virtualAccountId: late.id,
        now: testApp.clock.now(),
      });
      assert.equal(linked, true, 'the second session is still Pending');
      const before = await balance();
      const refused = await payVirtualAccount(testApp.app, late.accountNumber, 1100);
      assert.equal(refused.statusCode, 400, refused.body);
      assert.equal(refused.json().code, 'VIRTUAL_ACCOUNT_CLOSED');
      assert.equal(refused.json().message, 'The order of this checkout session is already paid.');
      assert.equal(await balance(), before);
      assert.equal((await sessionRow(second.id)).status, 'Pending');
      assert.equal((await paymentEvents('ORDER-RACED')).length, 1);
    });
  });

  describe('reading a session changes nothing', () => {
    /** Every row a read could have written, with the transaction that last wrote each. */
    const snapshot = async () => {
      const { db } = context().testApp;
      const clientId = context().ibsClientId;
      const rows = (table: string) =>
        db.query(`SELECT xmin::text AS writer, * FROM ${table} WHERE client_id = $1 ORDER BY id`, [
          clientId,
        ]);
      return {
        sessions: await rows('checkout_sessions'),
        virtualAccounts: await rows('virtual_accounts'),
        ussdReferences: await rows('ussd_references'),
        events: await rows('webhook_events'),
        transfers: await rows('transfers'),
      };
    };

    it('GET of the page, verify and the operator list leave every row as it was', async () => {
      const { testApp } = context();
      const paid = await open({ amount: 2600 });
      const account = await call(paid, '/bank-transfer');
      const payment = await payVirtualAccount(testApp.app, account.accountNumber, 2600);
      assert.equal(payment.statusCode, 201, payment.body);
      const waiting = await open({ amount: 2700 });
      await call(waiting, '/bank-transfer');
      await call(waiting, '/ussd', { ussdBankCode: '737' });
      const before = await snapshot();
      for (const session of [paid, waiting]) {
        await call(session, '');
        await verify(session.referenceCode);
      }
      const listed = await testApp.app.inject({
        method: 'GET',
        url: `/admin/clients/${context().ibsClientId}/checkout-sessions`,
        headers: adminHeaders,
      });
      assert.equal(listed.statusCode, 200, listed.body);
      assert.deepEqual(await snapshot(), before);
    });
  });
});

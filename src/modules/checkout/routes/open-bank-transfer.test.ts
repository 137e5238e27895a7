import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type CheckoutPageSession,
  checkoutPageCall,
  nameEnquiry,
  openCheckoutSession,
  payVirtualAccount,
} from '../../../../test/factories.ts';
import { useRouteContext } from '../../../../test/shared-route-tests.ts';

describe('POST /checkout/sessions/:id/bank-transfer', () => {
  const context = useRouteContext();
  let serial = 0;
  const open = (extra: Record<string, unknown> = {}): Promise<CheckoutPageSession> => {
    const { testApp, oauthClientId, ownAccountNumber } = context();
    serial++;
    return openCheckoutSession(
      testApp.app,
      { oauthClientId, accountNumber: ownAccountNumber },
      `BT-${serial}`,
      { remoteAddress: `10.40.0.${serial}`, extra },
    );
  };
  const call = (session: CheckoutPageSession, path: string, payload?: Record<string, unknown>) =>
    checkoutPageCall(context().testApp.app, session, path, payload);
  const bankTransfer = async (session: CheckoutPageSession) => {
    const response = await call(session, '/bank-transfer');
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json().message, 'Bank transfer details fetched successfully.');
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
  /** Runs `body` with the clock `seconds` ahead, then puts it back (access tokens stay valid). */
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

  describe('200: the account the customer transfers to', () => {
    it('answers a 10-digit account of ours, named for the merchant, for the amount, for 30 minutes', async () => {
      const { testApp, headers } = context();
      const session = await open();
      const now = testApp.clock.now();
      const details = await bankTransfer(session);
      assert.match(details.accountNumber, /^\d{10}$/);
      assert.equal(details.accountName, `ACME LTD / Checkout ${session.referenceCode}`);
      assert.equal(details.bankName, 'Safe Haven Sandbox Bank');
      assert.equal(details.bankCode, '999240');
      assert.equal(details.amount, 2500);
      assert.equal(new Date(details.expiresAt).getTime(), now.getTime() + 1_800_000);
      // A payer's bank resolves it to the same name before the transfer.
      const enquiry = await nameEnquiry(testApp.app, headers, '999240', details.accountNumber);
      assert.equal(enquiry.accountName, details.accountName);
    });

    it('asks what the page shows the customer to pay: the fee added when they bear it', async () => {
      for (const feeBearer of ['account', 'customer']) {
        const session = await open({ feeBearer, amount: '1234.56' });
        const details = await bankTransfer(session);
        const shown = (await page(session)).methods.BANK_TRANSFER;
        assert.equal(details.amount, shown.amountToPay, feeBearer);
        assert.equal(details.amount > 1234.56, feeBearer === 'customer', feeBearer);
      }
    });

    it('answers the same account again while it is Active, to the last second', async () => {
      const session = await open();
      const first = await bankTransfer(session);
      assert.deepEqual(await bankTransfer(session), first);
      assert.deepEqual(await later(1_799, () => bankTransfer(session)), first);
    });

    it('answers a new account once the first has expired and the session is still open', async () => {
      const session = await open();
      const first = await bankTransfer(session);
      const second = await later(1_800, async () => {
        assert.equal((await page(session)).status, 'Pending');
        return bankTransfer(session);
      });
      assert.notEqual(second.accountNumber, first.accountNumber);
      assert.equal(second.amount, first.amount);
      // The expired one takes nothing; the new one is the session's.
      const late = await later(1_801, () =>
        payVirtualAccount(context().testApp.app, first.accountNumber, 2500),
      );
      assert.equal(late.statusCode, 400, late.body);
      assert.equal(late.json().code, 'VIRTUAL_ACCOUNT_CLOSED');
      assert.deepEqual(await bankTransfer(session), second);
    });

    it('gives every session its own account', async () => {
      const numbers = new Set<string>();
      for (let index = 0; index < 5; index++) {
        numbers.add((await bankTransfer(await open())).accountNumber);
      }
      assert.equal(numbers.size, 5);
    });
  });

  describe('400 CHECKOUT_CLOSED: the session takes no payment any more', () => {
    it('once it is Completed', async () => {
      const session = await open();
      const paid = await call(session, '/simulate', { method: 'BANK_TRANSFER' });
      assert.equal(paid.statusCode, 200, paid.body);
      assert.equal(paid.json().data.status, 'Completed');
      const response = await call(session, '/bank-transfer');
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json().code, 'CHECKOUT_CLOSED');
      assert.equal(response.json().message, 'The checkout session is completed.');
    });

    it('once it is Expired, whether or not an account was opened before', async () => {
      const fresh = await open();
      const opened = await open();
      await bankTransfer(opened);
      await later(3_600, async () => {
        for (const session of [fresh, opened]) {
          const response = await call(session, '/bank-transfer');
          assert.equal(response.statusCode, 400, response.body);
          assert.equal(response.json().code, 'CHECKOUT_CLOSED');
          assert.equal(response.json().message, 'The checkout session is expired.');
        }
      });
    });
  });

  describe('400 "Unable to locate record"', () => {
    it('for a wrong token or an unknown id, opening nothing', async () => {
      const session = await open();
      for (const [label, target] of [
        ['wrong token', { ...session, token: (await open()).token }],
        ['unknown id', { ...session, id: 'ffffffffffffffffffffffff' }],
      ] as const) {
        const response = await call(target, '/bank-transfer');
        assert.equal(response.statusCode, 400, `${label}: ${response.body}`);
        assert.equal(response.json().message, 'Unable to locate record', label);
      }
      const [row] = await context().testApp.db.query<{ virtual_account_id: string | null }>(
        'SELECT virtual_account_id FROM checkout_sessions WHERE id = $1',
        [session.id],
      );
      assert.equal(row?.virtual_account_id, null);
    });
  });
});

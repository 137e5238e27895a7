import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adminHeaders, sandboxCredit, sendTransfer } from '../../../test/factories.ts';
import { balancesOf, lienEvents, lienReceivable, liensOf } from '../../../test/liens.ts';
import { assertLedgerInvariants, entryCount, transferEvents } from '../../../test/nip-returns.ts';
import { inProduction } from '../../../test/sandbox-controls.ts';
import { describeAdminAuthGuards, useRouteContext } from '../../../test/shared-route-tests.ts';

const OUR_BANK = '999240';

describe('POST /admin/sandbox/nip/recalls', () => {
  const context = useRouteContext();

  const recall = (payload: Record<string, unknown>) =>
    context().testApp.app.inject({
      method: 'POST',
      url: '/admin/sandbox/nip/recalls',
      headers: adminHeaders,
      payload,
    });
  const own = () => balancesOf(context().testApp, context().headers, context().ownAccountId);

  /** Spends from the own account, to the other client's account (intra-bank). */
  async function spend(amount: number) {
    const { testApp, headers, ownAccountNumber, otherAccountNumber } = context();
    const response = await sendTransfer(testApp.app, headers, {
      debitAccountNumber: ownAccountNumber,
      beneficiaryBankCode: OUR_BANK,
      beneficiaryAccountNumber: otherAccountNumber,
      amount,
    });
    assert.equal(response.statusCode, 200, response.body);
  }

  describe('200: the credit goes back', () => {
    it('the account held it: debited in full, Reversed, one transfer event, no lien', async () => {
      const { testApp, ownAccountNumber } = context();
      const before = await own();
      const credit = await sandboxCredit(testApp.app, ownAccountNumber, 300);
      const response = await recall({ sessionId: credit.sessionId, reason: 'Duplicate credit' });
      assert.equal(response.statusCode, 200, response.body);
      const { transfer, lien } = response.json().data;
      assert.equal(transfer._id, credit._id);
      assert.equal(transfer.status, 'Reversed');
      assert.equal(transfer.isReversed, true);
      assert.match(
        transfer.reversalReference,
        new RegExp(`^${credit.sessionId.slice(0, 6)}\\d{24}$`),
      );
      assert.equal(lien, null);
      assert.deepEqual(await own(), before, 'as before the credit');
      const events = await transferEvents(testApp.db, credit._id);
      assert.deepEqual(
        events.map((event) => [event.status, event.reversalReference]),
        [
          ['Completed', null],
          ['Reversed', transfer.reversalReference],
        ],
      );
      await assertLedgerInvariants(testApp.db);
    });

    it('the account spent part of it: what it has goes back, the rest is a lien the next credit fills', async () => {
      const { testApp, ownAccountNumber } = context();
      const credit = await sandboxCredit(testApp.app, ownAccountNumber, 1_000);
      await spend(400);
      const response = await recall({ sessionId: credit.sessionId });
      assert.equal(response.statusCode, 200, response.body);
      const { lien } = response.json().data;
      assert.equal(lien.amount, 400);
      assert.equal(lien.outstanding, 400);
      assert.equal(lien.status, 'active');
      assert.equal(lien.reason, `Recall of ${credit.sessionId}: Credit sent in error`);
      assert.deepEqual(await own(), { available: 0, book: 0, locked: 40_000 });
      assert.equal(await lienReceivable(testApp.db), -40_000n);
      await assertLedgerInvariants(testApp.db);

      await sandboxCredit(testApp.app, ownAccountNumber, 250);
      assert.deepEqual(await own(), { available: 0, book: 0, locked: 15_000 }, 'paid 250 of it');
      await sandboxCredit(testApp.app, ownAccountNumber, 200);
      assert.deepEqual(await own(), { available: 5_000, book: 5_000, locked: 0 }, 'paid');
      const [listed] = await liensOf(testApp, context().headers, context().ownAccountId);
      assert.equal(listed?.status, 'filled');
      assert.equal(listed?.outstanding, 0);
      const events = await lienEvents(testApp.db, lien._id);
      assert.deepEqual(
        events.map((event) => [event.status, event.amount, event.outstanding]),
        [
          ['active', 400, 400],
          ['filled', 400, 0],
        ],
      );
      assert.equal(await lienReceivable(testApp.db), 0n);
      await assertLedgerInvariants(testApp.db);
    });
  });

  describe('400: nothing to recall, and nothing moves', () => {
    async function assertRefused(sessionId: string, code: string) {
      const entries = await entryCount(context().testApp.db);
      const response = await recall({ sessionId });
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json().code, code);
      assert.equal(await entryCount(context().testApp.db), entries);
    }

    it('an unknown session id: RECORD_NOT_FOUND', async () => {
      await assertRefused('000013260302090000000000000001', 'RECORD_NOT_FOUND');
    });

    it('a credit recalled already', async () => {
      const credit = await sandboxCredit(context().testApp.app, context().ownAccountNumber, 10);
      assert.equal((await recall({ sessionId: credit.sessionId })).statusCode, 200);
      await assertRefused(credit.sessionId, 'TRANSFER_NOT_RECALLABLE');
    });

    it('an intra-bank credit, and an outbound transfer (not an inbound credit)', async () => {
      const { testApp, headers, ownAccountNumber, otherAccountNumber } = context();
      await sandboxCredit(testApp.app, ownAccountNumber, 100);
      const sent = await sendTransfer(testApp.app, headers, {
        debitAccountNumber: ownAccountNumber,
        beneficiaryBankCode: OUR_BANK,
        beneficiaryAccountNumber: otherAccountNumber,
        amount: 20,
      });
      await assertRefused(sent.json().data.sessionId, 'TRANSFER_NOT_RECALLABLE');
      const nip = await sendTransfer(testApp.app, headers, {
        debitAccountNumber: ownAccountNumber,
        amount: 20,
      });
      await assertRefused(nip.json().data.sessionId, 'RECORD_NOT_FOUND');
    });

    it('a malformed session id or reason', async () => {
      for (const payload of [
        { sessionId: '12345' },
        { sessionId: '1'.repeat(30), reason: 'x'.repeat(101) },
      ]) {
        const response = await recall(payload);
        assert.equal(response.statusCode, 400, response.body);
        assert.equal(response.json().code, 'VALIDATION_ERROR');
      }
    });
  });

  describe('403: sandbox only', () => {
    it('is refused outside sandbox', async () => {
      const [response] = await inProduction([
        {
          method: 'POST',
          url: '/admin/sandbox/nip/recalls',
          payload: { sessionId: '0'.repeat(30) },
        },
      ]);
      assert.equal(response?.statusCode, 403);
      assert.equal(response?.json().code, 'SANDBOX_ONLY');
    });
  });

  describeAdminAuthGuards(context, () => ({
    method: 'POST',
    url: '/admin/sandbox/nip/recalls',
    payload: { sessionId: '0'.repeat(30) },
  }));
});

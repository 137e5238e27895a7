import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  adminHeaders,
  createVirtualAccount,
  sandboxCredit,
  sendTransfer,
  signedInClient,
} from '../../../test/factories.ts';
import { balancesOf, lienEvents, liensOf } from '../../../test/liens.ts';
import { assertLedgerInvariants, entryCount, transferEvents } from '../../../test/nip-returns.ts';
import { describeAdminAuthGuards, useRouteContext } from '../../../test/shared-route-tests.ts';

const OUR_BANK = '999240';

describe('POST /admin/transfers/:id/reversal', () => {
  const context = useRouteContext();

  const reverse = (
    transferId: string,
    payload: Record<string, unknown> = { reason: 'Wrong account' },
  ) =>
    context().testApp.app.inject({
      method: 'POST',
      url: `/admin/transfers/${transferId}/reversal`,
      headers: { ...adminHeaders, 'x-operator': 'ngozi' },
      payload,
    });
  const own = () => balancesOf(context().testApp, context().headers, context().ownAccountId);
  const other = () =>
    balancesOf(context().testApp, context().otherHeaders, context().otherAccountId);

  /** An intra-bank transfer from the own account to the other client's. */
  async function sendAcross(amount: number) {
    const { testApp, headers, ownAccountNumber, otherAccountNumber } = context();
    const response = await sendTransfer(testApp.app, headers, {
      debitAccountNumber: ownAccountNumber,
      beneficiaryBankCode: OUR_BANK,
      beneficiaryAccountNumber: otherAccountNumber,
      amount,
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().data as { _id: string; sessionId: string };
  }

  async function twinOf(sessionId: string): Promise<string> {
    const rows = await context().testApp.db.query<{ id: string }>(
      "SELECT id FROM transfers WHERE session_id = $1 AND type = 'Inwards'",
      [sessionId],
    );
    assert.ok(rows[0]);
    return rows[0].id;
  }

  describe('200: reversed once', () => {
    it('the beneficiary held it: both sides Reversed, both clients told, balances as before, audited', async () => {
      const { testApp, ownAccountNumber } = context();
      await sandboxCredit(testApp.app, ownAccountNumber, 1_000);
      const [ownBefore, otherBefore] = [await own(), await other()];
      const sent = await sendAcross(300);
      const response = await reverse(sent._id);
      assert.equal(response.statusCode, 200, response.body);
      const { outward, inward, lien } = response.json().data;
      assert.equal(outward._id, sent._id);
      assert.equal(inward._id, await twinOf(sent.sessionId));
      for (const side of [outward, inward]) {
        assert.equal(side.status, 'Reversed');
        assert.equal(side.isReversed, true);
        assert.equal(side.reversalReference, outward.reversalReference);
      }
      assert.equal(lien, null);
      assert.deepEqual([await own(), await other()], [ownBefore, otherBefore]);
      for (const side of [outward, inward]) {
        const events = await transferEvents(testApp.db, side._id);
        assert.deepEqual(
          events.map((event) => event.status),
          ['Completed', 'Reversed'],
        );
      }
      const audit = await testApp.app.inject({
        url: `/admin/audit-events?target=${sent._id}`,
        headers: adminHeaders,
      });
      assert.deepEqual(
        audit
          .json()
          .data.map((event: { actor: string; outcome: string }) => [event.actor, event.outcome]),
        [
          ['break-glass:ngozi', '200'],
          ['break-glass:ngozi', 'started'],
        ],
      );
      await assertLedgerInvariants(testApp.db);
    });

    it('asked again (by either side): the same answer, nothing more moves', async () => {
      const { testApp, ownAccountNumber } = context();
      await sandboxCredit(testApp.app, ownAccountNumber, 100);
      const sent = await sendAcross(50);
      const first = await reverse(sent._id);
      assert.equal(first.statusCode, 200, first.body);
      const entries = await entryCount(testApp.db);
      const again = await reverse(await twinOf(sent.sessionId), { reason: 'Asked twice' });
      assert.equal(again.statusCode, 200, again.body);
      assert.deepEqual(again.json().data, first.json().data);
      assert.equal(await entryCount(testApp.db), entries);
    });

    it('the beneficiary spent it: what it has comes back, the rest is a lien on it', async () => {
      const { testApp, ownAccountNumber, otherAccountNumber, otherHeaders } = context();
      await sandboxCredit(testApp.app, ownAccountNumber, 500);
      const ownBefore = await own();
      const sent = await sendAcross(500);
      const otherHas = (await other()).available;
      // The other client spends all but ₦100 of what it has.
      const spent = await sendTransfer(testApp.app, otherHeaders, {
        debitAccountNumber: otherAccountNumber,
        amount: (otherHas - 10_000) / 100 - 10.75,
      });
      assert.equal(spent.statusCode, 200, spent.body);
      const response = await reverse(sent._id);
      assert.equal(response.statusCode, 200, response.body);
      const { lien } = response.json().data;
      assert.equal(lien.amount, 400);
      assert.equal(lien.status, 'active');
      assert.equal(lien.account, context().otherAccountId);
      assert.match(lien.reason, /^Reversal of \d{30}: Wrong account$/);
      assert.deepEqual(await own(), ownBefore, 'the sender has it all back at once');
      assert.deepEqual(await other(), { available: 0, book: 0, locked: 40_000 });
      const [listed] = await liensOf(testApp, otherHeaders, context().otherAccountId);
      assert.equal(listed?._id, lien._id);
      assert.deepEqual(
        (await lienEvents(testApp.db, lien._id)).map((event) => event.status),
        ['active'],
      );
      await assertLedgerInvariants(testApp.db);
    });
  });

  it("a payment into a virtual account: the settlement account gives back what it kept, the collection's fee and VAT come back from their GL accounts", async () => {
    const { testApp, headers, ownAccountNumber } = context();
    const collector = await signedInClient(testApp, 'Collector Ltd', 2);
    const collected = () => balancesOf(testApp, collector.headers, collector.client.mainAccountId);
    await sandboxCredit(testApp.app, ownAccountNumber, 2_500);
    const glBefore = await feeAndVat();
    const ownBefore = await own();
    const virtualAccount = await createVirtualAccount(
      testApp.app,
      collector.headers,
      collector.client.mainAccountNumber,
    );
    const paid = await sendTransfer(testApp.app, headers, {
      debitAccountNumber: ownAccountNumber,
      beneficiaryBankCode: OUR_BANK,
      beneficiaryAccountNumber: virtualAccount.accountNumber,
      amount: 2_500,
    });
    assert.equal(paid.statusCode, 200, paid.body);
    assert.equal((await collected()).available, 250_000 - 1_250 - 94, 'less the fee and VAT');
    const response = await reverse(paid.json().data._id);
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json().data.lien, null);
    assert.deepEqual(await own(), ownBefore);
    assert.deepEqual(await collected(), { available: 0, book: 0, locked: 0 });
    assert.deepEqual(await feeAndVat(), glBefore, 'the fee and VAT given back');
    await assertLedgerInvariants(testApp.db);
  });

  async function feeAndVat() {
    const rows = await context().testApp.db.query<{ id: string; balance_kobo: bigint }>(
      `SELECT id, balance_kobo FROM ledger_accounts
        WHERE id IN ('gl.fee_income', 'gl.vat_payable') ORDER BY id`,
    );
    return rows.map((row) => [row.id, BigInt(row.balance_kobo)]);
  }

  describe('400: refused, and nothing moves', () => {
    async function assertRefused(
      transferId: string,
      code: string,
      payload?: Record<string, unknown>,
    ) {
      const entries = await entryCount(context().testApp.db);
      const response = await reverse(transferId, payload);
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json().code, code);
      assert.equal(await entryCount(context().testApp.db), entries);
    }

    it('an unknown or malformed id: RECORD_NOT_FOUND', async () => {
      await assertRefused('64b7f0c2a1b2c3d4e5f60718', 'RECORD_NOT_FOUND');
      await assertRefused('not-an-id', 'RECORD_NOT_FOUND');
    });

    it('a NIP transfer, or a credit from another bank: not intra-bank', async () => {
      const { testApp, headers, ownAccountNumber } = context();
      const credit = await sandboxCredit(testApp.app, ownAccountNumber, 100);
      await assertRefused(credit._id, 'TRANSFER_NOT_REVERSIBLE');
      const nip = await sendTransfer(testApp.app, headers, {
        debitAccountNumber: ownAccountNumber,
        amount: 20,
      });
      await assertRefused(nip.json().data._id, 'TRANSFER_NOT_REVERSIBLE');
    });

    it('no reason, or a blank one', async () => {
      const sent = await sendAcross(1);
      await assertRefused(sent._id, 'VALIDATION_ERROR', {});
      await assertRefused(sent._id, 'VALIDATION_ERROR', { reason: '   ' });
    });
  });

  describeAdminAuthGuards(context, () => ({
    method: 'POST',
    url: '/admin/transfers/64b7f0c2a1b2c3d4e5f60718/reversal',
    payload: { reason: 'Wrong account' },
  }));
});

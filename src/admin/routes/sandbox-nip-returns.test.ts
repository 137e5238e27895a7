import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { adminHeaders, sandboxCredit, sendTransfer } from '../../../test/factories.ts';
import {
  assertLedgerInvariants,
  entryCount,
  moneySnapshot,
  statementLinesOf,
  transferEvents,
} from '../../../test/nip-returns.ts';
import { inProduction } from '../../../test/sandbox-controls.ts';
import { describeAdminAuthGuards, useRouteContext } from '../../../test/shared-route-tests.ts';
import { isNipSimulator } from '../../rails/nip/nip-simulator.ts';

const FEE_KOBO = 1_000; // ₦10 up to ₦5,000 (default NIP_FEE_SCHEDULE)
const VAT_KOBO = 75; // 7.5 % of the fee
const OUR_BANK = '999240';

describe('POST /admin/sandbox/nip/returns', () => {
  const context = useRouteContext();
  before(async () => {
    await sandboxCredit(context().testApp.app, context().ownAccountNumber, 50_000);
  });

  const returnIt = (payload: Record<string, unknown>) =>
    context().testApp.app.inject({
      method: 'POST',
      url: '/admin/sandbox/nip/returns',
      headers: adminHeaders,
      payload,
    });

  async function send(amount: number, extra: Record<string, unknown> = {}) {
    const { testApp, headers, ownAccountNumber } = context();
    const response = await sendTransfer(testApp.app, headers, {
      debitAccountNumber: ownAccountNumber,
      amount,
      ...extra,
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().data as { _id: string; sessionId: string; status: string };
  }

  const snapshot = () =>
    moneySnapshot(context().testApp, context().headers, context().ownAccountId);

  describe('200: the transfer comes back and the customer is made whole', () => {
    it('Reversed with its reversalReference; amount, fee and VAT back; one webhook; statement lines', async () => {
      const before = await snapshot();
      const sent = await send(1_234.5);
      assert.equal(sent.status, 'Completed');
      context().testApp.clock.advanceSeconds(60); // the beneficiary bank returns it later
      const response = await returnIt({ sessionId: sent.sessionId, reason: 'Account closed' });
      assert.equal(response.statusCode, 200, response.body);
      const returned = response.json().data;
      assert.equal(returned._id, sent._id);
      assert.equal(returned.status, 'Reversed');
      assert.equal(returned.isReversed, true);
      assert.match(returned.reversalReference, /^000013\d{24}$/, "the beneficiary bank's session");
      assert.notEqual(returned.reversalReference, sent.sessionId);
      assert.equal(returned.responseCode, '00', 'the transfer itself had succeeded');

      assert.deepEqual(await snapshot(), before, 'balances and GL accounts as before the transfer');
      const events = await transferEvents(context().testApp.db, sent._id);
      assert.deepEqual(
        events.map((event) => [event.status, event.isReversed, event.reversalReference]),
        [
          ['Completed', false, null],
          ['Reversed', true, returned.reversalReference],
        ],
        'one event for the settlement, one for the return',
      );
      const { testApp, headers, ownAccountId } = context();
      const lines = await statementLinesOf(testApp, headers, ownAccountId, sent._id);
      const credits = lines.filter((line) => line.type === 'Credit');
      assert.deepEqual(
        credits.sort((a, b) => b.kobo - a.kobo),
        [
          {
            type: 'Credit',
            kobo: 123_450,
            narration: `Return of ${sent.sessionId}: Account closed`,
          },
          {
            type: 'Credit',
            kobo: FEE_KOBO,
            narration: `Refund of NIP transfer fee ${sent.sessionId}`,
          },
          {
            type: 'Credit',
            kobo: VAT_KOBO,
            narration: `Refund of VAT on transfer fee ${sent.sessionId}`,
          },
        ],
      );
      assert.equal(lines.length, 6, 'three debits when it settled, three credits when returned');
      await assertLedgerInvariants(testApp.db);
    });

    it('a second return is refused, and the same notice resent moves nothing', async () => {
      const sent = await send(300);
      context().testApp.clock.advanceSeconds(60);
      const first = await returnIt({ sessionId: sent.sessionId });
      assert.equal(first.statusCode, 200, first.body);
      const before = await snapshot();
      const entries = await entryCount(context().testApp.db);
      const again = await returnIt({ sessionId: sent.sessionId });
      assert.equal(again.statusCode, 400, again.body);
      assert.equal(again.json().code, 'TRANSFER_NOT_RETURNABLE');
      const network = context().testApp.services.rail;
      assert.ok(isNipSimulator(network));
      const resent = await network.returnTransfer(sent.sessionId);
      assert.deepEqual(resent, {
        kind: 'returned',
        returnSessionId: first.json().data.reversalReference,
      });
      assert.deepEqual(await snapshot(), before);
      assert.equal(await entryCount(context().testApp.db), entries, 'no entry posted');
      const events = await transferEvents(context().testApp.db, sent._id);
      assert.deepEqual(
        events.map((event) => event.status),
        ['Completed', 'Reversed'],
        'no second event',
      );
    });
  });

  describe('400: nothing to return, and nothing moves', () => {
    async function assertRefused(sessionId: string, code: string) {
      const before = await snapshot();
      const entries = await entryCount(context().testApp.db);
      const response = await returnIt({ sessionId });
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json().code, code);
      assert.equal(response.json().statusCode, 400, 'the error envelope');
      assert.deepEqual(await snapshot(), before);
      assert.equal(await entryCount(context().testApp.db), entries);
    }

    it('an unknown session id: RECORD_NOT_FOUND', async () => {
      await assertRefused('000013260302090000000000000001', 'RECORD_NOT_FOUND');
    });

    it('an intra-bank transfer (never at the network)', async () => {
      const sent = await send(25, {
        beneficiaryBankCode: OUR_BANK,
        beneficiaryAccountNumber: context().otherAccountNumber,
      });
      assert.equal(sent.status, 'Completed');
      await assertRefused(sent.sessionId, 'TRANSFER_NOT_RETURNABLE');
    });

    it('a Failed transfer (.05) and one still Processing (.97)', async () => {
      const failed = await send(100.05);
      assert.equal(failed.status, 'Failed');
      await assertRefused(failed.sessionId, 'TRANSFER_NOT_RETURNABLE');
      const processing = await send(100.97);
      assert.equal(processing.status, 'Processing');
      await assertRefused(processing.sessionId, 'TRANSFER_NOT_RETURNABLE');
    });

    it('a malformed session id or reason', async () => {
      for (const payload of [
        { sessionId: '12345' },
        { sessionId: '1'.repeat(30), reason: 'x'.repeat(101) },
      ]) {
        const response = await returnIt(payload);
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
          url: '/admin/sandbox/nip/returns',
          payload: { sessionId: '0'.repeat(30) },
        },
      ]);
      assert.equal(response?.statusCode, 403);
      assert.equal(response?.json().code, 'SANDBOX_ONLY');
    });
  });

  describeAdminAuthGuards(context, () => ({
    method: 'POST',
    url: '/admin/sandbox/nip/returns',
    payload: { sessionId: '0'.repeat(30) },
  }));
});

import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { adminHeaders, sandboxCredit, sendTransfer } from '../../../test/factories.ts';
import {
  describeAdminAuthGuards,
  describeAdminRecordIsolation,
  useRouteContext,
} from '../../../test/shared-route-tests.ts';

interface Entry {
  journalId: string;
  accountId: string;
  accountNumber: string | null;
  accountName: string;
  isGlAccount: boolean;
  type: 'Credit' | 'Debit';
  amount: number;
  balanceAfter: number;
  narration: string;
  createdAt: string;
}

interface Story {
  transfer: {
    _id: string;
    type: string;
    status: string;
    amount: number;
    fees: number;
    vat: number;
    createdAt: string;
    approvedAt?: string;
    isReversed: boolean;
    reversalReference: string | null;
  };
  ledgerEntries: Entry[];
  nip: {
    sessionId: string;
    responseCode: string | null;
    statusQueries: number;
    nextStatusQueryAt: string | null;
  } | null;
  webhookEvents: { _id: string; type: string; status: string; attempts: number }[];
}

describe('GET /admin/clients/:id/transfers/:transferId/story', () => {
  const context = useRouteContext();
  const story = (clientId: string, transferId: string) =>
    context().testApp.app.inject({
      method: 'GET',
      url: `/admin/clients/${clientId}/transfers/${encodeURIComponent(transferId)}/story`,
      headers: adminHeaders,
    });
  const storyOf = async (clientId: string, transferId: string): Promise<Story> => {
    const response = await story(clientId, transferId);
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json().message, 'Transfer story fetched successfully.');
    return response.json().data;
  };
  const signed = (entry: Entry) => (entry.type === 'Credit' ? entry.amount : -entry.amount);
  const net = (entries: Entry[], accountId: string) =>
    entries.filter((entry) => entry.accountId === accountId).reduce((sum, e) => sum + signed(e), 0);

  const send = async (body: Record<string, unknown>) => {
    const { testApp, headers, ownAccountNumber } = context();
    testApp.clock.advanceSeconds(1);
    const response = await sendTransfer(testApp.app, headers, {
      debitAccountNumber: ownAccountNumber,
      ...body,
    } as { debitAccountNumber: string; amount: number });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().data as { _id: string; sessionId: string; status: string };
  };

  let credit: { _id: string };
  before(async () => {
    const { testApp, ownAccountNumber } = context();
    credit = await sandboxCredit(testApp.app, ownAccountNumber, 50_000);
  });

  describe('200: an intra-bank transfer, seen from both sides', () => {
    it('answers the transfer, its journal on both accounts, no NIP part, its webhook event', async () => {
      const {
        testApp,
        ibsClientId,
        ownAccountId,
        otherAccountId,
        otherAccountNumber,
        otherHeaders,
        headers,
      } = context();
      const sent = await send({
        amount: 1_000,
        beneficiaryBankCode: testApp.config.institutionCode,
        beneficiaryAccountNumber: otherAccountNumber,
        narration: 'Invoice 12',
      });
      const mine = await storyOf(ibsClientId, sent._id);
      const listed = await testApp.app.inject({
        method: 'GET',
        url: '/transfers?limit=1',
        headers,
      });
      assert.deepEqual(mine.transfer, listed.json().data[0], 'the published transfer object');
      assert.equal(mine.nip, null);
      const entries = mine.ledgerEntries;
      assert.equal(new Set(entries.map((entry) => entry.journalId)).size, 1, 'one journal');
      assert.equal(
        entries.reduce((sum, entry) => sum + signed(entry), 0),
        0,
        'the journal balances',
      );
      assert.equal(net(entries, ownAccountId), -(1_000 + mine.transfer.fees + mine.transfer.vat));
      assert.equal(net(entries, otherAccountId), 1_000);
      const received = entries.find((entry) => entry.accountId === otherAccountId);
      assert.equal(received?.accountNumber, otherAccountNumber);
      assert.equal(received?.isGlAccount, false);
      assert.equal(received?.type, 'Credit');
      assert.equal(received?.balanceAfter, 1_000);
      for (const entry of entries) {
        assert.equal(entry.isGlAccount, entry.accountNumber === null, entry.accountId);
        assert.equal(entry.createdAt, mine.transfer.createdAt);
      }
      assert.deepEqual(
        mine.webhookEvents.map((event) => [event.type, event.status, event.attempts]),
        [['transfer', 'pending', 0]],
      );

      // The recipient's side: its own transfer id, the same journal, its own event.
      const theirTransfers = await testApp.app.inject({
        method: 'GET',
        url: '/transfers?limit=1',
        headers: otherHeaders,
      });
      const twin = theirTransfers.json().data[0];
      assert.equal(twin.sessionId, sent.sessionId);
      const theirs = await storyOf(otherHeaders.clientid ?? '', twin._id);
      assert.equal(theirs.transfer.type, 'Inwards');
      assert.deepEqual(theirs.ledgerEntries, mine.ledgerEntries);
      assert.equal(theirs.webhookEvents.length, 1);
      assert.notEqual(theirs.webhookEvents[0]?._id, mine.webhookEvents[0]?._id);
    });
  });

  describe('200: NIP transfers', () => {
    it('a completed one: the settlement journal and the network answer', async () => {
      const { ibsClientId, ownAccountId } = context();
      const sent = await send({ amount: 2_500 });
      const { transfer, nip, ledgerEntries } = await storyOf(ibsClientId, sent._id);
      assert.equal(transfer.status, 'Completed');
      assert.deepEqual(nip, {
        sessionId: sent.sessionId,
        responseCode: '00',
        responseMessage: 'Approved or completed successfully',
        statusQueries: 0,
        // One more status query after the return window, in case a return notice is lost.
        nextStatusQueryAt: new Date(
          Date.parse(transfer.approvedAt ?? '') +
            context().testApp.config.transfers.returnCheckSeconds * 1000,
        ).toISOString(),
      });
      assert.equal(net(ledgerEntries, ownAccountId), -(2_500 + transfer.fees + transfer.vat));
      const settlement = ledgerEntries.find((entry) => entry.accountId === 'gl.nip_settlement');
      assert.equal(settlement?.type, 'Credit');
      assert.equal(settlement?.amount, 2_500);
      assert.equal(settlement?.isGlAccount, true);
      assert.equal(settlement?.accountName, 'NIP settlement');
    });

    it('a returned one: both journals net to nothing, both events, no status query due', async () => {
      const { testApp, ibsClientId, ownAccountId } = context();
      const sent = await send({ amount: 1_500 });
      testApp.clock.advanceSeconds(300);
      const returned = await testApp.app.inject({
        method: 'POST',
        url: '/admin/sandbox/nip/returns',
        headers: adminHeaders,
        payload: { sessionId: sent.sessionId, reason: 'Account closed' },
      });
      assert.equal(returned.statusCode, 200, returned.body);
      const { transfer, nip, ledgerEntries, webhookEvents } = await storyOf(ibsClientId, sent._id);
      assert.deepEqual(
        [transfer.status, transfer.isReversed, transfer.reversalReference],
        ['Reversed', true, returned.json().data.reversalReference],
      );
      assert.equal(new Set(ledgerEntries.map((entry) => entry.journalId)).size, 2);
      assert.equal(net(ledgerEntries, ownAccountId), 0, 'the customer made whole');
      assert.equal(net(ledgerEntries, 'gl.nip_settlement'), 0);
      assert.deepEqual(
        webhookEvents.map((event) => event.type),
        ['transfer', 'transfer'],
      );
      assert.equal(nip?.nextStatusQueryAt, null);
    });

    it('a failed one: no journal (the hold was voided), the failure code', async () => {
      const { ibsClientId } = context();
      const sent = await send({ amount: 300.05 });
      const { transfer, nip, ledgerEntries, webhookEvents } = await storyOf(ibsClientId, sent._id);
      assert.equal(transfer.status, 'Failed');
      assert.equal(nip?.responseCode, '05');
      assert.deepEqual(ledgerEntries, []);
      assert.deepEqual(
        webhookEvents.map((event) => event.type),
        ['transfer'],
      );
    });

    it('one still Processing: when its next status query is due, then its settlement', async () => {
      const { testApp, ibsClientId, headers } = context();
      const sent = await send({ amount: 400.97 });
      const waiting = await storyOf(ibsClientId, sent._id);
      assert.equal(waiting.transfer.status, 'Processing');
      assert.equal(waiting.nip?.responseCode, null);
      assert.equal(waiting.nip?.statusQueries, 0);
      assert.ok(waiting.nip?.nextStatusQueryAt, 'a status query is scheduled');
      assert.ok(Date.parse(waiting.nip.nextStatusQueryAt) > Date.parse(waiting.transfer.createdAt));
      assert.deepEqual(waiting.ledgerEntries, []);

      // A status query settles it (the .97 script: no answer, then 00).
      const asked = await testApp.app.inject({
        method: 'POST',
        url: '/transfers/status',
        headers,
        payload: { sessionId: sent.sessionId },
      });
      assert.equal(asked.statusCode, 200, asked.body);
      const settled = await storyOf(ibsClientId, sent._id);
      assert.equal(settled.transfer.status, 'Completed');
      assert.equal(settled.nip?.responseCode, '00');
      assert.ok(settled.nip?.nextStatusQueryAt, 'the return check');
      assert.equal(new Set(settled.ledgerEntries.map((entry) => entry.journalId)).size, 1);
      assert.ok(settled.webhookEvents.some((event) => event.type === 'transfer'));
    });

    it('an inbound credit: its journal from the settlement account, its network session', async () => {
      const { ibsClientId, ownAccountId } = context();
      const { transfer, nip, ledgerEntries } = await storyOf(ibsClientId, credit._id);
      assert.equal(transfer.type, 'Inwards');
      assert.equal(nip?.responseCode, '00');
      assert.equal(net(ledgerEntries, ownAccountId), 50_000 - 50, 'less the stamp duty');
      assert.ok(ledgerEntries.some((entry) => entry.accountId === 'gl.stamp_duty_payable'));
    });
  });

  describe('400 "Unable to locate record": the transfer must be that client\'s', () => {
    it("answers another client's transfer as an unknown one", async () => {
      const { testApp, ibsClientId, otherHeaders, otherAccountNumber } = context();
      const theirs = await sandboxCredit(testApp.app, otherAccountNumber, 10);
      for (const transferId of [
        theirs._id,
        'f'.repeat(24),
        'not-an-id',
        credit._id.toUpperCase(),
      ]) {
        const response = await story(ibsClientId, transferId);
        assert.equal(response.statusCode, 400, `${transferId}: ${response.body}`);
        assert.equal(response.json().code, 'RECORD_NOT_FOUND');
        assert.equal(response.json().message, 'Unable to locate record');
      }
      assert.equal((await story(otherHeaders.clientid ?? '', theirs._id)).statusCode, 200);
    });
  });

  describe('the guards, on a transfer of the client', () => {
    const request = (id: string) => ({
      method: 'GET' as const,
      url: `/admin/clients/${id}/transfers/${credit._id}/story`,
    });
    describeAdminAuthGuards(context, request);
    describeAdminRecordIsolation(context, request);
  });
});

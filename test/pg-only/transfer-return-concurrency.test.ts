// PostgreSQL only: returned NIP transfers under concurrency. The same return notice delivered
// many times at once, with the status query's return check racing it, credits the customer once;
// a return racing the sender's next transfers (through two service graphs on one database, as
// two server processes would) keeps every balance and ledger invariant, and the sender's money
// adds up to what was sent and what came back.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { findTransfersByIds } from '../../src/modules/transfers/index.ts';
import { isNipSimulator } from '../../src/rails/nip/nip-simulator.ts';
import {
  nameEnquiry,
  OTHER_BANK,
  OTHER_BANK_ACCOUNT,
  sandboxCredit,
  signedInClient,
} from '../factories.ts';
import { buildSecondApp, buildTestApp, type TestApp } from '../harness.ts';
import {
  assertLedgerInvariants,
  moneySnapshot,
  statementLinesOf,
  transferEvents,
} from '../nip-returns.ts';

const FEE_AND_VAT_KOBO = 1_075; // ₦10 fee and ₦0.75 VAT, up to ₦5,000

describe('returned NIP transfers under concurrency (PostgreSQL)', () => {
  let testApp: TestApp;
  let second: FastifyInstance;

  before(async () => {
    testApp = await buildTestApp({}, { poolSize: 30 });
    second = await buildSecondApp(testApp);
  });
  after(async () => {
    await second?.close();
    await testApp?.close();
  });

  async function payer(name: string, naira: number) {
    const signedIn = await signedInClient(testApp, name);
    await sandboxCredit(testApp.app, signedIn.client.mainAccountNumber, naira);
    const reference = await nameEnquiry(
      testApp.app,
      signedIn.headers,
      OTHER_BANK,
      OTHER_BANK_ACCOUNT,
    );
    const send = (app: FastifyInstance, amount: number) =>
      app.inject({
        method: 'POST',
        url: '/transfers',
        headers: signedIn.headers,
        payload: {
          nameEnquiryReference: reference.sessionId,
          debitAccountNumber: signedIn.client.mainAccountNumber,
          beneficiaryBankCode: OTHER_BANK,
          beneficiaryAccountNumber: OTHER_BANK_ACCOUNT,
          amount,
          saveBeneficiary: false,
        },
      });
    const snapshot = () => moneySnapshot(testApp, signedIn.headers, signedIn.client.mainAccountId);
    return { ...signedIn, send, snapshot };
  }

  it('the same notice delivered 20 times at once, with 5 return checks racing it: one credit', async () => {
    const sender = await payer('Twice Ltd', 2_000);
    const before = await sender.snapshot();
    const sent = await sender.send(testApp.app, 700);
    assert.equal(sent.statusCode, 200, sent.body);
    const { _id: transferId, sessionId } = sent.json().data;
    const [transfer] = await findTransfersByIds(testApp.db, [transferId]);
    assert.ok(transfer);
    const network = testApp.services.rail;
    assert.ok(isNipSimulator(network));
    // The network records the return once; every delivery carries the same notice.
    const recorded = await network.returnTransfer(sessionId, 'Account closed');
    assert.equal(recorded.kind, 'returned');
    const notice = {
      sessionId,
      returnSessionId: recorded.kind === 'returned' ? recorded.returnSessionId : '',
      amountKobo: 70_000n,
      reason: 'Account closed',
    };
    const { transferReturns, outboundTransfers } = testApp.services;
    const answers = await Promise.all([
      ...Array.from({ length: 20 }, () => transferReturns.receive(notice)),
      ...Array.from({ length: 5 }, () => outboundTransfers.checkForReturn(transfer)),
    ]);
    for (const answer of answers.slice(0, 20)) {
      assert.equal(answer.status, 'Reversed');
      assert.equal(answer.reversalReference, notice.returnSessionId);
    }
    assert.deepEqual(await sender.snapshot(), before, 'made whole once, not twice');
    const lines = await statementLinesOf(
      testApp,
      sender.headers,
      sender.client.mainAccountId,
      transferId,
    );
    assert.equal(lines.filter((line) => line.type === 'Credit').length, 3, 'one return: 3 lines');
    assert.deepEqual(
      (await transferEvents(testApp.db, transferId)).map((event) => event.status),
      ['Completed', 'Reversed'],
    );
    await assertLedgerInvariants(testApp.db);
  });

  it("a return racing the sender's next transfers: the money adds up, invariants hold", async () => {
    const sender = await payer('Racing Ltd', 1_000);
    const start = await sender.snapshot();
    const first = await sender.send(testApp.app, 500);
    assert.equal(first.statusCode, 200, first.body);
    const { sessionId } = first.json().data;
    // ₦489.25 left: without the return, at most 8 of the 30 transfers of ₦50 (₦60.75 each) fit.
    const network = testApp.services.rail;
    assert.ok(isNipSimulator(network));
    const apps = [testApp.app, second];
    const [returned, ...answers] = await Promise.all([
      network.returnTransfer(sessionId, 'Wrong beneficiary'),
      ...Array.from({ length: 30 }, (_, index) =>
        sender.send(apps[index % 2] as FastifyInstance, 50),
      ),
    ]);
    assert.equal(returned.kind, 'returned');
    const placed = answers.filter((answer) => answer.statusCode === 200);
    for (const answer of answers) {
      if (answer.statusCode !== 200) {
        assert.equal(answer.statusCode, 402, answer.body);
        assert.equal(answer.json().code, 'INSUFFICIENT_FUNDS');
      }
    }
    assert.ok(placed.length >= 8, `${placed.length} placed`);
    for (const answer of placed) {
      assert.equal(answer.json().data.status, 'Completed');
    }
    const end = await sender.snapshot();
    // The first transfer and its return cancel out; each placed transfer cost ₦50 + ₦10.75.
    const spent = placed.length * (5_000 + FEE_AND_VAT_KOBO);
    assert.deepEqual(
      [end.available, end.book, end.locked],
      [start.available - spent, start.book - spent, 0],
    );
    assert.ok(end.available >= 0);
    const [row] = await testApp.db.query<{ status: string; is_reversed: boolean }>(
      `SELECT status, is_reversed FROM transfers WHERE session_id = $1 AND type = 'Outwards'`,
      [sessionId],
    );
    assert.deepEqual(row, { status: 'Reversed', is_reversed: true });
    await assertLedgerInvariants(testApp.db);
  });
});

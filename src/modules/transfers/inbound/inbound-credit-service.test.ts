import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { signedInClient } from '../../../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../../../test/harness.ts';
import { isNipSimulator } from '../../../rails/nip/nip-simulator.ts';
import type { InboundCreditRequest } from '../../../rails/rail.ts';
import { newNipSessionId } from '../../../shared/ids.ts';

describe('inbound credits from other banks', () => {
  let testApp: TestApp;
  let accountNumber: string;
  let accountId: string;
  let headers: Record<string, string>;

  before(async () => {
    testApp = await buildTestApp();
    const signedIn = await signedInClient(testApp);
    accountNumber = signedIn.client.mainAccountNumber;
    accountId = signedIn.client.mainAccountId;
    headers = signedIn.headers;
  });
  after(() => testApp?.close());

  function credit(amountKobo: bigint): InboundCreditRequest {
    return {
      sessionId: newNipSessionId('000013', testApp.clock),
      nameEnquiryReference: newNipSessionId('000013', testApp.clock),
      amountKobo,
      beneficiaryAccountNumber: accountNumber,
      originator: {
        bankCode: '000013',
        accountNumber: '0123456789',
        accountName: 'YUSUF BELLO',
        kycLevel: '2',
      },
      narration: 'School fees',
    };
  }

  async function bookBalance() {
    const response = await testApp.app.inject({
      method: 'GET',
      url: `/accounts/${accountId}`,
      headers,
    });
    return response.json().data.bookBalance as number;
  }

  it('records the sender and session as the network gave them', async () => {
    const request = credit(12_345n);
    const transfer = await testApp.services.inboundCredits.receive(request);
    assert.equal(transfer.sessionId, request.sessionId);
    assert.equal(transfer.nameEnquiryReference, request.nameEnquiryReference);
    assert.equal(transfer.paymentReference, request.sessionId);
    assert.deepEqual(transfer.debit, {
      bankCode: '000013',
      accountNumber: '0123456789',
      accountName: 'YUSUF BELLO',
      kycLevel: '2',
    });
    assert.equal(transfer.narration, 'School fees');
  });

  it('credits a resent session once and answers the first credit, even when resent at once', async () => {
    const before = await bookBalance();
    const request = credit(50_000n);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => testApp.services.inboundCredits.receive(request)),
    );
    assert.equal(new Set(answers.map((transfer) => transfer.id)).size, 1);
    assert.equal(await bookBalance(), before + 500);
    const rows = await testApp.db.query('SELECT id FROM transfers WHERE session_id = $1', [
      request.sessionId,
    ]);
    assert.equal(rows.length, 1);
  });

  it('arrives through the rail: the sandbox network hands credits to this service', async () => {
    const before = await bookBalance();
    const rail = testApp.services.rail;
    assert.ok(isNipSimulator(rail));
    const { sessionId } = await rail.sendInboundCredit({
      beneficiaryAccountNumber: accountNumber,
      amountKobo: 2_500n,
      originator: { bankCode: '000014', accountNumber: '0987654321', accountName: 'ADA OBI' },
    });
    assert.equal(await bookBalance(), before + 25);
    const transfer = await testApp.services.inboundCredits.find(sessionId);
    assert.equal(transfer?.debit.accountName, 'ADA OBI');
    assert.equal(transfer?.type, 'Inwards');
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertWellFormedNameEnquiry, assertWellFormedTransferOutcome } from './rail.contract.ts';
import { createUnconfiguredRail } from './unconfigured-rail.ts';

describe("production's unconfigured rail", () => {
  const rail = createUnconfiguredRail();
  const sessionId = `999240${'0'.repeat(24)}`;

  it('refuses name enquiries and answers transfers as definitive failures: no money moves', async () => {
    const enquiry = await rail.nameEnquiry({
      sessionId,
      bankCode: '000013',
      accountNumber: '0123456789',
    });
    assertWellFormedNameEnquiry(enquiry);
    assert.equal(enquiry.kind, 'unavailable');
    const party = {
      bankCode: '000013',
      accountNumber: '0123456789',
      accountName: 'X',
      kycLevel: '1',
    };
    const sent = await rail.sendTransfer({
      sessionId,
      nameEnquiryReference: sessionId,
      amountKobo: 100n,
      beneficiary: party,
      originator: { ...party, bankCode: '999240' },
      narration: 'n',
      paymentReference: 'r',
    });
    const queried = await rail.queryStatus({ sessionId, bankCode: '000013' });
    for (const outcome of [sent, queried]) {
      assertWellFormedTransferOutcome(outcome);
      assert.equal(outcome.kind, 'failed');
    }
  });

  it('accepts every handler and never calls one: no credit, return or recall arrives', () => {
    const never = async () => assert.fail('the unconfigured rail has no network to hear from');
    assert.equal(rail.onInboundCredit(never), undefined);
    assert.equal(rail.onTransferReturned(never), undefined);
    assert.equal(rail.onInboundRecalled(never), undefined);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createUnconfiguredUssdGateway } from './unconfigured-ussd-gateway.ts';
import type { UssdPaymentNotice } from './ussd-gateway.ts';

const REQUEST = {
  amountKobo: 150_000n,
  merchantName: 'ACME LTD',
  expiresAt: new Date('2026-03-02T09:30:00.000Z'),
};

describe('unconfigured USSD gateway', () => {
  it('issues no reference: unavailable, saying why', async () => {
    const outcome = await createUnconfiguredUssdGateway().issueReference(REQUEST);
    assert.deepEqual(outcome, {
      kind: 'unavailable',
      message: 'USSD payments are not configured on this server',
    });
  });

  it('answers every status query unavailable, never unpaid or unknown', async () => {
    // Unknown or unpaid would let the status query worker close a reference nobody can judge.
    const gateway = createUnconfiguredUssdGateway();
    for (const reference of ['0123456789', '0000000000', '']) {
      const outcome = await gateway.queryPayment(reference);
      assert.equal(outcome.kind, 'unavailable', reference);
      assert.match(outcome.message, /not configured/);
    }
  });

  it('takes a payment handler harmlessly, and never calls it', async () => {
    const gateway = createUnconfiguredUssdGateway();
    const notices: UssdPaymentNotice[] = [];
    assert.doesNotThrow(() =>
      gateway.onPayment(async (notice) => {
        notices.push(notice);
      }),
    );
    assert.equal((await gateway.issueReference(REQUEST)).kind, 'unavailable');
    assert.equal((await gateway.queryPayment('0123456789')).kind, 'unavailable');
    assert.deepEqual(notices, []);
  });
});

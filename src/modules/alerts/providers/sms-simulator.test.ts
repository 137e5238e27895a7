import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeSmsProviderContract } from './sms-provider.contract.ts';
import { createSmsSimulator, createUnconfiguredSmsProvider } from './sms-simulator.ts';

const simulator = createSmsSimulator();

describeSmsProviderContract('the sandbox simulator', () => simulator, {
  deliverable: ['+2348031234567', '08031234567'],
  invalid: ['+2348030000000', '12345', '+234803123456x'],
  unavailable: ['+2348030000001'],
  delivered: () => simulator.delivered(),
});

describe('the production stub', () => {
  it('sends nothing and says why, so messages wait', async () => {
    const outcome = await createUnconfiguredSmsProvider().send({
      dedupKey: 'k',
      to: '+2348031234567',
      text: 'x',
    });
    assert.deepEqual(outcome, { kind: 'temporary', error: 'no SMS provider is configured' });
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { OutgoingSms, SmsProvider } from './sms-provider.ts';

/**
 * The behaviour every SmsProvider must show (docs/alerts.md). The alerts worker marks a message
 * sent only on `accepted`, retries `temporary` with the same dedupKey, and suppresses the
 * number on `permanent`: a provider that answers wrongly loses alerts, sends them twice, or
 * keeps texting a dead number. Run it from the provider's own test file.
 */
export interface SmsProviderContractScenarios {
  /** Numbers the provider delivers to. */
  readonly deliverable: readonly [string, ...string[]];
  /** Numbers it refuses for good (invalid, not a mobile). */
  readonly invalid: readonly string[];
  /** Numbers it cannot reach now; empty for a provider that cannot be made to. */
  readonly unavailable?: readonly string[];
  /** What reached handsets, by dedupKey, where the provider can tell (a simulator, a sandbox). */
  readonly delivered?: () => readonly OutgoingSms[];
}

export function describeSmsProviderContract(
  name: string,
  provider: () => SmsProvider,
  scenarios: SmsProviderContractScenarios,
): void {
  const sms = (to: string, key: string): OutgoingSms => ({
    dedupKey: key,
    to,
    text: 'OpenIBS: Credit NGN 1,000.00 on 100****013. Bal NGN 5,000.00',
  });
  describe(`SmsProvider contract: ${name}`, () => {
    it('accepts a message to a deliverable number', async () => {
      for (const [index, to] of scenarios.deliverable.entries()) {
        assert.deepEqual(await provider().send(sms(to, `contract-ok-${index}`)), {
          kind: 'accepted',
        });
      }
    });
    it('accepts a retry under the same dedupKey, and delivers it once', async () => {
      const [to] = scenarios.deliverable;
      const first = await provider().send(sms(to, 'contract-twice'));
      const again = await provider().send(sms(to, 'contract-twice'));
      assert.equal(first.kind, 'accepted');
      assert.equal(again.kind, 'accepted');
      if (scenarios.delivered !== undefined) {
        const copies = scenarios.delivered().filter((m) => m.dedupKey === 'contract-twice');
        assert.equal(copies.length, 1);
      }
    });
    it('refuses an invalid number permanently, with a reason', async () => {
      for (const to of scenarios.invalid) {
        const outcome = await provider().send(sms(to, `contract-invalid-${to}`));
        assert.equal(outcome.kind, 'permanent');
        assert.ok('error' in outcome && outcome.error.length > 0);
      }
    });
    it('answers an unreachable number as temporary, and delivers nothing', async () => {
      for (const to of scenarios.unavailable ?? []) {
        const outcome = await provider().send(sms(to, `contract-down-${to}`));
        assert.equal(outcome.kind, 'temporary');
        const reached = scenarios.delivered?.().filter((m) => m.to === to) ?? [];
        assert.equal(reached.length, 0);
      }
    });
    it('refuses an empty text permanently', async () => {
      const [to] = scenarios.deliverable;
      const outcome = await provider().send({ dedupKey: 'contract-empty', to, text: '' });
      assert.equal(outcome.kind, 'permanent');
    });
  });
}

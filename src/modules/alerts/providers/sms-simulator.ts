import type { DeliveryOutcome } from './delivery.ts';
import { type OutgoingSms, SMS_MAX_LENGTH, type SmsProvider } from './sms-provider.ts';

/**
 * The sandbox's SMS gateway, deterministic by the number's last digits (docs/alerts.md):
 * - ending in 0000: an invalid number, refused for good (permanent);
 * - ending in 0001: the gateway is unavailable for that number (temporary), every time;
 * - anything else: accepted. A dedupKey accepted before is accepted again without a second
 *   message, as a real gateway's client reference de-duplicates.
 * `delivered()` lists what reached a handset, once per key.
 */
export function createSmsSimulator() {
  const delivered = new Map<string, OutgoingSms>();
  const provider: SmsProvider = {
    async send(sms): Promise<DeliveryOutcome> {
      const digits = sms.to.replace(/^\+/, '');
      if (!/^[0-9]{10,15}$/.test(digits) || digits.endsWith('0000')) {
        return { kind: 'permanent', error: `invalid number: ${sms.to}` };
      }
      if (sms.text.length === 0 || sms.text.length > SMS_MAX_LENGTH) {
        return {
          kind: 'permanent',
          error: `text length ${sms.text.length} is not 1-${SMS_MAX_LENGTH}`,
        };
      }
      if (digits.endsWith('0001')) {
        return { kind: 'temporary', error: 'gateway unavailable for this number' };
      }
      if (!delivered.has(sms.dedupKey)) {
        delivered.set(sms.dedupKey, sms);
      }
      return { kind: 'accepted' };
    },
  };
  return {
    ...provider,
    delivered: (): OutgoingSms[] => [...delivered.values()],
  };
}

/** Production without an adapter: nothing is sent, the messages wait saying why. */
export function createUnconfiguredSmsProvider(): SmsProvider {
  return {
    async send(): Promise<DeliveryOutcome> {
      return { kind: 'temporary', error: 'no SMS provider is configured' };
    },
  };
}

import type { Biller } from './biller.ts';

const NOT_CONFIGURED = 'VAS is not configured on this server';

/**
 * Production's biller until an adapter is configured. Nothing can be sold, so a purchase (and
 * its status query) is definitively `failed` and the held money goes back at once; a
 * verification is `unavailable`, since the meter or card may well exist.
 */
export function createUnconfiguredBiller(): Biller {
  return {
    verify: async () => ({ kind: 'unavailable', message: NOT_CONFIGURED }),
    purchase: async () => ({ kind: 'failed', message: NOT_CONFIGURED }),
    queryStatus: async () => ({ kind: 'failed', message: NOT_CONFIGURED }),
  };
}

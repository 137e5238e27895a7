import type { IdentityBureau } from './identity-bureau.ts';

/**
 * Production's identity bureau until an adapter is configured: every check answers
 * "unavailable", so nothing is charged and no verification is created.
 */
export function createUnconfiguredBureau(): IdentityBureau {
  return {
    lookup: async () => ({
      kind: 'unavailable',
      message: 'Identity checks are not configured on this server',
    }),
    deliverOtp: async () => false,
  };
}

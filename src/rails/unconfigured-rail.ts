import type { Rail } from './rail.ts';

/**
 * Production's rail until a NIBSS NIP adapter is configured: it refuses name enquiries to other
 * banks (so no transfer to them can be placed), and would answer any transfer as a definitive
 * routing failure, never moving money.
 */
export function createUnconfiguredRail(): Rail {
  const message = 'Transfers to other banks are not configured on this server';
  return {
    nameEnquiry: async () => ({
      kind: 'unavailable',
      responseCode: '91',
      responseMessage: message,
    }),
    sendTransfer: async () => ({ kind: 'failed', responseCode: '92', responseMessage: message }),
    queryStatus: async () => ({ kind: 'failed', responseCode: '25', responseMessage: message }),
    // No network connection, so no credit and no return ever arrives.
    onInboundCredit: () => undefined,
    onTransferReturned: () => undefined,
    onInboundRecalled: () => undefined,
  };
}

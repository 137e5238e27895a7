import type { UssdGateway } from './ussd-gateway.ts';

const NOT_CONFIGURED = 'USSD payments are not configured on this server';

/**
 * Production's USSD gateway until an adapter is configured: no reference can be issued, so none
 * can be paid, and a status query has nothing to ask.
 */
export function createUnconfiguredUssdGateway(): UssdGateway {
  return {
    issueReference: async () => ({ kind: 'unavailable', message: NOT_CONFIGURED }),
    queryPayment: async () => ({ kind: 'unavailable', message: NOT_CONFIGURED }),
    onPayment: () => {},
  };
}

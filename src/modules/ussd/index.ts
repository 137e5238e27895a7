/**
 * The USSD module's public face: references a customer dials at their own bank
 * (`*737*000*REFERENCE#`) to pay one of a client's accounts, issued and reported by a USSD
 * gateway (docs/ussd.md). Paid through the transfers module's inbound-credit money path.
 */

export { createDatabaseReferenceStore } from './providers/simulator-references.ts';
export { createUnconfiguredUssdGateway } from './providers/unconfigured-ussd-gateway.ts';
export type { UssdGateway } from './providers/ussd-gateway.ts';
export {
  createUssdGatewaySimulator,
  isUssdGatewaySimulator,
  type UssdDialOutcome,
  type UssdGatewaySimulator,
} from './providers/ussd-gateway-simulator.ts';
export { dialString, findUssdBank } from './ussd-banks.ts';
/** What the wiring builds and registers of this module (docs/architecture.md). */
export { ussdModule } from './ussd-module.ts';
export { countReferencesAwaitingStatusQuery } from './ussd-repository.ts';
export { ListUssdReferencesQuery, UssdReferenceSchema } from './ussd-schemas.ts';
export type { UssdService } from './ussd-service.ts';
export { createUssdStatusQueryWorker } from './ussd-status-query-worker.ts';
export { ussdReferenceView } from './ussd-view.ts';

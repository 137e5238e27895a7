/**
 * The transfers module's public face: name enquiry and the bank list, transfers a client sends
 * (intra-bank and NIP), credits other banks send, status queries and history.
 */

export type { BulkPayoutService } from './bulk/bulk-payout-service.ts';
export { BulkBatchSchema } from './bulk/bulk-schemas.ts';
export { bulkBatchView } from './bulk/bulk-view.ts';
export {
  type CollectionAccount,
  type CollectionPayment,
  type Collections,
  NO_COLLECTIONS,
} from './collections.ts';
export {
  createInboundCreditService,
  type InboundCreditService,
} from './inbound/inbound-credit-service.ts';
export type { InboundRecallService, RecallOutcome } from './inbound/inbound-recall.ts';
export type {
  ReversalOutcome,
  TransferReversalService,
} from './intra-bank/transfer-reversal.ts';
export type { LienService } from './liens/lien-release.ts';
export { findBank } from './name-enquiry/bank-directory.ts';
export { purgeExpiredEnquiries } from './name-enquiry/name-enquiry-repository.ts';
export type { TransferReturnService } from './outbound/transfer-return.ts';
export type { Transfer } from './transfer.ts';
export { countProcessingTransfers, findTransfersByIds } from './transfer-repository.ts';
export { TransferSchema } from './transfer-schemas.ts';
export { storyWindow, type TransferService, type TransferStory } from './transfer-service.ts';
export { transferView } from './transfer-view.ts';
/** What the wiring builds and registers of this module (docs/architecture.md). */
export { transfersModule } from './transfers-module.ts';

/**
 * The transfers module's public face: name enquiry and the bank list, transfers a client sends
 * (intra-bank and NIP), credits other banks send, status queries and history.
 */
export {
  type CollectionAccount,
  type CollectionClaim,
  type CollectionPayment,
  type Collections,
  NO_COLLECTIONS,
} from './collections.ts';
export {
  createInboundCreditService,
  type InboundCreditService,
} from './inbound/inbound-credit-service.ts';
export { findBank } from './name-enquiry/bank-directory.ts';
export { purgeExpiredEnquiries } from './name-enquiry/name-enquiry-repository.ts';
export { createNameEnquiryService } from './name-enquiry/name-enquiry-service.ts';
export { createOutboundTransferService } from './outbound/outbound-transfer-service.ts';
export { createStatusQueryWorker } from './outbound/status-query-worker.ts';
export { transferRoutes } from './routes/index.ts';
export type { Transfer } from './transfer.ts';
export { countProcessingTransfers, findTransfersByIds } from './transfer-repository.ts';
export { TransferSchema } from './transfer-schemas.ts';
export {
  createTransferService,
  storyWindow,
  type TransferService,
  type TransferStory,
} from './transfer-service.ts';
export { transferView } from './transfer-view.ts';

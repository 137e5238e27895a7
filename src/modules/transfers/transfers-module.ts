import type { GroupCommitLimits } from '../../db/group-commit.ts';
import {
  type CoreParts,
  type ModuleDescriptor,
  moduleRoutes,
  type RouteParts,
  statusQueriesInServer,
  statusQuerySettings,
} from '../../http/module-descriptor.ts';
import { createEnumerationGuard } from '../../http/plugins/enumeration-guard.ts';
import { byClient } from '../../http/plugins/rate-limits.ts';
import { GL_ACCOUNTS } from '../../ledger/gl-accounts.ts';
import type { Rail } from '../../rails/rail.ts';
import type { BeneficiaryService } from '../beneficiaries/index.ts';
import { bulkAcceptance, bulkPlacement, bulkRefusal } from './bulk/bulk-batch.ts';
import { createBulkPayoutService } from './bulk/bulk-payout-service.ts';
import { createBulkPayoutWorker } from './bulk/bulk-worker.ts';
import type { Collections } from './collections.ts';
import { createInboundCreditService } from './inbound/inbound-credit-service.ts';
import { createInboundRecallService } from './inbound/inbound-recall.ts';
import { createTransferReversalService } from './intra-bank/transfer-reversal.ts';
import { createLienService } from './liens/lien-release.ts';
import { findBank } from './name-enquiry/bank-directory.ts';
import { createNameEnquiryService } from './name-enquiry/name-enquiry-service.ts';
import { createOutboundTransferService } from './outbound/outbound-transfer-service.ts';
import { createStatusQueryWorker } from './outbound/status-query-worker.ts';
import { createTransferReturnService } from './outbound/transfer-return.ts';
import { transferRoutes } from './routes/index.ts';
import {
  inboundRecall,
  lienRelease,
  transferPlacement,
  transferReceipt,
  transferReturn,
  transferReversal,
  transferSettlement,
} from './transfer-batch.ts';
import { createTransferService } from './transfer-service.ts';

/** What the transfers module is built from, besides the core parts. */
export interface TransfersModuleDeps extends CoreParts {
  /** The NIP rail (guarded: deadlines and a circuit breaker). */
  readonly rail: Rail;
  /** Group commit of the money path (db/group-commit.ts), the queue bound included. */
  readonly batches: GroupCommitLimits;
  /** Numbers of ours that collect for an account (the virtual-accounts module). */
  readonly collections: Collections;
  readonly beneficiaries: Pick<BeneficiaryService, 'toSave'>;
}

/**
 * What other banks send through the rail, whichever rail it is: credits, recalls of credits
 * (paid back to the GL the credit came from) and returns of transfers we sent.
 */
function listenToTheRail(deps: TransfersModuleDeps) {
  const { config, db, clock, rail, batches, collections } = deps;
  const settlementAccountId =
    config.ibsEnv === 'sandbox' ? GL_ACCOUNTS.sandboxExternalFloat : GL_ACCOUNTS.nipSettlement;
  const inboundCredits = createInboundCreditService({
    db,
    clock,
    institutionCode: config.institutionCode,
    stampDuty: config,
    settlementAccountId,
    batches,
    collections,
  });
  rail.onInboundCredit((credit) => inboundCredits.receive(credit));
  // Recalls come in on the inbound path, and pay back the GL the credit came from.
  const inboundRecalls = createInboundRecallService({
    db,
    clock,
    institutionCode: config.institutionCode,
    settlementAccountId,
  });
  rail.onInboundRecalled((notice) => inboundRecalls.receive(notice));
  // Return notices arrive through the rail too, whichever rail it is.
  const transferReturns = createTransferReturnService({ db, clock });
  rail.onTransferReturned((notice) => transferReturns.receive(notice));
  return { inboundCredits, inboundRecalls, transferReturns };
}

/**
 * Name enquiry, transfers a client sends, credits other banks send, returns of transfers the
 * beneficiary bank sent back, recalls of credits the sending bank takes back, operators'
 * reversals and liens, and their history. Credits, returns and recalls from other banks arrive
 * through the rail, whichever rail it is.
 */
function createTransfersServices(deps: TransfersModuleDeps) {
  const { config, db, clock, rail, batches, collections } = deps;
  const { inboundCredits, inboundRecalls, transferReturns } = listenToTheRail(deps);
  const nameEnquiryService = createNameEnquiryService({
    db,
    clock,
    rail,
    banks: { find: (code) => findBank(code, config.institutionCode) },
    institutionCode: config.institutionCode,
    ttlSeconds: config.transfers.nameEnquiryTtlSeconds,
    collections,
  });
  const outboundTransfers = createOutboundTransferService({
    db,
    clock,
    rail,
    institutionCode: config.institutionCode,
    config: config.transfers,
    beneficiaries: deps.beneficiaries,
    batches,
    collections,
    returns: transferReturns,
  });
  const transferService = createTransferService({ db, outbound: outboundTransfers });
  const bulkPayouts = createBulkPayoutService({
    db,
    clock,
    institutionCode: config.institutionCode,
    config: config.transfers,
    maxAmountKobo: config.maxAmountKobo,
    collections,
    beneficiaries: deps.beneficiaries,
    nameEnquiry: nameEnquiryService,
    outbound: outboundTransfers,
    chunkSize: batches.maxBatch,
    // The status-query loops' claim (STATUS_QUERY_CLAIM_SECONDS); each chunk renews it.
    claimSeconds: config.transfers.statusQueryWorker.claimSeconds,
  });
  return {
    bulkPayouts,
    inboundCredits,
    nameEnquiryService,
    outboundTransfers,
    transferService,
    transferReturns,
    inboundRecalls,
    transferReversals: createTransferReversalService({ db, clock }),
    liens: createLienService({ db, clock }),
  };
}

/**
 * Batches one worker places at once (each a chunk at a time): enough to keep two group-commit
 * calls in flight while the others prepare theirs.
 */
const BULK_BATCHES_AT_ONCE = 4;
/** A new batch waits at most this long for a worker to take it. */
const BULK_POLL_INTERVAL_MS = 200;

type TransfersServices = ReturnType<typeof createTransfersServices>;

/**
 * The transfers routes' options. Name enquiry shows customers' names: it has a limit of its own
 * per client, and a client that asks about many numbers that are no account waits (the misses
 * are counted where the service meets them; docs/operations.md, "Rate limits").
 */
function transferRouteOptions({ config, services, limit }: RouteParts<TransfersServices>) {
  const limits = config.rateLimits;
  return {
    institutionCode: config.institutionCode,
    maxAmountKobo: config.maxAmountKobo,
    nameEnquiryService: services.nameEnquiryService,
    outboundTransfers: services.outboundTransfers,
    bulkPayouts: services.bulkPayouts,
    transferService: services.transferService,
    nameEnquiryPerMinutePerClient: limits.nameEnquiryPerMinutePerClient,
    enquiryMisses: createEnumerationGuard({
      limit,
      misses: {
        name: 'name-enquiry-misses',
        max: limits.nameEnquiryMissesPerHourPerClient,
        perSeconds: 3600,
        key: byClient,
      },
    }),
  };
}

export const transfersModule = {
  name: 'transfers',
  batch: {
    kinds: [
      transferPlacement,
      transferSettlement,
      transferReceipt,
      transferReturn,
      inboundRecall,
      transferReversal,
      lienRelease,
      bulkAcceptance,
      bulkPlacement,
      bulkRefusal,
    ],
  },
  createServices: createTransfersServices,
  routes: [moduleRoutes('api', transferRoutes, transferRouteOptions)],
  workers: [
    {
      name: 'statusQueries',
      inServer: statusQueriesInServer,
      // Processing NIP transfers, including those a crash left between hold and dispatch.
      create: (parts) =>
        createStatusQueryWorker({
          ...statusQuerySettings(parts),
          outbound: parts.services.outboundTransfers,
        }),
    },
    {
      name: 'bulkPayouts',
      inServer: statusQueriesInServer,
      // Bulk batches' pending items, including those of a batch whose worker died mid-way.
      create: (parts) =>
        createBulkPayoutWorker({
          ...statusQuerySettings(parts),
          batchSize: BULK_BATCHES_AT_ONCE,
          pollIntervalMs: BULK_POLL_INTERVAL_MS,
          bulkPayouts: parts.services.bulkPayouts,
        }),
    },
  ],
} satisfies ModuleDescriptor<TransfersServices, TransfersModuleDeps, TransfersServices>;

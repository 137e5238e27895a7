import type { Principal } from '../../auth/principal.ts';
import { dailyLimitMessage, limitsFor, type MoneyOutLimits } from '../../config/kyc-limits.ts';
import type { Db } from '../../db/db.ts';
import {
  createGroupCommit,
  type GroupCommitLimits,
  withoutQueueBound,
} from '../../db/group-commit.ts';
import { AppError, recordNotFound } from '../../errors/app-error.ts';
import { throwIfRefusedOrFailed } from '../../errors/batch-items.ts';
import { idempotencyClaimJson } from '../../idempotency/idempotency.ts';
import { type BatchResult, callBatch } from '../../ledger/batch.ts';
import { GL_ACCOUNTS } from '../../ledger/gl-accounts.ts';
import { holdJson, journalJson } from '../../ledger/ledger-service.ts';
import type { Clock } from '../../shared/clock.ts';
import { isObjectId, newHexReference, newObjectId } from '../../shared/ids.ts';
import { invariant } from '../../shared/invariant.ts';
import type { Kobo } from '../../shared/money.ts';
import type { DestinationPolicy } from '../../webhooks/destination-guard.ts';
import { type OutboxEvent, outboxEventsJson } from '../../webhooks/outbox.ts';
import { checkDestination } from '../../webhooks/webhook-service.ts';
import { type Account, findOwnActiveAccount } from '../accounts/index.ts';
import type { Category } from './catalogue.ts';
import { commissionOn } from './catalogue.ts';
import { findCategory, findProduct } from './catalogue-repository.ts';
import type { Biller, BillerPurchaseOutcome, VasService } from './providers/biller.ts';
import { type VasPlaceItem, type VasSettleItem, vasPlacement, vasSettlement } from './vas-batch.ts';
import type { Channel, Purchase } from './vas-purchase.ts';
import {
  findClientPurchase,
  findPurchase,
  listPurchases,
  type PurchaseFilter,
  purchaseRowJson,
} from './vas-purchase-repository.ts';
import { purchaseTransactionView } from './vas-view.ts';

export interface VasPurchaseServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly biller: Biller;
  /** Delays between status queries of a pending purchase; the last repeats. */
  readonly statusQueryScheduleSeconds: readonly number[];
  readonly batches: GroupCommitLimits;
  /** The daily limits of transfers, which purchases count towards with them. */
  readonly limits: MoneyOutLimits;
  /** Where a purchase's statusUrl may point: the webhook destination policy. */
  readonly callbackPolicy: DestinationPolicy;
}

/** A purchase as a route asks for it (amounts in kobo, the path's service). */
export interface PurchaseRequest {
  /** The service the path sells (`/vas/pay/airtime` → AIRTIME). */
  readonly service: VasService;
  readonly serviceCategoryId: string;
  readonly amountKobo: Kobo;
  readonly channel: Channel;
  readonly debitAccountNumber: string;
  /** Phone number, smart card or meter number. */
  readonly beneficiary: string;
  readonly bundleCode?: string;
  readonly vendType?: string;
  readonly statusUrl?: string;
}

/** Idempotency-Key claims of purchases live under this scope. */
const IDEMPOTENCY_SCOPE = 'vas';

/**
 * VAS purchases. Placing one holds its price on the debit account and counts it towards the
 * account's daily limit with its transfers (one call per batch, with the Idempotency-Key claim);
 * the biller is then asked outside any transaction; its answer posts the hold (price to the
 * biller settlement GL, commission to the client), voids it (a failed purchase costs nothing and
 * gives its price back to the day's limit), or leaves it pending for the status-query worker.
 * Placements and settlements are group-committed like transfers.
 */
export function createVasPurchaseService(deps: VasPurchaseServiceDeps) {
  const placements = createGroupCommit<VasPlaceItem, BatchResult<typeof vasPlacement.result>>({
    ...deps.batches,
    run: (items) => callBatch(deps.db, vasPlacement, items),
  });
  // A settlement finishes a purchase whose hold committed: never refused for a full queue.
  const settlements = createGroupCommit<VasSettleItem, BatchResult<typeof vasSettlement.result>>({
    ...withoutQueueBound(deps.batches),
    run: (items) => callBatch(deps.db, vasSettlement, items),
  });

  async function purchase(
    principal: Principal,
    request: PurchaseRequest,
    requestHash: string,
    idempotencyKey?: string,
  ): Promise<Purchase> {
    if (request.statusUrl !== undefined) {
      await checkDestination(request.statusUrl, deps.callbackPolicy, 'statusUrl');
    }
    const category = await categoryFor(request);
    const service = serviceOf(request, category);
    const product = await checkAmountFor(deps.db, request, category, service);
    const account = await findOwnActiveAccount(
      deps.db,
      principal.clientId,
      request.debitAccountNumber,
    );
    const now = deps.clock.now();
    const pending: Purchase = {
      id: newObjectId(deps.clock),
      clientId: principal.clientId,
      accountId: account.id,
      debitAccountNumber: account.accountNumber,
      service,
      categoryId: category.id,
      categoryIdentifier: category.identifier,
      reference: newHexReference(deps.clock),
      status: 'pending',
      amountKobo: request.amountKobo,
      commissionKobo: commissionOn(category.providerCommission, request.amountKobo),
      channel: request.channel,
      // +234... and 234... are one number: billers take it without the plus.
      beneficiary: request.beneficiary.replace(/^\+/, ''),
      bundleCode: product?.bundleCode ?? null,
      vendType: request.vendType ?? null,
      receiverName: null,
      utilityToken: null,
      failureMessage: null,
      statusUrl: request.statusUrl ?? null,
      holdId: newObjectId(deps.clock),
      dailyLimitKey: account.dailyLimitKey,
      requestHash,
      statusQueries: 0,
      // A crash before the biller's answer is applied leaves it to the status-query worker.
      nextStatusQueryAt: nextQueryAt(now, 0),
      createdAt: now,
      updatedAt: now,
      completedAt: null,
    };
    const placed = await placements.submit(
      placementItem(pending, account, deps.limits, idempotencyKey),
    );
    if (placed.kind === 'replay') {
      return load(placed.purchaseId);
    }
    throwIfRefusedOrFailed(placed, 'VAS');
    const outcome = await deps.biller.purchase(billerRequest(pending));
    return settle(pending, outcome, { queried: false });
  }

  /** The worker's step for a pending purchase: ask the biller, apply the answer. */
  async function queryAndSettle(purchase: Purchase): Promise<Purchase> {
    const outcome = await deps.biller.queryStatus(billerRequest(purchase));
    return settle(purchase, outcome, { queried: true });
  }

  /**
   * Applies the biller's answer to a purchase still pending (a concurrent worker may have
   * settled it: then it is read back as it stands). A purchase that was pending when its
   * buyer was answered tells them it is final with a `vas.transaction` event.
   */
  async function settle(
    purchase: Purchase,
    outcome: BillerPurchaseOutcome,
    how: { queried: boolean },
  ): Promise<Purchase> {
    const now = deps.clock.now();
    const status =
      outcome.kind === 'successful'
        ? 'successful'
        : outcome.kind === 'failed'
          ? 'failed'
          : 'pending';
    const queries = purchase.statusQueries + (how.queried ? 1 : 0);
    const settled: Purchase = {
      ...purchase,
      status,
      utilityToken: outcome.kind === 'successful' ? (outcome.token ?? null) : null,
      receiverName: outcome.kind === 'successful' ? (outcome.receiverName ?? null) : null,
      failureMessage: outcome.kind === 'failed' ? outcome.message : null,
      statusQueries: queries,
      nextStatusQueryAt: status === 'pending' ? nextQueryAt(now, queries) : null,
      updatedAt: now,
      completedAt: status === 'pending' ? null : now,
    };
    const result = await settlements.submit({
      purchaseId: purchase.id,
      status,
      at: now.toISOString(),
      utilityToken: settled.utilityToken,
      receiverName: settled.receiverName,
      failureMessage: settled.failureMessage,
      statusQueried: how.queried ? 1 : 0,
      nextStatusQueryAt: settled.nextStatusQueryAt?.toISOString() ?? null,
      ...(status === 'successful'
        ? { journal: journalJson(purchaseJournal(settled, newObjectId(deps.clock), now)) }
        : {}),
      // Told only when it was pending for its buyer: the others learned it from the answer.
      events:
        status !== 'pending' && how.queried
          ? outboxEventsJson(deps.clock, finalEvents(settled))
          : [],
    });
    if (result.kind === 'unchanged') {
      return load(purchase.id);
    }
    throwIfRefusedOrFailed(result, 'VAS');
    return settled;
  }

  function nextQueryAt(now: Date, queries: number): Date {
    const schedule = deps.statusQueryScheduleSeconds;
    const seconds = schedule[Math.min(queries, schedule.length - 1)] ?? 60;
    return new Date(now.getTime() + seconds * 1000);
  }

  async function load(id: string): Promise<Purchase> {
    const found = await findPurchase(deps.db, id);
    invariant(found !== undefined, `purchase ${id} was answered by the database but is missing`);
    return found;
  }

  async function categoryFor(request: PurchaseRequest): Promise<Category> {
    const category = await findCategory(deps.db, request.serviceCategoryId);
    if (category === undefined) {
      throw invalid('serviceCategoryId', 'is not a service category');
    }
    return category;
  }

  /** The caller's purchase; another client's, unknown or malformed: "Unable to locate record". */
  async function get(principal: Principal, id: string): Promise<Purchase> {
    const found = isObjectId(id)
      ? await findClientPurchase(deps.db, principal.clientId, id)
      : undefined;
    if (found === undefined) {
      throw recordNotFound();
    }
    return found;
  }

  function list(
    principal: Pick<Principal, 'clientId'>,
    filter: Omit<PurchaseFilter, 'clientId' | 'offset' | 'limit'> & { page: number; limit: number },
  ) {
    const { page, limit, ...rest } = filter;
    return listPurchases(deps.db, {
      ...rest,
      clientId: principal.clientId,
      offset: page * limit,
      limit,
    });
  }

  return { purchase, queryAndSettle, get, list };
}

export type VasPurchaseService = ReturnType<typeof createVasPurchaseService>;

/**
 * What vas_place_one takes for a new purchase (sql/vas_place_one.sql): the row, the hold on its
 * price, the daily limit its price counts against, and the Idempotency-Key claim.
 */
function placementItem(
  pending: Purchase,
  account: Account,
  limits: MoneyOutLimits,
  idempotencyKey: string | undefined,
) {
  return {
    purchase: purchaseRowJson(pending),
    hold: holdJson({
      id: pending.holdId,
      accountId: account.id,
      amountKobo: pending.amountKobo,
      reference: pending.reference,
      createdAt: pending.createdAt,
    }),
    daily: {
      limit: limitsFor(limits, account.kycLevel).dailyKobo.toString(),
      limitMessage: dailyLimitMessage(account.dailyLimitKey !== account.id),
    },
    ...idempotencyClaimJson({ scope: IDEMPOTENCY_SCOPE, key: idempotencyKey }),
  };
}

/**
 * The service a purchase is for: the path's, which the category must belong to. A real client
 * buys data through the airtime path with a data category and a bundle code: that is a data
 * purchase.
 */
function serviceOf(request: PurchaseRequest, category: Category): VasService {
  if (category.service === request.service) {
    return request.service;
  }
  if (request.service === 'AIRTIME' && category.service === 'DATA' && request.bundleCode) {
    return 'DATA';
  }
  throw invalid('serviceCategoryId', `is not a ${request.service} category`);
}

/**
 * The amount rules: a fixed-price product's price exactly; a product whose amount the buyer
 * chooses (cable Top Up), airtime and electricity within the category's bounds.
 */
async function checkAmountFor(
  db: Db,
  request: PurchaseRequest,
  category: Category,
  service: VasService,
) {
  if (service === 'DATA' || service === 'CABLETV') {
    if (request.bundleCode === undefined) {
      throw invalid('bundleCode', 'is required');
    }
    const product = await findProduct(db, category.id, request.bundleCode);
    if (product === undefined) {
      throw invalid('bundleCode', `is not a product of ${category.name}`);
    }
    if (product.amountKobo !== null && product.isAmountFixed) {
      if (request.amountKobo !== product.amountKobo) {
        throw new AppError(
          'INVALID_AMOUNT',
          `amount must be ${Number(product.amountKobo) / 100}, the price of ${product.name}.`,
          {
            details: [{ field: 'amount', message: `must be the product's price` }],
          },
        );
      }
      return product;
    }
    checkBounds(request.amountKobo, category);
    return product;
  }
  checkBounds(request.amountKobo, category);
  return undefined;
}

function checkBounds(amountKobo: Kobo, category: Category): void {
  if (amountKobo < category.minAmountKobo || amountKobo > category.maxAmountKobo) {
    const message = `must be from ${Number(category.minAmountKobo) / 100} to ${Number(category.maxAmountKobo) / 100}`;
    throw new AppError('INVALID_AMOUNT', `amount ${message} for ${category.name}.`, {
      details: [{ field: 'amount', message }],
    });
  }
}

function invalid(field: string, message: string): AppError {
  return new AppError('VALIDATION_ERROR', `${field} ${message}.`, {
    details: [{ field, message }],
  });
}

function billerRequest(purchase: Purchase) {
  return {
    reference: purchase.reference,
    service: purchase.service,
    categoryIdentifier: purchase.categoryIdentifier,
    amountKobo: purchase.amountKobo,
    beneficiary: purchase.beneficiary,
    ...(purchase.bundleCode === null ? {} : { bundleCode: purchase.bundleCode }),
    ...(purchase.vendType === null ? {} : { vendType: purchase.vendType }),
  };
}

const SERVICE_NARRATION: Readonly<Record<VasService, string>> = {
  AIRTIME: 'Airtime',
  DATA: 'Data',
  CABLETV: 'Cable TV',
  UTILITY: 'Electricity',
};

/**
 * The held price, posted: the customer's statement shows the purchase, then the commission
 * credited back to them.
 */
function purchaseJournal(purchase: Purchase, id: string, now: Date) {
  const narration = `${SERVICE_NARRATION[purchase.service]} ${purchase.categoryIdentifier} ${purchase.beneficiary} ${purchase.reference}`;
  const commission =
    purchase.commissionKobo === 0n
      ? []
      : [
          { accountId: GL_ACCOUNTS.vasCommissionReceivable, amountKobo: -purchase.commissionKobo },
          {
            accountId: purchase.accountId,
            amountKobo: purchase.commissionKobo,
            narration: `Commission on ${purchase.reference}`,
          },
        ];
  return {
    id,
    kind: 'vas_purchase' as const,
    narration,
    reference: purchase.reference,
    createdAt: now,
    releaseHoldId: purchase.holdId,
    postings: [
      { accountId: purchase.accountId, amountKobo: -purchase.amountKobo },
      { accountId: GL_ACCOUNTS.vasBillerSettlement, amountKobo: purchase.amountKobo },
      ...commission,
    ],
  };
}

/** The `vas.transaction` event to the purchase's statusUrl, and to the client's webhook URL. */
function finalEvents(purchase: Purchase): OutboxEvent[] {
  const event = {
    clientId: purchase.clientId,
    type: 'vas.transaction' as const,
    data: purchaseTransactionView(purchase),
  };
  return purchase.statusUrl === null
    ? [event]
    : [{ ...event, callbackUrl: purchase.statusUrl }, event];
}

/** The placement or settlement call's refusal, or an item that failed, as the error to answer. */

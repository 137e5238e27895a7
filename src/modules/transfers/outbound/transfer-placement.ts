import type { Principal } from '../../../auth/principal.ts';
import type { TransferConfig } from '../../../config/config.ts';
import { dailyLimitMessage, limitsFor } from '../../../config/kyc-limits.ts';
import type { Queryable } from '../../../db/db.ts';
import type { ErrorCode } from '../../../errors/error-codes.ts';
import { idempotencyClaimJson } from '../../../idempotency/idempotency.ts';
import { NO_CHARGES, tieredCharges } from '../../../ledger/charges.ts';
import { holdJson, journalJson } from '../../../ledger/ledger-service.ts';
import type { Clock } from '../../../shared/clock.ts';
import { newNipSessionId, newObjectId } from '../../../shared/ids.ts';
import type { Kobo } from '../../../shared/money.ts';
import { outboxEventsJson } from '../../../webhooks/outbox.ts';
import {
  type Account,
  findAccountsByNumber,
  requireActive,
  usableSweepDestination,
} from '../../accounts/index.ts';
import type { BeneficiaryService } from '../../beneficiaries/index.ts';
import { asCollectionPayment, type CollectionAccount, type Collections } from '../collections.ts';
import { prepareSweep, sweepDestinationNumber } from '../intra-bank/auto-sweep.ts';
import { intraBankEvents, intraBankJournal } from '../intra-bank/intra-bank-posting.ts';
import {
  findEnquiriesBySession,
  type NameEnquiry,
  usableEnquiry,
} from '../name-enquiry/name-enquiry-repository.ts';
import type { Transfer } from '../transfer.ts';
import type { PlaceItem, SweepItem } from '../transfer-batch.ts';
import { buildInwardTwin, buildOutward } from '../transfer-builder.ts';
import type { NewTransferExtras, TransferRecord } from '../transfer-repository.ts';
import { transferRowJson } from '../transfer-repository.ts';

export interface TransferRequest {
  readonly nameEnquiryReference: string;
  readonly debitAccountNumber: string;
  readonly beneficiaryBankCode: string;
  readonly beneficiaryAccountNumber: string;
  readonly amountKobo: Kobo;
  readonly saveBeneficiary: boolean;
  readonly narration?: string;
  readonly paymentReference?: string;
}

export interface PlacementDeps {
  readonly clock: Clock;
  readonly institutionCode: string;
  readonly config: TransferConfig;
  readonly beneficiaries: Pick<BeneficiaryService, 'toSave'>;
}

/**
 * A transfer request made ready for the placement call: everything built that can be built
 * before the locks (ids, rows, journal or hold, webhook payloads), and what the call must check
 * under them. `sql` is the item of kind transferPlacement (transfer-batch.ts) that
 * sql/transfer_place_one.sql applies.
 */
export interface PreparedPlacement {
  readonly sql: PlaceItem;
  /** The transfer as it is stored when the call places it (none when it is refused anyway). */
  readonly transfer: TransferRecord | undefined;
}

/**
 * What preparing placements reads: their accounts by number (with the accounts the credited ones
 * sweep to, if any has auto-sweep on), the collection accounts (virtual accounts) among the
 * intra-bank beneficiaries that are not accounts, their enquiries by session.
 */
export interface PlacementLookup {
  readonly accounts: ReadonlyMap<string, Account>;
  readonly collections: ReadonlyMap<string, CollectionAccount>;
  readonly enquiries: ReadonlyMap<string, NameEnquiry>;
}

/**
 * The reads of many placements at once, no lock taken: one query for every account they name
 * and one for every name enquiry they quote, side by side. The service batches its requests'
 * look-ups through this, as it batches their placement.
 */
export async function lookUpPlacements(
  db: Queryable,
  lookup: { institutionCode: string; collections: Collections },
  bodies: readonly TransferRequest[],
): Promise<PlacementLookup> {
  const numbers = new Set<string>();
  for (const body of bodies) {
    numbers.add(body.debitAccountNumber);
    if (body.beneficiaryBankCode === lookup.institutionCode) {
      numbers.add(body.beneficiaryAccountNumber);
    }
  }
  const [accounts, enquiries] = await Promise.all([
    findAccountsByNumber(db, [...numbers]),
    findEnquiriesBySession(db, [...new Set(bodies.map((body) => body.nameEnquiryReference))]),
  ]);
  // Only a number that is no account can be a collection account: most batches ask nothing.
  const unknown = [...numbers].filter((number) => !accounts.has(number));
  const collections: ReadonlyMap<string, CollectionAccount> =
    unknown.length === 0 ? new Map() : await lookup.collections.findByNumbers(db, unknown);
  // Credited: an intra-bank beneficiary's account, or a collection's settlement account.
  const credited = [
    ...bodies
      .filter((body) => body.beneficiaryBankCode === lookup.institutionCode)
      .map((body) => accounts.get(body.beneficiaryAccountNumber)),
    ...[...collections.values()].map((collection) => collection.settlementAccount),
  ];
  return { accounts: await withSweepDestinations(db, accounts, credited), collections, enquiries };
}

/**
 * The accounts read, with those the credited accounts sweep to: most batches credit no account
 * with auto-sweep on, and ask nothing more.
 */
async function withSweepDestinations(
  db: Queryable,
  accounts: ReadonlyMap<string, Account>,
  credited: readonly (Account | undefined)[],
): Promise<ReadonlyMap<string, Account>> {
  const wanted = new Set(credited.map(sweepDestinationNumber));
  const missing = [...wanted].filter(
    (number): number is string => number !== undefined && !accounts.has(number),
  );
  return missing.length === 0
    ? accounts
    : new Map([...accounts, ...(await findAccountsByNumber(db, missing))]);
}

/** Idempotency-Key claims of transfers live under this scope. */
const IDEMPOTENCY_SCOPE = 'transfers';

/**
 * The first step of placing a transfer, with no lock taken: from what was read
 * (lookUpPlacements), builds the placement. An account that is not the
 * caller's, or not Active, is refused here; every other refusal waits for the call, because a
 * request that repeats an earlier one (same Idempotency-Key or paymentReference) must replay it
 * whatever else is now wrong with it.
 */
export function preparePlacement(
  deps: PlacementDeps,
  request: PlacementRequest,
  found: PlacementLookup,
): PreparedPlacement {
  const parties = placementParties(deps, request, found);
  const { now, enquiry, debitAccount, intraBank, credited } = parties;
  const common = {
    clientId: request.principal.clientId,
    transferId: newObjectId(deps.clock),
    requestHash: request.requestHash,
    paymentReference: request.body.paymentReference ?? null,
    now: now.toISOString(),
    ...idempotencyClaimJson({ scope: IDEMPOTENCY_SCOPE, key: request.idempotencyKey }),
  };
  const refusal =
    enquiry === undefined
      ? { code: 'NAME_ENQUIRY_INVALID' }
      : firstRefusal(deps.config, { body: request.body, intraBank, debitAccount, credited });
  if (refusal !== undefined || enquiry === undefined) {
    return {
      sql: { ...common, ...(refusal === undefined ? {} : { refusal }) },
      transfer: undefined,
    };
  }
  const outward = outwardOf(deps, request.body, { ...parties, enquiry, id: common.transferId });
  const extras = {
    requestHash: request.requestHash,
    holdId: intraBank ? null : newObjectId(deps.clock),
    saveBeneficiary: !intraBank && request.body.saveBeneficiary,
    // The row keeps the key it counts under, for the give-back if it fails.
    dailyLimitKey: debitAccount.dailyLimitKey,
  };
  const base = {
    ...common,
    daily: dailyLimitJson(deps.config, debitAccount, now, outward.amountKobo),
    mustBeActive: [{ accountId: debitAccount.id, code: 'ACCOUNT_NOT_ACTIVE' }],
  };
  const sql =
    intraBank && credited !== undefined
      ? intraBankItem(deps, base, {
          ...parties,
          credited,
          outward,
          extras,
          ...(request.body.saveBeneficiary ? { saved: deps.beneficiaries.toSave(enquiry) } : {}),
        })
      : nipItem(deps, base, { now, debitAccount, outward, extras });
  return { sql, transfer: { ...outward, ...extras, statusQueries: 0 } };
}

/** What a placement request carries into preparePlacement. */
interface PlacementRequest {
  readonly principal: Pick<Principal, 'clientId'>;
  readonly body: TransferRequest;
  readonly requestHash: string;
  readonly idempotencyKey?: string;
}

/** Who a request names, as read before the call. */
interface PlacementParties {
  readonly now: Date;
  readonly intraBank: boolean;
  readonly enquiry: NameEnquiry | undefined;
  readonly debitAccount: Account;
  readonly collection: CollectionAccount | undefined;
  /** The account an intra-bank transfer credits (a collection's settlement account for one). */
  readonly credited: Account | undefined;
  readonly accounts: ReadonlyMap<string, Account>;
}

/**
 * The parties of a request from what was read: the debit account (the caller's and Active, or
 * an error now), the usable name enquiry, and for an intra-bank transfer the account credited.
 */
function placementParties(
  deps: PlacementDeps,
  request: PlacementRequest,
  found: PlacementLookup,
): PlacementParties {
  const { principal, body } = request;
  const now = deps.clock.now();
  const intraBank = body.beneficiaryBankCode === deps.institutionCode;
  const { accounts } = found;
  const enquiry = usableEnquiry(found.enquiries.get(body.nameEnquiryReference), {
    clientId: principal.clientId,
    bankCode: body.beneficiaryBankCode,
    accountNumber: body.beneficiaryAccountNumber,
    now,
  });
  const debitAccount = requireActive(accounts.get(body.debitAccountNumber), principal);
  const collection = intraBank ? found.collections.get(body.beneficiaryAccountNumber) : undefined;
  // A collection account is paid into its settlement account (checked like any beneficiary).
  const credited = intraBank
    ? (accounts.get(body.beneficiaryAccountNumber) ?? collection?.settlementAccount)
    : undefined;
  return { now, intraBank, enquiry, debitAccount, collection, credited, accounts };
}

/** The Outwards transfer a request makes, to the beneficiary its name enquiry found. */
function outwardOf(
  deps: PlacementDeps,
  body: TransferRequest,
  parties: PlacementParties & { readonly enquiry: NameEnquiry; readonly id: string },
) {
  const { enquiry, intraBank } = parties;
  const sessionId = newNipSessionId(deps.institutionCode, deps.clock);
  return buildOutward(
    {
      id: parties.id,
      sessionId,
      paymentReference: body.paymentReference ?? sessionId,
      nameEnquiryReference: enquiry.sessionId,
      debitAccount: parties.debitAccount,
      counterparty: {
        bankCode: enquiry.bankCode,
        accountNumber: enquiry.accountNumber,
        accountName: enquiry.accountName,
        kycLevel: enquiry.kycLevel,
      },
      amountKobo: body.amountKobo,
      charges: intraBank
        ? NO_CHARGES
        : tieredCharges(body.amountKobo, deps.config.nipFeeTiers, deps.config.vatBasisPoints),
      narration: body.narration ?? `Transfer to ${enquiry.accountName}`,
      intraBank,
      institutionCode: deps.institutionCode,
    },
    deps.clock,
  );
}

/** What every placement item carries, whatever the rail. */
type BaseItem = Pick<
  PlaceItem,
  | 'clientId'
  | 'transferId'
  | 'requestHash'
  | 'paymentReference'
  | 'now'
  | 'idempotencyScope'
  | 'idempotencyKey'
  | 'daily'
  | 'mustBeActive'
>;

/**
 * An intra-bank placement: both rows, the journal that moves the money at once, a `transfer`
 * event per side (for a payment into a collection, the credited side's is its settlement
 * account's, and the collection's own events follow), the collection's claims, the saved
 * beneficiary and the credited account's auto-sweep.
 */
function intraBankItem(
  deps: PlacementDeps,
  base: BaseItem,
  parts: PlacementParties & {
    readonly credited: Account;
    readonly outward: Transfer;
    readonly extras: NewTransferExtras;
    readonly saved?: PlaceItem['beneficiary'];
  },
): PlaceItem {
  const { outward, credited, collection, debitAccount } = parts;
  const twin = buildInwardTwin(outward, credited, deps.clock);
  const inward = collection === undefined ? twin : asCollectionPayment(twin, collection, 0n);
  const sides = { outward, inward, debitAccount, beneficiary: credited };
  const events = intraBankEvents(sides);
  const sweep = sweepOf(deps, credited, parts.accounts);
  return {
    ...base,
    mustBeActive: [
      ...(base.mustBeActive ?? []),
      { accountId: credited.id, ...BENEFICIARY_INACTIVE },
    ],
    outward: transferRowJson(outward, parts.extras),
    inward: transferRowJson(inward),
    journal: journalJson(intraBankJournal(deps.clock, { ...sides, collection })),
    events: outboxEventsJson(deps.clock, [
      ...events,
      ...(collection === undefined ? [] : collection.paymentEvents(inward)),
    ]),
    ...(collection === undefined
      ? {}
      : { claims: collection.claims({ ...inward, receivedAt: parts.now }) }),
    // An intra-bank transfer has succeeded already; a NIP one saves it when it settles.
    ...(parts.saved === undefined ? {} : { beneficiary: parts.saved }),
    ...(sweep === undefined ? {} : { sweep }),
  };
}

/** A NIP placement: the row with its first status query scheduled, and the hold on its total. */
function nipItem(
  deps: PlacementDeps,
  base: BaseItem,
  parts: {
    readonly now: Date;
    readonly debitAccount: Account;
    readonly outward: Transfer;
    readonly extras: NewTransferExtras & { readonly holdId: string | null };
  },
): PlaceItem {
  const { now, outward, extras } = parts;
  const statusQueryInSeconds = deps.config.statusQueryScheduleSeconds[0] ?? 30;
  return {
    ...base,
    outward: transferRowJson(outward, {
      ...extras,
      nextStatusQueryAt: new Date(now.getTime() + statusQueryInSeconds * 1000),
    }),
    hold: holdJson({
      id: extras.holdId as string,
      accountId: parts.debitAccount.id,
      amountKobo: outward.amountKobo + outward.feeKobo + outward.vatKobo,
      reference: outward.sessionId,
      createdAt: now,
    }),
  };
}

/**
 * The credited account's auto-sweep (step 9 of transfer_place_one), its destination among the
 * accounts read (lookUpPlacements).
 */
function sweepOf(
  deps: PlacementDeps,
  credited: Account,
  accounts: ReadonlyMap<string, Account>,
): SweepItem | undefined {
  const number = sweepDestinationNumber(credited);
  return number === undefined
    ? undefined
    : prepareSweep(deps, credited, usableSweepDestination(credited, accounts.get(number)));
}

/** The placement call's refusal of a new request, as the AppError the API answers. */
const BENEFICIARY_INACTIVE = {
  code: 'NAME_ENQUIRY_FAILED',
  message: 'The beneficiary account cannot receive transfers.',
} as const;

/**
 * What refuses a new request with a usable name enquiry before any money moves, in the order the
 * checks have always run (docs/api.md).
 */
function firstRefusal(
  config: TransferConfig,
  found: {
    body: TransferRequest;
    intraBank: boolean;
    debitAccount: Account;
    credited: Account | undefined;
  },
): { code: ErrorCode; message?: string } | undefined {
  const { body, intraBank, debitAccount, credited } = found;
  if (intraBank && body.beneficiaryAccountNumber === debitAccount.accountNumber) {
    return { code: 'SAME_ACCOUNT' };
  }
  if (body.amountKobo > limitsFor(config, debitAccount.kycLevel).perTransferKobo) {
    return { code: 'TRANSFER_LIMIT_EXCEEDED', message: 'Amount is above the per-transfer limit.' };
  }
  if (intraBank && (credited === undefined || credited.status !== 'Active')) {
    return BENEFICIARY_INACTIVE;
  }
  return undefined;
}

/**
 * What the placement call checks the day's total against (step 7 of transfer_place_one, which
 * counts under the transfer row's daily_limit_key): the limit of the debit account's KYC level,
 * for its identity's total across all its accounts.
 */
function dailyLimitJson(config: TransferConfig, debitAccount: Account, now: Date, amount: Kobo) {
  return {
    madeAt: now.toISOString(),
    amount: amount.toString(),
    limit: limitsFor(config, debitAccount.kycLevel).dailyKobo.toString(),
    limitMessage: dailyLimitMessage(debitAccount.dailyLimitKey !== debitAccount.id),
  };
}

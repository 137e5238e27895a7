import type { Principal } from '../../auth/principal.ts';
import type { UssdConfig } from '../../config/ussd-config.ts';
import type { Db } from '../../db/db.ts';
import { AppError, recordNotFound } from '../../errors/app-error.ts';
import { type Charges, cappedShareCharges } from '../../ledger/charges.ts';
import type { Clock } from '../../shared/clock.ts';
import { newObjectId } from '../../shared/ids.ts';
import type { Kobo } from '../../shared/money.ts';
import type { DestinationPolicy } from '../../webhooks/destination-guard.ts';
import { checkDestination } from '../../webhooks/webhook-service.ts';
import { type Account, findAccountByNumber, findSettlementAccount } from '../accounts/index.ts';
import {
  findTransfersByIds,
  type InboundCreditService,
  type Transfer,
} from '../transfers/index.ts';
import type { UssdGateway, UssdPaymentNotice } from './providers/ussd-gateway.ts';
import { findUssdBank, USSD_BANKS, type UssdBank } from './ussd-banks.ts';
import { referenceAsCollection } from './ussd-collection.ts';
import type {
  NewUssdReferenceRequest,
  UssdReference,
  UssdReferenceStatus,
} from './ussd-reference.ts';
import * as repository from './ussd-repository.ts';

export interface UssdServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly institutionCode: string;
  readonly config: UssdConfig;
  readonly vatBasisPoints: bigint;
  readonly gateway: UssdGateway;
  readonly inboundCredits: Pick<InboundCreditService, 'receive'>;
  readonly callbackPolicy: DestinationPolicy;
  /** The client's webhook URL, which gets every payment event as well as the callbackUrl. */
  readonly webhookUrlOf: (clientId: string) => Promise<string | null>;
}

/** A reference with the transfer that paid it (if it is paid). */
export interface UssdReferenceWithPayment {
  readonly reference: UssdReference;
  readonly paidBy: Transfer | undefined;
}

/**
 * USSD payments: references issued through the gateway and stored here; paid when the gateway
 * reports a payment (or a status query finds one), through the inbound-credit money path, with
 * the reference accepting the payment in the same database call (ussd-collection.ts).
 */
export function createUssdService(deps: UssdServiceDeps) {
  const { db, clock } = deps;

  async function create(
    principal: Pick<Principal, 'clientId'>,
    request: NewUssdReferenceRequest,
  ): Promise<UssdReference> {
    const bank = findUssdBank(request.ussdBankCode);
    if (bank === undefined) {
      const message = 'must be the ussdBankCode of a bank in GET /ussd-payment/banks';
      throw new AppError('VALIDATION_ERROR', `ussdBankCode ${message}.`, {
        details: [{ field: 'ussdBankCode', message }],
      });
    }
    const settlement = await findSettlementAccount(
      db,
      principal.clientId,
      request.settlementAccount,
      deps.institutionCode,
    );
    if (request.callbackUrl !== null) {
      await checkDestination(request.callbackUrl, deps.callbackPolicy, 'callbackUrl');
    }
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + deps.config.referenceValidForSeconds * 1000);
    const merchantName = request.merchantName.trim();
    const issued = await deps.gateway.issueReference({
      amountKobo: request.amountKobo,
      merchantName,
      expiresAt,
    });
    if (issued.kind === 'unavailable') {
      throw new AppError('USSD_GATEWAY_UNAVAILABLE', issued.message);
    }
    const reference: UssdReference = {
      id: newObjectId(clock),
      reference: issued.reference,
      clientId: principal.clientId,
      merchantName,
      ussdBankCode: bank.ussdBankCode,
      amountKobo: request.amountKobo,
      settlementAccountId: settlement.id,
      settlementAccountNumber: settlement.accountNumber,
      callbackUrl: request.callbackUrl,
      status: 'Pending',
      expiresAt,
      payment: null,
      statusQueries: 0,
      createdAt: now,
      updatedAt: now,
    };
    if (!(await repository.insertReference(db, reference, nextQueryAt(reference, now)))) {
      // The gateway's references are unique; one we hold already means the gateway is broken.
      throw new AppError('USSD_GATEWAY_UNAVAILABLE', 'The USSD gateway issued a used reference.');
    }
    return reference;
  }

  /** The caller's reference with its payment; another client's is unknown. */
  async function get(
    principal: Pick<Principal, 'clientId'>,
    reference: string,
  ): Promise<UssdReferenceWithPayment> {
    const found = await repository.findClientReference(db, principal.clientId, reference);
    if (found === undefined) {
      throw recordNotFound();
    }
    return (await withPayments([found]))[0] as UssdReferenceWithPayment;
  }

  async function list(
    principal: Pick<Principal, 'clientId'>,
    filter: { status?: UssdReferenceStatus; from?: Date; to?: Date; page: number; limit: number },
  ) {
    const { references, total } = await repository.listReferences(db, {
      clientId: principal.clientId,
      ...(filter.status === undefined ? {} : { status: filter.status }),
      ...(filter.from === undefined ? {} : { from: filter.from }),
      ...(filter.to === undefined ? {} : { to: filter.to }),
      now: clock.now(),
      offset: filter.page * filter.limit,
      limit: filter.limit,
    });
    return { references: await withPayments(references), total };
  }

  async function withPayments(
    references: readonly UssdReference[],
  ): Promise<UssdReferenceWithPayment[]> {
    const ids = references.flatMap((reference) => reference.payment?.transferId ?? []);
    const transfers = ids.length === 0 ? [] : await findTransfersByIds(db, ids);
    const byId = new Map(transfers.map((transfer) => [transfer.id, transfer]));
    return references.map((reference) => ({
      reference,
      paidBy: reference.payment === null ? undefined : byId.get(reference.payment.transferId),
    }));
  }

  /**
   * A payment the gateway reports: credited to the reference's settlement account, less the fee,
   * if the reference accepts it (once, unexpired, the exact amount); otherwise refused with the
   * reason, and nothing moves. A notice resent under the same session id answers the first.
   */
  async function settle(notice: UssdPaymentNotice): Promise<Transfer> {
    const payerBank = findUssdBank(notice.ussdBankCode);
    if (payerBank === undefined) {
      throw new AppError('USSD_REFERENCE_CLOSED', 'The paying bank takes no USSD payments here.');
    }
    const reference = await repository.findByReference(db, notice.reference);
    if (reference === undefined) {
      throw new AppError('USSD_REFERENCE_CLOSED', 'The USSD reference does not exist.');
    }
    const settlement = await findAccountByNumber(db, reference.settlementAccountNumber);
    if (settlement === undefined || settlement.status !== 'Active') {
      throw new AppError('USSD_REFERENCE_CLOSED', 'The settlement account cannot take payments.');
    }
    const collection = referenceAsCollection(reference, settlement, {
      institutionCode: deps.institutionCode,
      now: clock.now(),
      charges: collectionCharges,
      payerBank,
      paidAt: notice.paidAt,
      webhookUrl: await deps.webhookUrlOf(reference.clientId),
    });
    return deps.inboundCredits.receive(creditOf(notice, payerBank, settlement), collection);
  }

  /**
   * One status query of an unpaid reference (the worker's job): a payment the gateway knows of
   * is settled as if its notice had arrived; otherwise the next query is scheduled, until the
   * reference is past its expiry and the grace period.
   */
  async function queryAndSettle(reference: UssdReference): Promise<void> {
    const answer = await deps.gateway.queryPayment(reference.reference);
    const now = clock.now();
    if (answer.kind === 'paid') {
      try {
        await settle(answer.notice);
        return;
      } catch (error) {
        // Refused (paid by another session, expired, wrong amount): the gateway reverses it.
        if (!(error instanceof AppError) || error.httpStatus >= 500) {
          throw error;
        }
      }
    }
    const next =
      answer.kind === 'unpaid' || answer.kind === 'unavailable'
        ? nextQueryAt({ ...reference, statusQueries: reference.statusQueries + 1 }, now)
        : null;
    await repository.scheduleNextQuery(db, { id: reference.id, next, now });
  }

  /** When to ask the gateway next about an unpaid reference; null once it is long expired. */
  function nextQueryAt(reference: UssdReference, now: Date): Date | null {
    const schedule = deps.config.statusQueryScheduleSeconds;
    const delay = schedule[Math.min(reference.statusQueries, schedule.length - 1)] ?? 60;
    const next = new Date(now.getTime() + delay * 1000);
    const last = reference.expiresAt.getTime() + deps.config.statusQueryGraceSeconds * 1000;
    return next.getTime() > last ? null : next;
  }

  /**
   * What a payment of this amount is charged: the fee, its share of the amount capped
   * (USSD_FEE_*), with VAT on it. Checkout adds it to what the customer pays when they bear it.
   */
  function collectionCharges(amountKobo: Kobo): Charges {
    return cappedShareCharges(
      amountKobo,
      { basisPoints: deps.config.feeBasisPoints, capKobo: deps.config.feeCapKobo },
      deps.vatBasisPoints,
    );
  }

  /** Operator and sandbox use: a reference by its digits, whoever owns it. */
  function findByReference(reference: string): Promise<UssdReference | undefined> {
    return repository.findByReference(db, reference);
  }

  return {
    banks: (): readonly UssdBank[] => USSD_BANKS,
    create,
    get,
    list,
    settle,
    queryAndSettle,
    findByReference,
    collectionCharges,
  };
}

export type UssdService = ReturnType<typeof createUssdService>;

/** The credit a USSD payment is: from the customer's account at their bank, over NIP. */
function creditOf(notice: UssdPaymentNotice, payerBank: UssdBank, settlement: Account) {
  return {
    sessionId: notice.sessionId,
    // No name enquiry precedes a USSD payment: the session names itself.
    nameEnquiryReference: notice.sessionId,
    amountKobo: notice.amountKobo,
    beneficiaryAccountNumber: settlement.accountNumber,
    originator: {
      accountName: notice.payer.accountName,
      accountNumber: notice.payer.accountNumber,
      bankCode: payerBank.bankCode,
      kycLevel: '1',
    },
    narration: `USSD payment ${notice.reference}`,
    receivedAt: notice.paidAt,
  };
}

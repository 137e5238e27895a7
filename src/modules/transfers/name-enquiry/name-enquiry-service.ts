import type { Principal } from '../../../auth/principal.ts';
import type { Db } from '../../../db/db.ts';
import { AppError } from '../../../errors/app-error.ts';
import type { Rail } from '../../../rails/rail.ts';
import type { Clock } from '../../../shared/clock.ts';
import { newNipSessionId } from '../../../shared/ids.ts';
import { findAccountByNumber } from '../../accounts/index.ts';
import type { Collections } from '../collections.ts';
import { insertNameEnquiry, type NameEnquiry } from './name-enquiry-repository.ts';

export interface BankLookup {
  find(bankCode: string): { name: string } | undefined;
}

export interface NameEnquiryDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly rail: Rail;
  readonly banks: BankLookup;
  readonly institutionCode: string;
  readonly ttlSeconds: number;
  /** Numbers of ours that collect for an account (virtual accounts). */
  readonly collections: Collections;
}

/**
 * The asking client's allowance for enquiries about numbers that are no account (the API's
 * enumeration guard, docs/operations.md): the service reports each miss where it happens.
 */
export interface EnquiryMisses {
  /** Refuses (429) a client that is over its misses, before anything is looked up. */
  refuseIfOver(): Promise<void>;
  /** Counts one miss: the number is no account, here or at the other bank. */
  count(): Promise<void>;
}

/** Callers that are not an API client's request (the benchmarks): nothing is counted. */
const UNCOUNTED: EnquiryMisses = { refuseIfOver: async () => {}, count: async () => {} };

/**
 * Resolves an account's name: ours from our own accounts, others through the NIP rail. The
 * answer's session id is the nameEnquiryReference a transfer must quote; it is bound to the
 * asking client and this account, and expires.
 */
export function createNameEnquiryService(deps: NameEnquiryDeps) {
  async function enquire(
    principal: Pick<Principal, 'clientId'>,
    request: { bankCode: string; accountNumber: string },
    misses: EnquiryMisses = UNCOUNTED,
  ): Promise<NameEnquiry & { bankName: string }> {
    await misses.refuseIfOver();
    const bank = deps.banks.find(request.bankCode);
    if (bank === undefined) {
      throw new AppError('UNKNOWN_BANK');
    }
    const sessionId = newNipSessionId(deps.institutionCode, deps.clock);
    const found =
      request.bankCode === deps.institutionCode
        ? await lookUpOwnAccount(request.accountNumber, misses)
        : await lookUpOtherBank(sessionId, request, misses);
    const now = deps.clock.now();
    const enquiry: NameEnquiry = {
      sessionId,
      clientId: principal.clientId,
      bankCode: request.bankCode,
      accountNumber: request.accountNumber,
      ...found,
      createdAt: now,
      expiresAt: new Date(now.getTime() + deps.ttlSeconds * 1000),
    };
    await insertNameEnquiry(deps.db, enquiry);
    return { ...enquiry, bankName: bank.name };
  }

  /** One of our accounts, or a collection account that takes payments now (by its name). */
  async function lookUpOwnAccount(accountNumber: string, misses: EnquiryMisses) {
    const account = await findAccountByNumber(deps.db, accountNumber);
    if (account !== undefined && account.status !== 'Closed') {
      return {
        accountName: account.accountName,
        kycLevel: account.kycLevel,
        bankVerificationNumber: null,
      };
    }
    const collection =
      account === undefined
        ? (await deps.collections.findByNumbers(deps.db, [accountNumber])).get(accountNumber)
        : undefined;
    if (collection === undefined || !collection.payable) {
      await misses.count();
      throw new AppError('NAME_ENQUIRY_FAILED', 'Invalid account');
    }
    return {
      accountName: collection.accountName,
      kycLevel: collection.settlementAccount.kycLevel,
      bankVerificationNumber: null,
    };
  }

  async function lookUpOtherBank(
    sessionId: string,
    request: { bankCode: string; accountNumber: string },
    misses: EnquiryMisses,
  ) {
    const outcome = await deps.rail.nameEnquiry({ sessionId, ...request });
    if (outcome.kind === 'rejected') {
      await misses.count();
      throw new AppError('NAME_ENQUIRY_FAILED', outcome.responseMessage);
    }
    if (outcome.kind === 'unavailable') {
      throw new AppError('RAIL_UNAVAILABLE', outcome.responseMessage);
    }
    return {
      accountName: outcome.accountName,
      kycLevel: outcome.kycLevel,
      bankVerificationNumber: outcome.bankVerificationNumber,
    };
  }

  return { enquire };
}

export type NameEnquiryService = ReturnType<typeof createNameEnquiryService>;

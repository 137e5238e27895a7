import type { Principal } from '../../auth/principal.ts';
import type { VirtualAccountConfig } from '../../config/virtual-account-config.ts';
import type { Db, Queryable } from '../../db/db.ts';
import { AppError, recordNotFound } from '../../errors/app-error.ts';
import type { Clock } from '../../shared/clock.ts';
import { isObjectId, newObjectId } from '../../shared/ids.ts';
import type { Kobo } from '../../shared/money.ts';
import type { DestinationPolicy } from '../../webhooks/destination-guard.ts';
import { checkDestination } from '../../webhooks/webhook-service.ts';
import { findSettlementAccount, newAccountNumber } from '../accounts/index.ts';
import { clientNames } from '../clients/index.ts';
import { findTransfersByIds, type Transfer } from '../transfers/index.ts';
import type {
  NewVirtualAccountRequest,
  VirtualAccount,
  VirtualAccountStatus,
  VirtualAccountWithPayments,
} from './virtual-account.ts';
import { collectionCharges } from './virtual-account-collections.ts';
import * as repository from './virtual-account-repository.ts';

export interface VirtualAccountServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly institutionCode: string;
  readonly config: VirtualAccountConfig;
  /** VAT on the collection fee (collectionCharges). */
  readonly vatBasisPoints: bigint;
  readonly callbackPolicy: DestinationPolicy;
  /** The client's webhook URL, where payments go when the account names no callbackUrl. */
  readonly webhookUrlOf: (clientId: string) => Promise<string | null>;
}

/** A payment into a virtual account, with the account it paid. */
export interface VirtualAccountPayment {
  readonly transfer: Transfer;
  readonly account: VirtualAccount;
}

/**
 * Virtual accounts: created, read, re-pointed and deleted here; paid through the transfers
 * module (virtual-account-collections.ts). `externalReference` is the client's key: the same
 * body replays the account it created, another body is 409, enforced by a unique index.
 */
export function createVirtualAccountService(deps: VirtualAccountServiceDeps) {
  /**
   * `quiet`: no callbackUrl needed even without a webhook URL (an account checkout makes for a
   * session: checkout tells the merchant, the account's own event is extra).
   */
  async function create(
    principal: Pick<Principal, 'clientId'>,
    request: NewVirtualAccountRequest,
    requestHash: string,
    options: { quiet?: boolean } = {},
  ): Promise<VirtualAccount> {
    const earlier = await replayOrRefuse(principal, request.externalReference, requestHash);
    if (earlier !== undefined) {
      return earlier;
    }
    checkValidFor(request.validForSeconds);
    const settlement = await findSettlementAccount(
      deps.db,
      principal.clientId,
      request.settlementAccount,
      deps.institutionCode,
    );
    const callbackUrl =
      options.quiet === true && request.callbackUrl === undefined
        ? null
        : await callbackUrlFor(principal, request.callbackUrl);
    // Upper case, as every account of the client is named.
    const clientName = (
      (await clientNames.nameOf(deps.db, principal.clientId)) ?? ''
    ).toUpperCase();
    const now = deps.clock.now();
    const candidate = {
      id: newObjectId(deps.clock),
      clientId: principal.clientId,
      accountName:
        request.accountName === undefined
          ? clientName
          : `${clientName} / ${request.accountName.trim()}`,
      settlementAccountId: settlement.id,
      settlementAccountNumber: settlement.accountNumber,
      amountControl: request.amountControl,
      amountKobo: request.amountKobo,
      validForSeconds: request.validForSeconds,
      expiresAt: new Date(now.getTime() + request.validForSeconds * 1000),
      callbackUrl,
      externalReference: request.externalReference ?? null,
      requestHash,
      status: 'Active' as const,
      paidKobo: 0n,
      createdAt: now,
      updatedAt: now,
    };
    const inserted = await deps.db.transaction(async (tx) => {
      const account = {
        ...candidate,
        accountNumber: await newAccountNumber(tx, deps.institutionCode),
      };
      return (await repository.insertVirtualAccount(tx, account)) ? account : undefined;
    });
    if (inserted !== undefined) {
      return inserted;
    }
    // A concurrent request with this externalReference committed first.
    const winner = await replayOrRefuse(principal, request.externalReference, requestHash);
    if (winner === undefined) {
      throw new AppError('CONFLICT');
    }
    return winner;
  }

  /**
   * Sandbox fixtures: an Active virtual account in the caller's transaction, its number from the
   * serial. The fixtures were checked whole before (the settlement account is the client's, the
   * window is within bounds, the callback URL is allowed).
   */
  async function createFixture(tx: Queryable, fixture: FixtureVirtualAccount): Promise<string> {
    const settlement = await findSettlementAccount(
      tx,
      fixture.clientId,
      { bankCode: deps.institutionCode, accountNumber: fixture.settlementAccountNumber },
      deps.institutionCode,
    );
    const clientName = ((await clientNames.nameOf(tx, fixture.clientId)) ?? '').toUpperCase();
    const now = deps.clock.now();
    const account: VirtualAccount = {
      id: newObjectId(deps.clock),
      clientId: fixture.clientId,
      accountNumber: await newAccountNumber(tx, deps.institutionCode),
      accountName:
        fixture.accountName === undefined ? clientName : `${clientName} / ${fixture.accountName}`,
      settlementAccountId: settlement.id,
      settlementAccountNumber: settlement.accountNumber,
      amountControl: fixture.amountControl,
      amountKobo: fixture.amountKobo,
      validForSeconds: fixture.validForSeconds,
      expiresAt: new Date(now.getTime() + fixture.validForSeconds * 1000),
      callbackUrl: fixture.callbackUrl,
      externalReference: fixture.externalReference,
      requestHash: 'sandbox-fixture',
      status: 'Active',
      paidKobo: 0n,
      createdAt: now,
      updatedAt: now,
    };
    await repository.insertVirtualAccount(tx, account);
    return account.accountNumber;
  }

  /** The caller's virtual account; a deleted or another client's one is unknown. */
  async function get(principal: Pick<Principal, 'clientId'>, id: string): Promise<VirtualAccount> {
    const account = isObjectId(id)
      ? await repository.findClientVirtualAccount(deps.db, principal.clientId, id)
      : undefined;
    if (account === undefined || account.status === 'Deleted') {
      throw recordNotFound();
    }
    return account;
  }

  async function update(
    principal: Principal,
    id: string,
    changes: { callbackUrl?: string },
  ): Promise<VirtualAccount> {
    const account = await get(principal, id);
    if (changes.callbackUrl === undefined) {
      return account;
    }
    await checkDestination(changes.callbackUrl, deps.callbackPolicy, 'callbackUrl');
    await repository.updateCallbackUrl(deps.db, {
      id: account.id,
      clientId: principal.clientId,
      callbackUrl: changes.callbackUrl,
      now: deps.clock.now(),
    });
    return get(principal, id);
  }

  /** No payment is accepted afterwards; those it received stay in status, statements, history. */
  async function remove(
    principal: Pick<Principal, 'clientId'>,
    id: string,
  ): Promise<VirtualAccount> {
    const account = await get(principal, id);
    const now = deps.clock.now();
    const deleted = await repository.markDeleted(deps.db, {
      id: account.id,
      clientId: principal.clientId,
      now,
    });
    if (!deleted) {
      throw recordNotFound();
    }
    return { ...account, status: 'Deleted', updatedAt: now };
  }

  /** A payment by its session id, into any of the caller's virtual accounts (deleted ones too). */
  async function paymentStatus(
    principal: Pick<Principal, 'clientId'>,
    sessionId: string,
  ): Promise<VirtualAccountPayment> {
    const payment = await repository.findPaymentBySession(deps.db, principal.clientId, sessionId);
    if (payment === undefined) {
      throw recordNotFound();
    }
    const [transfer] = await findTransfersByIds(deps.db, [payment.transferId]);
    const account = await repository.findClientVirtualAccount(
      deps.db,
      principal.clientId,
      payment.virtualAccountId,
    );
    if (transfer === undefined || account === undefined) {
      throw recordNotFound();
    }
    return { transfer, account };
  }

  async function payments(
    principal: Pick<Principal, 'clientId'>,
    id: string,
  ): Promise<VirtualAccountPayment[]> {
    const account = await get(principal, id);
    const ids = await repository.paymentTransferIds(deps.db, account.id);
    const transfers = await findTransfersByIds(deps.db, ids);
    return transfers.map((transfer) => ({ transfer, account }));
  }

  function list(
    principal: Pick<Principal, 'clientId'>,
    filter: {
      status?: Exclude<VirtualAccountStatus, 'Deleted'>;
      externalReference?: string;
      from?: Date;
      to?: Date;
      page: number;
      limit: number;
    },
  ) {
    return repository.listVirtualAccounts(deps.db, {
      clientId: principal.clientId,
      ...(filter.status === undefined ? {} : { status: filter.status }),
      ...(filter.externalReference === undefined
        ? {}
        : { externalReference: filter.externalReference }),
      ...(filter.from === undefined ? {} : { from: filter.from }),
      ...(filter.to === undefined ? {} : { to: filter.to }),
      now: deps.clock.now(),
      offset: filter.page * filter.limit,
      limit: filter.limit,
    });
  }

  /**
   * Operator use: a page of the client's virtual accounts, newest first, deleted ones included,
   * each with the payments it received (two queries for the whole page, not two per account).
   */
  async function listWithPayments(
    owner: Pick<Principal, 'clientId'>,
    page: { page: number; limit: number },
  ): Promise<{ accounts: VirtualAccountWithPayments[]; total: number }> {
    const { accounts, total } = await repository.listVirtualAccounts(deps.db, {
      clientId: owner.clientId,
      includeDeleted: true,
      now: deps.clock.now(),
      offset: page.page * page.limit,
      limit: page.limit,
    });
    const idsByAccount =
      accounts.length === 0
        ? new Map<string, string[]>()
        : await repository.paymentTransferIdsByAccount(
            deps.db,
            accounts.map((account) => account.id),
          );
    const ids = [...idsByAccount.values()].flat();
    const transfers = ids.length === 0 ? [] : await findTransfersByIds(deps.db, ids);
    const byId = new Map(transfers.map((transfer) => [transfer.id, transfer]));
    return {
      accounts: accounts.map((account) => ({
        account,
        payments: (idsByAccount.get(account.id) ?? []).flatMap((id) => byId.get(id) ?? []),
      })),
      total,
    };
  }

  async function replayOrRefuse(
    principal: Pick<Principal, 'clientId'>,
    reference: string | undefined,
    requestHash: string,
  ): Promise<VirtualAccount | undefined> {
    if (reference === undefined) {
      return undefined;
    }
    const earlier = await repository.findByExternalReference(
      deps.db,
      principal.clientId,
      reference,
    );
    if (earlier === undefined) {
      return undefined;
    }
    if (earlier.requestHash !== requestHash) {
      throw new AppError(
        'DUPLICATE_REFERENCE',
        'This externalReference was already used for a different virtual account.',
      );
    }
    return earlier;
  }

  function checkValidFor(seconds: number): void {
    const { minValidForSeconds: min, maxValidForSeconds: max } = deps.config;
    if (!Number.isInteger(seconds) || seconds < min || seconds > max) {
      const message = `must be whole seconds from ${min} to ${max}`;
      throw new AppError('VALIDATION_ERROR', `validFor ${message}.`, {
        details: [{ field: 'validFor', message }],
      });
    }
  }

  /** The given URL (checked), or none when the client's webhook URL will receive its payments. */
  async function callbackUrlFor(principal: Pick<Principal, 'clientId'>, url: string | undefined) {
    if (url !== undefined) {
      await checkDestination(url, deps.callbackPolicy, 'callbackUrl');
      return url;
    }
    if ((await deps.webhookUrlOf(principal.clientId)) === null) {
      const message = 'is required when no webhook URL is set for your app';
      throw new AppError('VALIDATION_ERROR', `callbackUrl ${message}.`, {
        details: [{ field: 'callbackUrl', message }],
      });
    }
    return null;
  }

  /** Operator and sandbox use: a virtual account by number, whoever owns it. */
  async function findByNumber(accountNumber: string): Promise<VirtualAccount | undefined> {
    return (await repository.findByNumbers(deps.db, [accountNumber]))[0];
  }

  return {
    create,
    createFixture,
    get,
    update,
    remove,
    paymentStatus,
    payments,
    list,
    listWithPayments,
    findByNumber,
    /** What a payment of this amount is charged (the one rule the transfers module applies). */
    collectionCharges: (amountKobo: Kobo) => collectionCharges(deps, amountKobo),
  };
}

export type VirtualAccountService = ReturnType<typeof createVirtualAccountService>;

/** A sandbox fixture's virtual account (sandbox/fixtures). */
export interface FixtureVirtualAccount {
  readonly clientId: string;
  readonly settlementAccountNumber: string;
  readonly amountControl: VirtualAccount['amountControl'];
  readonly amountKobo: bigint;
  readonly validForSeconds: number;
  readonly accountName: string | undefined;
  readonly externalReference: string | null;
  readonly callbackUrl: string | null;
}

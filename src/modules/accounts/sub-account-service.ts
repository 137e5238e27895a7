import type { Principal } from '../../auth/principal.ts';
import { type Db, sqlState, UNIQUE_VIOLATION } from '../../db/db.ts';
import { AppError, recordNotFound } from '../../errors/app-error.ts';
import type { Clock } from '../../shared/clock.ts';
import { isObjectId } from '../../shared/ids.ts';
import type { DestinationPolicy } from '../../webhooks/destination-guard.ts';
import { checkDestination } from '../../webhooks/webhook-service.ts';
import { type Account, type AutoSweep, identityLimitKey } from './account.ts';
import { findSweepDestination } from './account-checks.ts';
import * as accountRepository from './account-repository.ts';
import { type AccountService, ExternalReferenceTaken } from './account-service.ts';
import type { IdentityProof } from './ports.ts';
import type {
  AutoSweepRequest,
  CreateSubAccountRequest,
  UpdateSubAccountRequest,
} from './sub-account-request.ts';

export interface SubAccountServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly accounts: AccountService;
  readonly proof: IdentityProof;
  readonly callbackPolicy: DestinationPolicy;
}

/**
 * Sub-accounts for a client's verified customers. `externalReference` is the client's key: the
 * same body replays the account it created, another body is 409, enforced by a unique index.
 */
export function createSubAccountService(deps: SubAccountServiceDeps) {
  /** `requestHash` fingerprints the body as the client sent it: the same body replays. */
  async function create(
    principal: Principal,
    body: CreateSubAccountRequest,
    requestHash: string,
  ): Promise<Account> {
    const earlier = await replayOrRefuse(principal, body.externalReference, requestHash);
    if (earlier !== undefined) {
      return earlier;
    }
    const holder =
      body.identityType === 'CAC'
        ? await deps.proof.corporate(principal, body)
        : await deps.proof.individual(principal, body);
    const metadata = body.metadata ?? {};
    const autoSweep = await autoSweepFor(principal, body, undefined);
    if (body.callbackUrl !== undefined) {
      await checkDestination(body.callbackUrl, deps.callbackPolicy, 'callbackUrl');
    }
    let accountId: string;
    try {
      accountId = await deps.db.transaction((tx) =>
        deps.accounts.openAccount(tx, {
          clientId: principal.clientId,
          accountName: holder.accountName,
          accountType: 'Current',
          isSubAccount: true,
          metadata,
          kycLevel: holder.kycLevel,
          subAccount: {
            holder: {
              type: holder.type,
              phoneNumber: body.phoneNumber,
              emailAddress: body.emailAddress,
              identityType: body.identityType,
              identityId: holder.identityId,
              directorIdentityIds: holder.directorIdentityIds,
            },
            externalReference: body.externalReference,
            requestHash,
            callbackUrl: body.callbackUrl ?? null,
            autoSweep,
            dailyLimitKey: identityLimitKey(principal.clientId, holder.identityKey),
          },
        }),
      );
    } catch (error) {
      if (error instanceof ExternalReferenceTaken) {
        // A concurrent request with this reference committed first.
        const winner = await replayOrRefuse(principal, body.externalReference, requestHash);
        if (winner !== undefined) {
          return winner;
        }
      }
      throw error;
    }
    return deps.accounts.getAccount(principal, accountId);
  }

  /** `key` is the sub-account's `_id` or its externalReference (findByIdOrReference). */
  async function update(principal: Principal, key: string, body: UpdateSubAccountRequest) {
    const account = await findByIdOrReference(principal, key);
    if (!account.isSubAccount || account.holder === null) {
      throw new AppError('VALIDATION_ERROR', 'Only sub-accounts are updated here.');
    }
    refuseIdentityChange(account, body);
    if (body.callbackUrl !== undefined && body.callbackUrl !== null) {
      await checkDestination(body.callbackUrl, deps.callbackPolicy, 'callbackUrl');
    }
    const changes = {
      clientId: principal.clientId,
      accountId: account.id,
      externalReference: body.externalReference ?? account.externalReference ?? '',
      phoneNumber: body.phoneNumber ?? account.holder.phoneNumber,
      emailAddress: body.emailAddress ?? account.holder.emailAddress,
      metadata: body.metadata ?? account.metadata,
      callbackUrl: body.callbackUrl === undefined ? account.callbackUrl : body.callbackUrl,
      autoSweep: await autoSweepFor(principal, body, account),
      now: deps.clock.now(),
    };
    try {
      await accountRepository.updateSubAccount(deps.db, changes);
    } catch (error) {
      if (sqlState(error) === UNIQUE_VIOLATION) {
        throw new AppError(
          'DUPLICATE_REFERENCE',
          'This externalReference is already used by another sub-account.',
        );
      }
      throw error;
    }
    return deps.accounts.getAccount(principal, account.id);
  }

  /**
   * The id slot of PUT /accounts/{id}/subaccount: an account `_id`, or the caller's own
   * externalReference (a published Laravel package updates by reference). An id is tried
   * first, so a reference shaped like an id still finds its sub-account when no account of the
   * caller has that id; only the caller's accounts and references are searched, so another
   * client's answers as unknown.
   */
  async function findByIdOrReference(principal: Principal, key: string): Promise<Account> {
    if (isObjectId(key)) {
      const byId = await accountRepository.findClientAccount(deps.db, principal.clientId, key);
      if (byId !== undefined) {
        return byId;
      }
    }
    const byReference = await accountRepository.findByExternalReference(
      deps.db,
      principal.clientId,
      key,
    );
    if (byReference === undefined) {
      throw recordNotFound();
    }
    return byReference.account;
  }

  async function replayOrRefuse(principal: Principal, reference: string, requestHash: string) {
    const earlier = await accountRepository.findByExternalReference(
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
        'This externalReference was already used for a different sub-account.',
      );
    }
    return earlier.account;
  }

  /** The settings after this request: given details replace the old, `autoSweep` toggles them. */
  async function autoSweepFor(
    principal: Principal,
    body: { autoSweep?: boolean; autoSweepDetails?: AutoSweepRequest },
    account: Account | undefined,
  ): Promise<AutoSweep | null> {
    const details = body.autoSweepDetails;
    const current = account?.autoSweep ?? null;
    if (details === undefined) {
      if (body.autoSweep === true && current === null) {
        throw new AppError('VALIDATION_ERROR', 'autoSweep needs autoSweepDetails.', {
          details: [{ field: 'autoSweepDetails', message: 'is required when autoSweep is true' }],
        });
      }
      return current === null ? null : { ...current, enabled: body.autoSweep ?? current.enabled };
    }
    const destination = await findSweepDestination(
      deps.db,
      { clientId: principal.clientId, ...(account === undefined ? {} : { id: account.id }) },
      details.destinationAccountNumber,
    );
    if (destination === undefined) {
      throw new AppError(
        'VALIDATION_ERROR',
        'autoSweepDetails.destinationAccountNumber must be another Active account of yours.',
      );
    }
    return {
      enabled: body.autoSweep ?? current?.enabled ?? true,
      destinationAccountNumber: destination.accountNumber,
      retainKobo: details.retainKobo,
      minimumKobo: details.minimumKobo,
    };
  }

  return { create, update };
}

export type SubAccountService = ReturnType<typeof createSubAccountService>;

/** Identity is fixed at creation: the same values are accepted (clients resend them), others not. */
function refuseIdentityChange(account: Account, body: UpdateSubAccountRequest): void {
  const holder = account.holder;
  const changed =
    (body.identityType !== undefined && body.identityType !== holder?.identityType) ||
    (body.identityId !== undefined && body.identityId !== holder?.identityId);
  if (changed) {
    throw new AppError(
      'VALIDATION_ERROR',
      "A sub-account's identity cannot change; open a new sub-account.",
    );
  }
}

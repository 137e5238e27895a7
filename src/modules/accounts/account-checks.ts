import type { Queryable } from '../../db/db.ts';
import { AppError, recordNotFound } from '../../errors/app-error.ts';
import type { Account } from './account.ts';
import { findAccountByNumber } from './account-repository.ts';

/**
 * "Is this account usable", answered once for every module. An account that is missing or, when
 * an owner is given, another client's answers "Unable to locate record" (existence never leaks);
 * one that is not Active answers ACCOUNT_NOT_ACTIVE.
 */
export async function findActiveAccount(
  db: Queryable,
  accountNumber: string,
  owner?: { readonly clientId: string },
): Promise<Account> {
  return requireActive(await findAccountByNumber(db, accountNumber), owner);
}

/** The same check on an account already read (with others, in one query). */
export function requireActive(
  account: Account | undefined,
  owner?: { readonly clientId: string },
): Account {
  if (account === undefined || (owner !== undefined && account.clientId !== owner.clientId)) {
    throw recordNotFound();
  }
  if (account.status !== 'Active') {
    throw new AppError('ACCOUNT_NOT_ACTIVE');
  }
  return account;
}

/** The caller's own Active account: the account a debit or a charge comes from. */
export function findOwnActiveAccount(
  db: Queryable,
  clientId: string,
  accountNumber: string,
): Promise<Account> {
  return findActiveAccount(db, accountNumber, { clientId });
}

/** Where a sub-account may sweep to: another Active account of the same client, or nothing. */
export async function findSweepDestination(
  db: Queryable,
  source: { readonly id?: string; readonly clientId: string },
  accountNumber: string,
): Promise<Account | undefined> {
  return usableSweepDestination(source, await findAccountByNumber(db, accountNumber));
}

/** The same rule on an account already read (with others, in one query). */
export function usableSweepDestination(
  source: { readonly id?: string; readonly clientId: string },
  destination: Account | undefined,
): Account | undefined {
  return destination !== undefined &&
    destination.clientId === source.clientId &&
    destination.status === 'Active' &&
    destination.id !== source.id
    ? destination
    : undefined;
}

/**
 * Where a collection (a virtual account, a USSD reference) settles: the caller's own Active
 * account at this bank, named as `{ bankCode, accountNumber }`, or a 400 on the field that says
 * what is expected.
 */
export async function findSettlementAccount(
  db: Queryable,
  clientId: string,
  wanted: { readonly bankCode: string; readonly accountNumber: string },
  institutionCode: string,
): Promise<Account> {
  if (wanted.bankCode !== institutionCode) {
    const message = `must be this bank's code, ${institutionCode}`;
    throw new AppError('VALIDATION_ERROR', `settlementAccount.bankCode ${message}.`, {
      details: [{ field: 'settlementAccount.bankCode', message }],
    });
  }
  const account = await findAccountByNumber(db, wanted.accountNumber);
  if (account === undefined || account.clientId !== clientId || account.status !== 'Active') {
    const message = 'must be one of your Active accounts at this bank';
    throw new AppError('VALIDATION_ERROR', `settlementAccount.accountNumber ${message}.`, {
      details: [{ field: 'settlementAccount.accountNumber', message }],
    });
  }
  return account;
}

import type { Clock } from '../../shared/clock.ts';
import {
  type Account,
  type AlsoListed,
  DEFAULT_NOTIFICATION_SETTINGS,
  findAccountsByNumber,
} from '../accounts/index.ts';
import { statusAt, type VirtualAccount } from './virtual-account.ts';
import { listVirtualAccounts } from './virtual-account-repository.ts';

/**
 * Virtual accounts as GET /accounts?isSubAccount=true lists them, after the sub-accounts (the
 * accounts module's AlsoListed port): account objects with no balance of their own (payments
 * land on the settlement account), Active while they take payments and Closed after.
 */
export function virtualAccountsAsAccounts(clock: Clock): AlsoListed {
  return {
    async page(db, clientId, window) {
      const { accounts, total } = await listVirtualAccounts(db, {
        clientId,
        now: clock.now(),
        offset: window.offset,
        limit: window.limit,
      });
      if (accounts.length === 0) {
        return { accounts: [], total };
      }
      const settlements = await findAccountsByNumber(
        db,
        accounts.map((account) => account.settlementAccountNumber),
      );
      const now = clock.now();
      return {
        accounts: accounts.map((account) =>
          asAccount(account, settlements.get(account.settlementAccountNumber)?.kycLevel, now),
        ),
        total,
      };
    },
  };
}

function asAccount(account: VirtualAccount, kycLevel: string | undefined, now: Date): Account {
  return {
    id: account.id,
    clientId: account.clientId,
    accountNumber: account.accountNumber,
    accountName: account.accountName,
    accountType: 'Current',
    currencyCode: 'NGN',
    isSubAccount: true,
    status: statusAt(account, now) === 'Active' ? 'Active' : 'Closed',
    kycLevel: kycLevel ?? '3',
    externalReference: account.externalReference,
    callbackUrl: account.callbackUrl,
    metadata: {},
    notificationSettings: DEFAULT_NOTIFICATION_SETTINGS,
    balanceKobo: 0n,
    heldKobo: 0n,
    lienKobo: 0n,
    holder: null,
    dailyLimitKey: account.id,
    autoSweep: null,
    createdAt: account.createdAt,
    updatedAt: account.updatedAt,
    virtualAccount: { expiresAt: account.expiresAt },
  };
}

import type { Static } from 'typebox';
import { koboToNaira } from '../../shared/money.ts';
import type { Account } from './account.ts';
import type { AccountSchema } from './account-schemas.ts';

export type AccountView = Static<typeof AccountSchema>;

/** Domain account to the wire: naira numbers, `_id`, ISO timestamps. */
export function accountView(account: Account, institutionCode: string): AccountView {
  return {
    _id: account.id,
    client: account.clientId,
    accountNumber: account.accountNumber,
    accountName: account.accountName,
    accountType: account.accountType,
    currencyCode: account.currencyCode,
    bankCode: institutionCode,
    accountBalance: koboToNaira(account.balanceKobo - account.heldKobo),
    bookBalance: koboToNaira(account.balanceKobo),
    // Held for transfers in flight, and owed under liens (docs/api.md, decisions).
    lockedBalance: koboToNaira(account.heldKobo + account.lienKobo),
    status: account.status,
    isSubAccount: account.isSubAccount,
    kycLevel: account.kycLevel,
    externalReference: account.externalReference,
    callbackUrl: account.callbackUrl,
    metadata: account.metadata,
    notificationSettings: account.notificationSettings,
    accountHolderType: account.holder?.type ?? null,
    phoneNumber: account.holder?.phoneNumber ?? null,
    emailAddress: account.holder?.emailAddress ?? null,
    identityType: account.holder?.identityType ?? null,
    identityId: account.holder?.identityId ?? null,
    autoSweep: account.autoSweep?.enabled ?? false,
    autoSweepDetails:
      account.autoSweep === null
        ? null
        : {
            destinationAccountNumber: account.autoSweep.destinationAccountNumber,
            retainAmount: koboToNaira(account.autoSweep.retainKobo),
            minimumAmount: koboToNaira(account.autoSweep.minimumKobo),
          },
    isVirtualAccount: account.virtualAccount !== undefined,
    ...(account.virtualAccount === undefined
      ? {}
      : { expiryDate: account.virtualAccount.expiresAt.toISOString() }),
    createdAt: account.createdAt.toISOString(),
    updatedAt: account.updatedAt.toISOString(),
  };
}

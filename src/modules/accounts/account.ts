import type { Kobo } from '../../shared/money.ts';

export type AccountType = 'Current' | 'Savings';
export type AccountStatus = 'Active' | 'Frozen' | 'Closed';

export interface NotificationSettings {
  smsNotification: boolean;
  emailNotification: boolean;
  smsMonthlyStatement: boolean;
  emailMonthlyStatement: boolean;
}

export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = Object.freeze({
  smsNotification: false,
  emailNotification: true,
  smsMonthlyStatement: false,
  emailMonthlyStatement: true,
});

export interface Account {
  readonly id: string;
  readonly clientId: string;
  readonly accountNumber: string;
  readonly accountName: string;
  readonly accountType: AccountType;
  readonly currencyCode: string;
  readonly isSubAccount: boolean;
  readonly status: AccountStatus;
  readonly kycLevel: string;
  readonly externalReference: string | null;
  readonly callbackUrl: string | null;
  readonly metadata: Record<string, unknown>;
  readonly notificationSettings: NotificationSettings;
  readonly balanceKobo: Kobo;
  readonly heldKobo: Kobo;
  /** What the account owes under active liens (docs/ledger.md, "Liens"). */
  readonly lienKobo: Kobo;
  /** Sub-accounts only: whose account it is and how it was verified. */
  readonly holder: SubAccountHolder | null;
  /**
   * What the daily transfer limit counts under: for a sub-account, the verified identity it was
   * opened with, shared by every account of the client opened on that identity (one person,
   * one limit, however many sub-accounts); for any other account, the account itself (its id).
   */
  readonly dailyLimitKey: string;
  readonly autoSweep: AutoSweep | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /** Set on a virtual account listed among sub-accounts (AlsoListed): it lives until then. */
  readonly virtualAccount?: { readonly expiresAt: Date };
}

/**
 * The daily limit key of a client's accounts opened on one verified identity (a person, or a
 * company: a legal person). `identityKey` names the identity without its number (ProvenHolder).
 */
export function identityLimitKey(clientId: string, identityKey: string): string {
  return `person:${clientId}:${identityKey}`;
}

export interface SubAccountHolder {
  readonly type: 'Individual' | 'Corporate';
  readonly phoneNumber: string;
  readonly emailAddress: string;
  readonly identityType: string;
  readonly identityId: string;
  readonly directorIdentityIds: readonly string[];
}

/**
 * Moves what a sub-account holds above `retainKobo` to another account of the same client after
 * each credit, when at least `minimumKobo` would move.
 */
export interface AutoSweep {
  readonly enabled: boolean;
  readonly destinationAccountNumber: string;
  readonly retainKobo: Kobo;
  readonly minimumKobo: Kobo;
}

import type { Principal } from '../../auth/principal.ts';
import type { Queryable } from '../../db/db.ts';
import type { Account } from './account.ts';

/**
 * What the accounts module needs from others, as interfaces it owns: the composition root
 * (src/services.ts) plugs in the identity and clients modules, so neither is imported here and
 * the dependencies run one way (identity -> accounts, clients -> accounts).
 */

/**
 * Accounts of another kind listed after a client's sub-accounts (GET /accounts?isSubAccount=true
 * lists sub-accounts and virtual accounts): a page of them, as accounts, and how many there are.
 */
export interface AlsoListed {
  page(
    db: Queryable,
    clientId: string,
    window: { offset: number; limit: number },
  ): Promise<{ accounts: Account[]; total: number }>;
}

/** Who a sub-account belongs to, as the caller's verifications prove it. */
export interface ProvenHolder {
  readonly type: 'Individual' | 'Corporate';
  readonly accountName: string;
  readonly kycLevel: string;
  readonly identityId: string;
  /**
   * The verified identity (person or company) with no number in it: the same for every check of
   * it, so the limits of its KYC level are counted per identity (docs/api.md, "Transfer limits").
   */
  readonly identityKey: string;
  readonly directorIdentityIds: readonly string[];
}

/** The identity fields of a sub-account request. */
export interface IdentityClaim {
  readonly identityType: string;
  readonly identityNumber?: string;
  readonly identityId?: string;
  readonly otp?: string;
  readonly companyName?: string;
  readonly directorIdentityIds?: readonly string[];
}

export interface IdentityProof {
  individual(principal: Principal, claim: IdentityClaim): Promise<ProvenHolder>;
  corporate(principal: Principal, claim: IdentityClaim): Promise<ProvenHolder>;
}

/** A client's registered name, which names its own accounts ("NAME / suffix"). */
export interface ClientNames {
  nameOf(tx: Queryable, clientId: string): Promise<string | undefined>;
}

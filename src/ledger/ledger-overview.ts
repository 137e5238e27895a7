import type { Db } from '../db/db.ts';
import { type LedgerViolations, verifyLedger } from './ledger-audit.ts';
import { balanceTotals, type GlAccountBalance, listInternalAccounts } from './ledger-repository.ts';

export interface LedgerOverview {
  /** The internal (GL) accounts, by id. */
  readonly glAccounts: GlAccountBalance[];
  /** verifyLedger: each invariant's count of violations; all zero on a sound ledger. */
  readonly audit: LedgerViolations;
  readonly totals: {
    readonly customerKobo: bigint;
    readonly internalKobo: bigint;
    /** Every account's balance summed: zero, as every journal sums to zero. */
    readonly allKobo: bigint;
    readonly heldKobo: bigint;
    readonly accounts: number;
  };
}

/**
 * The operator's view of the whole ledger: the GL balances, the totals, and the invariant audit.
 * The audit reads every entry (ledger-audit.ts): seconds per million entries on PostgreSQL.
 */
export function createLedgerOverview(deps: { readonly db: Db }) {
  async function overview(): Promise<LedgerOverview> {
    const [glAccounts, totals] = await Promise.all([
      listInternalAccounts(deps.db),
      balanceTotals(deps.db),
    ]);
    const audit = await verifyLedger(deps.db);
    return {
      glAccounts,
      audit,
      totals: { ...totals, allKobo: totals.customerKobo + totals.internalKobo },
    };
  }
  return { overview };
}

export type LedgerOverviewService = ReturnType<typeof createLedgerOverview>;

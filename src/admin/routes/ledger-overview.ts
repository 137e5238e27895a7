import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import type { LedgerOverview, LedgerOverviewService } from '../../ledger/ledger-overview.ts';
import { koboToNaira } from '../../shared/money.ts';
import { adminContract } from '../contract/index.ts';

export interface LedgerOverviewRouteOptions {
  readonly ledgerOverview: Pick<LedgerOverviewService, 'overview'>;
}

/**
 * GET /admin/ledger: the GL accounts with their balances, the totals (every balance sums to
 * zero) and the ledger's invariant audit. The audit reads every entry: seconds per million.
 */
export const ledgerOverviewRoute: FastifyPluginAsyncTypebox<LedgerOverviewRouteOptions> = async (
  app,
  { ledgerOverview },
) => {
  app.get(
    '/admin/ledger',
    {
      schema: {
        tags: ['Admin'],
        summary: 'The GL accounts and their balances, the totals and the invariant audit',
        response: {
          200: adminContract['GET /admin/ledger'].answer,
          401: ErrorSchema,
        },
      },
    },
    async () =>
      ok('Ledger fetched successfully.', ledgerOverviewView(await ledgerOverview.overview())),
  );
};

function ledgerOverviewView(overview: LedgerOverview) {
  const { totals, audit } = overview;
  return {
    glAccounts: overview.glAccounts.map((account) => ({
      _id: account.id,
      name: account.name,
      balance: koboToNaira(account.balanceKobo),
      lockedBalance: koboToNaira(account.heldKobo),
      allowNegative: account.allowNegative,
      entryCount: Number(account.entryCount),
      lastEntryAt: account.lastEntryAt?.toISOString() ?? null,
    })),
    totals: {
      customerBalances: koboToNaira(totals.customerKobo),
      glBalances: koboToNaira(totals.internalKobo),
      allBalances: koboToNaira(totals.allKobo),
      lockedBalances: koboToNaira(totals.heldKobo),
      ledgerAccounts: totals.accounts,
    },
    ok: totals.allKobo === 0n && Object.values(audit).every((count) => count === 0),
    violations: audit,
  };
}

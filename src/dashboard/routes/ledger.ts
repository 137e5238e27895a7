import { badge, details, naira, recordsTable } from '../components.ts';
import { html } from '../html.ts';
import type { DashboardPage } from '../route-kit.ts';
import { DASHBOARD_PATH } from '../session.ts';

/** The bank's own GL accounts and the result of the ledger's invariant audit. */
export const ledgerRoutes: DashboardPage = async (app, { tools }) => {
  app.get(`${DASHBOARD_PATH}/ledger`, { schema: { hide: true } }, async (request, reply) => {
    const { admin, render, failed } = tools(request, reply);
    const ledger = await admin.get('/admin/ledger');
    if (!ledger.ok) {
      return failed(ledger, 'Ledger');
    }
    const { ok, violations, glAccounts, totals } = ledger.data;
    return render(
      { title: 'Ledger', current: '/ledger' },
      html`<section aria-labelledby="audit" class="card"><h2 id="audit">Invariant audit ${badge(ok ? 'ok' : 'failed')}</h2>
<p>Each count is of violations and must be zero: journals that do not balance, account counters or balances that differ from their entries, running balances that do not add up, overdrawn accounts that may not go negative.</p>
${recordsTable('Invariant audit', [violations], '')}</section>
<section aria-labelledby="totals" class="card"><h2 id="totals">Totals</h2>
<p>Every journal sums to zero, so the customers' and the bank's balances together are ₦0.00.</p>
${details([
  ['Customer balances', naira(totals.customerBalances)],
  ['GL balances', naira(totals.glBalances)],
  ['All balances', naira(totals.allBalances)],
  ['Held for transfers in flight', naira(totals.lockedBalances)],
  ['Ledger accounts', String(totals.ledgerAccounts)],
])}</section>
<section aria-labelledby="gl"><h2 id="gl">GL accounts</h2>
${recordsTable('GL accounts', glAccounts, 'No GL account.')}</section>`,
    );
  });
};

import type { AdminAnswer } from '../admin-call.ts';
import { auditTable } from '../audit-table.ts';
import { badge, table, when } from '../components.ts';
import { type Html, html } from '../html.ts';
import { clientPath, type DashboardPage } from '../route-kit.ts';
import { DASHBOARD_PATH } from '../session.ts';

/** The first page: the newest clients, the ledger's health, the latest operator actions. */
export const overviewRoutes: DashboardPage = async (app, { tools }) => {
  app.get(DASHBOARD_PATH, { schema: { hide: true } }, async (request, reply) => {
    const { admin, render, sandbox } = tools(request, reply);
    const [clients, ledger, audit] = await Promise.all([
      admin.get('/admin/clients', { query: { page: 0, limit: 10 } }),
      // The audit reads every entry: on the front page only in the sandbox, where the ledger is
      // small; in production it runs when the ledger page is opened.
      sandbox ? admin.get('/admin/ledger') : undefined,
      admin.get('/admin/audit-events', { query: { page: 0, limit: 10 } }),
    ]);
    return render(
      { title: 'Overview', current: '' },
      html`<section aria-labelledby="ledger-health" class="card">
<h2 id="ledger-health">Ledger</h2>
<p>${ledgerVerdict(ledger)} <a href="${DASHBOARD_PATH}/ledger">Ledger details</a></p>
</section>
<section aria-labelledby="newest-clients">
<h2 id="newest-clients">Newest clients</h2>
${table({
  caption: 'Newest clients',
  columns: [
    {
      label: 'Name',
      cell: (client) => html`<a href="${clientPath(client._id)}">${client.name}</a>`,
    },
    { label: 'Client id', cell: (client) => html`<code>${client._id}</code>` },
    { label: 'Created', cell: (client) => when(client.createdAt) },
  ],
  rows: clients.ok ? clients.data : [],
  empty: clients.ok ? 'No client yet.' : clients.message,
})}
<p><a href="${DASHBOARD_PATH}/clients">All clients, and onboarding</a></p>
</section>
<section aria-labelledby="latest-actions">
<h2 id="latest-actions">Latest operator actions and security events</h2>
${auditTable(audit.ok ? audit.data : [], audit.ok ? 'Nothing recorded yet.' : audit.message)}
</section>`,
    );
  });
};

function ledgerVerdict(ledger: AdminAnswer<'GET /admin/ledger'> | undefined): Html {
  if (ledger === undefined) {
    return html`The invariant audit reads every entry: it runs when you open the ledger page.`;
  }
  if (!ledger.ok) {
    return html`${ledger.message}`;
  }
  return ledger.data.ok
    ? html`${badge('ok')} Every invariant holds: journals balance, balances equal the sum of entries, nothing is overdrawn.`
    : html`${badge('failed')} An invariant is broken: see the ledger page.`;
}

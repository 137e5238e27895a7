import type { AdminApi, AdminData, AdminFailure } from '../admin-call.ts';
import {
  actionButton,
  badge,
  csrfField,
  field,
  naira,
  pager,
  select,
  table,
} from '../components.ts';
import { DASHBOARD_ACTIONS, isActionOf } from '../dashboard-actions.ts';
import { type Html, html } from '../html.ts';
import { noticeOf } from '../page-tools.ts';
import {
  clientPath,
  clientRoute,
  type DashboardPage,
  formFields,
  listQuery,
  loadClient,
  nairaField,
  PAGE_SIZE,
} from '../route-kit.ts';

type Params = { id: string; accountNumber: string; action: string };
type Accounts = AdminData<'GET /admin/clients/:id/accounts'>;

/** Freeze and unfreeze: the status actions of the dashboard's action table. */
const STATUS_ROUTES =
  DASHBOARD_ACTIONS['POST /dashboard/clients/:id/accounts/:accountNumber/:action'];

/**
 * A client's accounts and sub-accounts with balances (each number opens the account's page, with
 * its liens); freeze and unfreeze; in the sandbox, money arriving from another bank.
 */
export const accountRoutes: DashboardPage = async (app, { tools }) => {
  app.get<{ Params: Params }>(
    clientRoute('/accounts'),
    { schema: { hide: true } },
    async (request, reply) => {
      const { admin, render, failed, csrf, sandbox } = tools(request, reply);
      const id = request.params.id;
      const query = listQuery(request.query, ['page']);
      const [client, accounts] = await Promise.all([
        loadClient(admin, id),
        admin.get('/admin/clients/:id/accounts', {
          params: { id },
          query: { page: query.page ?? '0', limit: PAGE_SIZE },
        }),
      ]);
      if (!client.ok) {
        return failed(client, 'Accounts');
      }
      const base = clientPath(id);
      const rows = accounts.ok ? accounts.data : [];
      return render(
        { title: 'Accounts', client: { id, name: client.data.name }, current: '/accounts' },
        html`${accountsTable(rows, base, csrf, accounts.ok ? 'No account.' : accounts.message)}
${pager(`${base}/accounts`, query, accounts.ok ? accounts.pagination : undefined)}
${sandbox && rows.length > 0 ? creditForm(rows, base, csrf) : ''}`,
      );
    },
  );
  await app.register(accountActions, { tools });
};

/** Freeze, unfreeze, and (sandbox) a credit from another bank. */
const accountActions: DashboardPage = async (app, { tools }) => {
  app.post<{ Params: Params }>(
    clientRoute('/accounts/:accountNumber/:action'),
    { schema: { hide: true } },
    async (request, reply) => {
      const { admin, redirect } = tools(request, reply);
      const { id, accountNumber, action } = request.params;
      if (!isActionOf(STATUS_ROUTES, action)) {
        return reply.callNotFound();
      }
      // Only an account this client's page lists: the admin route itself takes any number.
      const owned = await ownsAccount(admin, id, accountNumber);
      if (owned !== true) {
        // A refused read (an operator without a role) says so, rather than "not this client's".
        return redirect(
          clientPath(id, '/accounts'),
          owned === false
            ? { kind: 'error', text: 'That account is not one of this client.' }
            : noticeOf(owned, ''),
        );
      }
      const answer = await admin.post(`/admin/accounts/:accountNumber/${action}`, {
        params: { accountNumber },
      });
      return redirect(
        clientPath(id, '/accounts'),
        noticeOf(
          answer,
          `Account ${accountNumber} ${action === 'freeze' ? 'frozen: it takes no debit and no credit' : 'unfrozen'}.`,
        ),
      );
    },
  );

  app.post<{ Params: Params }>(
    clientRoute('/accounts/credit'),
    { schema: { hide: true } },
    async (request, reply) => {
      const { admin, redirect } = tools(request, reply);
      const id = request.params.id;
      const form = formFields(request.body);
      const amount = nairaField(form.amount);
      if (Number.isNaN(amount)) {
        return redirect(clientPath(id, '/accounts'), {
          kind: 'error',
          text: 'The amount must be naira, with at most two decimals.',
        });
      }
      const narration = form.narration === '' ? undefined : form.narration;
      const answer = await admin.post('/admin/sandbox/credits', {
        body: { accountNumber: form.accountNumber ?? '', amount, narration },
      });
      return redirect(
        clientPath(id, '/accounts'),
        noticeOf(answer, `${naira(amount)} credited to ${form.accountNumber ?? ''}.`),
      );
    },
  );
};

function accountsTable(rows: Accounts, base: string, csrf: string, empty: string): Html {
  return table({
    caption: 'Accounts and sub-accounts',
    columns: [
      {
        label: 'Number',
        cell: (account) =>
          html`<a href="${base}/accounts/${account.accountNumber}">${account.accountNumber}</a>`,
      },
      { label: 'Name', cell: (account) => account.accountName },
      {
        label: 'Kind',
        cell: (account) =>
          account.isSubAccount
            ? `Sub-account (${account.accountType})`
            : `Main (${account.accountType})`,
      },
      { label: 'KYC', cell: (account) => String(account.kycLevel ?? '') },
      { label: 'Available', numeric: true, cell: (account) => naira(account.accountBalance) },
      { label: 'Book', numeric: true, cell: (account) => naira(account.bookBalance) },
      // Held funds and what the account owes under liens (docs/api.md, decisions).
      { label: 'Locked', numeric: true, cell: (account) => naira(account.lockedBalance) },
      { label: 'Status', cell: (account) => badge(account.status) },
      {
        label: 'Statement',
        cell: (account) => html`<a href="${base}/accounts/${account._id}/statement">statement</a>`,
      },
      { label: 'Actions', cell: (account) => freezeButton(account, base, csrf) },
    ],
    rows,
    empty,
  });
}

function freezeButton(account: Accounts[number], base: string, csrf: string): Html {
  return account.status === 'Frozen'
    ? actionButton({
        action: `${base}/accounts/${account.accountNumber}/unfreeze`,
        label: 'Unfreeze',
        csrf,
      })
    : actionButton({
        action: `${base}/accounts/${account.accountNumber}/freeze`,
        label: 'Freeze',
        csrf,
        tone: 'danger',
        confirm: 'Freeze this account? It takes no debit and no credit until unfrozen.',
      });
}

/** Sandbox: money arrives from another bank into one of the listed accounts. */
function creditForm(rows: Accounts, base: string, csrf: string): Html {
  return html`<section aria-labelledby="credit" class="card sandbox">
<h2 id="credit">Sandbox: money arrives from another bank</h2>
<form method="post" action="${base}/accounts/credit" class="grid">
${csrfField(csrf)}
${select({ label: 'Account', name: 'accountNumber', choices: rows.map((account) => [account.accountNumber, `${account.accountNumber} · ${account.accountName}`] as const) })}
${field({ label: 'Amount (₦)', name: 'amount', required: true, inputmode: 'decimal', pattern: '[0-9,]+(\\.[0-9]{1,2})?' })}
${field({ label: 'Narration', name: 'narration', value: 'Sandbox credit' })}
<div class="actions"><button type="submit" class="button primary">Credit account</button></div>
</form>
</section>`;
}

/**
 * Whether the account number is one of the client's (one admin call, filtered by number), or the
 * admin API's refusal to tell.
 */
async function ownsAccount(
  admin: AdminApi,
  clientId: string,
  accountNumber: string,
): Promise<boolean | AdminFailure> {
  const found = await admin.get('/admin/clients/:id/accounts', {
    params: { id: clientId },
    query: { accountNumber },
  });
  return found.ok ? found.data.length === 1 : found;
}

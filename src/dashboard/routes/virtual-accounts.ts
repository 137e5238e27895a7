import type { AdminData } from '../admin-call.ts';
import { csrfField, field, select } from '../components.ts';
import { type Html, html } from '../html.ts';
import { noticeOf } from '../page-tools.ts';
import { registerResourceList } from '../resource-list.ts';
import {
  clientPath,
  clientRoute,
  type DashboardPage,
  formFields,
  nairaField,
} from '../route-kit.ts';

type VirtualAccount = AdminData<'GET /admin/clients/:id/virtual-accounts'>[number];

/** A client's virtual accounts; in the sandbox, a customer of another bank pays one. */
export const virtualAccountRoutes: DashboardPage = async (app, { tools }) => {
  registerResourceList(app, tools, {
    suffix: '/virtual-accounts',
    title: 'Virtual accounts',
    load: (admin, id, query) =>
      admin.get('/admin/clients/:id/virtual-accounts', { params: { id }, query }),
    fields: [
      'accountNumber',
      'accountName',
      'amount',
      'amountPaid',
      'amountControl',
      'status',
      'expiryDate',
      'externalReference',
      'createdAt',
    ],
    empty: 'No virtual account yet.',
    below: (rows, { clientId, csrf, sandbox }) =>
      sandbox ? payForm(rows, clientId, csrf) : html``,
  });

  app.post<{ Params: { id: string } }>(
    clientRoute('/virtual-accounts/pay'),
    { schema: { hide: true } },
    async (request, reply) => {
      const { admin, redirect } = tools(request, reply);
      const form = formFields(request.body);
      const amount = nairaField(form.amount);
      const back = clientPath(request.params.id, '/virtual-accounts');
      if (Number.isNaN(amount)) {
        return redirect(back, {
          kind: 'error',
          text: 'The amount must be naira, with at most two decimals.',
        });
      }
      const answer = await admin.post('/admin/sandbox/virtual-account-payments', {
        body: {
          accountNumber: form.accountNumber ?? '',
          amount,
          ...(form.scenario === undefined ? {} : { scenario: form.scenario }),
        },
      });
      return redirect(back, noticeOf(answer, `${answer.message}`));
    },
  );
};

/** Sandbox: a customer of another bank pays one of the virtual accounts still open. */
function payForm(rows: readonly VirtualAccount[], clientId: string, csrf: string): Html {
  const open = rows.filter((row) => row.status !== 'Expired' && row.status !== 'Deleted');
  if (open.length === 0) {
    return html``;
  }
  return html`<section aria-labelledby="pay-va" class="card sandbox">
<h2 id="pay-va">Sandbox: a customer pays a virtual account</h2>
<form method="post" action="${clientPath(clientId, '/virtual-accounts/pay')}" class="grid">
${csrfField(csrf)}
${select({ label: 'Virtual account', name: 'accountNumber', choices: open.map((row) => [row.accountNumber, `${row.accountNumber} · ${row.accountName}`] as const) })}
${field({ label: 'Amount (₦)', name: 'amount', required: true, inputmode: 'decimal', pattern: '[0-9,]+(\\.[0-9]{1,2})?' })}
${select({
  label: 'When',
  name: 'scenario',
  choices: [
    ['onTime', 'Before it expires'],
    ['afterExpiry', 'After it expired'],
    ['duplicateSession', 'Delivered twice (one session)'],
  ],
})}
<div class="actions"><button type="submit" class="button primary">Pay</button></div>
</form></section>`;
}

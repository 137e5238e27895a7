import { csrfField, field } from '../components.ts';
import { html } from '../html.ts';
import { noticeOf } from '../page-tools.ts';
import { registerResourceList, statusFilter } from '../resource-list.ts';
import { clientPath, clientRoute, type DashboardPage, formFields } from '../route-kit.ts';

/** A client's USSD payment references; in the sandbox, a customer dials one at their bank. */
export const ussdRoutes: DashboardPage = async (app, { tools }) => {
  registerResourceList(app, tools, {
    suffix: '/ussd',
    title: 'USSD references',
    load: (admin, id, query) =>
      admin.get('/admin/clients/:id/ussd-references', { params: { id }, query }),
    fields: [
      'reference',
      'ussdString',
      'bankName',
      'amount',
      'status',
      'expiresAt',
      'payment',
      'createdAt',
    ],
    filters: [
      statusFilter([
        ['Pending', 'Pending'],
        ['Paid', 'Paid'],
        ['Expired', 'Expired'],
      ]),
    ],
    empty: 'No USSD reference yet.',
    below: (rows, { clientId, csrf, sandbox }) =>
      sandbox && rows.some((row) => row.status === 'Pending')
        ? html`<section aria-labelledby="dial" class="card sandbox">
<h2 id="dial">Sandbox: a customer dials a reference</h2>
<form method="post" action="${clientPath(clientId, '/ussd/dial')}" class="grid">
${csrfField(csrf)}
${field({ label: 'Reference', name: 'reference', required: true, pattern: '[0-9]{10}', inputmode: 'numeric' })}
<div class="actions"><button type="submit" class="button primary">Dial and pay</button></div>
</form></section>`
        : html``,
  });

  app.post<{ Params: { id: string } }>(
    clientRoute('/ussd/dial'),
    { schema: { hide: true } },
    async (request, reply) => {
      const { admin, redirect } = tools(request, reply);
      const answer = await admin.post('/admin/sandbox/ussd-dials', {
        body: { reference: formFields(request.body).reference ?? '' },
      });
      return redirect(clientPath(request.params.id, '/ussd'), noticeOf(answer, answer.message));
    },
  );
};

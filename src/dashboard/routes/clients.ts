import { csrfField, field, pager, table, when } from '../components.ts';
import { html } from '../html.ts';
import { noticeOf } from '../page-tools.ts';
import { clientPath, type DashboardPage, formFields, listQuery, PAGE_SIZE } from '../route-kit.ts';
import { DASHBOARD_PATH } from '../session.ts';

/** Every client, and onboarding a new one (a client with its zero-balance main account). */
export const clientListRoutes: DashboardPage = async (app, { tools }) => {
  const path = `${DASHBOARD_PATH}/clients`;
  app.get(path, { schema: { hide: true } }, async (request, reply) => {
    const { admin, render, csrf } = tools(request, reply);
    const query = listQuery(request.query, ['page']);
    const clients = await admin.get('/admin/clients', {
      query: { page: query.page ?? '0', limit: PAGE_SIZE },
    });
    return render(
      { title: 'Clients', current: '/clients' },
      html`<section aria-labelledby="onboard" class="card">
<h2 id="onboard">Onboard a client</h2>
<form method="post" action="${path}" class="grid">
${csrfField(csrf)}
${field({ label: 'Name', name: 'name', required: true })}
${field({ label: 'Email address (optional)', name: 'emailAddress', type: 'email' })}
<div class="actions"><button type="submit" class="button primary">Onboard</button></div>
</form>
</section>
${table({
  caption: 'Clients',
  columns: [
    {
      label: 'Name',
      cell: (client) => html`<a href="${clientPath(client._id)}">${client.name}</a>`,
    },
    { label: 'Client id (ClientID header)', cell: (client) => html`<code>${client._id}</code>` },
    { label: 'Main account', cell: (client) => client.mainAccount.accountNumber },
    { label: 'Email', cell: (client) => client.emailAddress ?? '' },
    { label: 'Created', cell: (client) => when(client.createdAt) },
  ],
  rows: clients.ok ? clients.data : [],
  empty: clients.ok ? 'No client yet.' : clients.message,
})}
${pager(path, query, clients.ok ? clients.pagination : undefined)}`,
    );
  });

  app.post(path, { schema: { hide: true } }, async (request, reply) => {
    const { admin, redirect } = tools(request, reply);
    const form = formFields(request.body);
    const created = await admin.post('/admin/clients', {
      body: {
        name: form.name ?? '',
        ...(form.emailAddress === undefined || form.emailAddress === ''
          ? {}
          : { emailAddress: form.emailAddress }),
      },
    });
    return created.ok
      ? redirect(
          clientPath(created.data._id),
          noticeOf(created, `Client ${created.data.name} onboarded.`),
        )
      : redirect(path, noticeOf(created, ''));
  });
};

import { auditTable } from '../audit-table.ts';
import { field, pager } from '../components.ts';
import { html } from '../html.ts';
import { type DashboardPage, listQuery } from '../route-kit.ts';
import { DASHBOARD_PATH } from '../session.ts';

const FILTERS = ['action', 'actor', 'target'] as const;

/** The audit trail: every operator action (the dashboard's included) and security event. */
export const auditRoutes: DashboardPage = async (app, { tools }) => {
  const path = `${DASHBOARD_PATH}/audit`;
  app.get(path, { schema: { hide: true } }, async (request, reply) => {
    const { admin, render } = tools(request, reply);
    const query = listQuery(request.query, ['page', ...FILTERS]);
    const filter = listQuery(request.query, FILTERS);
    const events = await admin.get('/admin/audit-events', {
      query: { ...filter, page: query.page ?? '0', limit: '50' },
    });
    return render(
      { title: 'Audit trail', current: '/audit' },
      html`<form method="get" action="${path}" class="grid filters" aria-label="Filter the audit trail">
${field({ label: 'Action or area', name: 'action', value: filter.action ?? '', placeholder: 'admin, token, dashboard' })}
${field({ label: 'Who', name: 'actor', value: filter.actor ?? '', placeholder: 'operator:alice' })}
${field({ label: 'Target', name: 'target', value: filter.target ?? '' })}
<div class="actions"><button type="submit" class="button">Filter</button></div></form>
${auditTable(events.ok ? events.data : [], events.ok ? 'Nothing matches.' : events.message)}
${pager(path, query, events.ok ? events.pagination : undefined)}`,
    );
  });
};

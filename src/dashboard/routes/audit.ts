import { field, pager, table, when } from '../components.ts';
import { html } from '../html.ts';
import { type DashboardPage, listQuery } from '../route-kit.ts';
import { DASHBOARD_PATH } from '../session.ts';

interface AuditRow {
  at: string;
  actor: string;
  action: string;
  target: string | null;
  outcome: string;
  sourceIp: string | null;
}

const FILTERS = ['action', 'actor', 'target'] as const;

/** The audit trail: every operator action (the dashboard's included) and security event. */
export const auditRoutes: DashboardPage = async (app, { tools }) => {
  const path = `${DASHBOARD_PATH}/audit`;
  app.get(path, { schema: { hide: true } }, async (request, reply) => {
    const { admin, render } = tools(request, reply);
    const query = listQuery(request.query, ['page', ...FILTERS]);
    const filter = listQuery(request.query, FILTERS);
    const events = await admin<AuditRow[]>(
      'GET',
      `/admin/audit-events?${new URLSearchParams({ ...filter, page: query.page ?? '0', limit: '50' })}`,
    );
    return render(
      { title: 'Audit trail', current: '/audit' },
      html`<form method="get" action="${path}" class="grid filters" aria-label="Filter the audit trail">
${field({ label: 'Action or area', name: 'action', value: filter.action ?? '', placeholder: 'admin, token, dashboard' })}
${field({ label: 'Who', name: 'actor', value: filter.actor ?? '', placeholder: 'operator:alice' })}
${field({ label: 'Target', name: 'target', value: filter.target ?? '' })}
<div class="actions"><button type="submit" class="button">Filter</button></div></form>
${table({
  caption: 'Audit events, newest first',
  columns: [
    { label: 'When', cell: (event) => when(event.at) },
    { label: 'Who', cell: (event) => event.actor },
    { label: 'What', cell: (event) => event.action },
    { label: 'Target', cell: (event) => event.target ?? '' },
    { label: 'Outcome', cell: (event) => event.outcome },
    { label: 'From', cell: (event) => event.sourceIp ?? '' },
  ],
  rows: events.ok ? events.data : [],
  empty: events.ok ? 'Nothing matches.' : events.message,
})}
${pager(path, query, events.pagination)}`,
    );
  });
};

import { APPROVAL_STATUSES } from '../../admin/contract/index.ts';
import type { AdminData } from '../admin-call.ts';
import { actionButton, badge, pager, select, table, text, when } from '../components.ts';
import { html } from '../html.ts';
import { type DashboardPage, listQuery, PAGE_SIZE } from '../route-kit.ts';
import { DASHBOARD_PATH } from '../session.ts';

type Approval = AdminData<'GET /admin/approvals'>[number];

const STATUS_CHOICES = APPROVAL_STATUSES.map((status) => [status, status] as const);

/**
 * The approvals queue (four eyes, docs/operators.md): the actions operators asked for that wait
 * for a second operator, with who asked, what, on what and when, and Approve and Reject buttons
 * (approval-decisions.ts). The admin API decides who may: not the requester, not break-glass.
 */
export const approvalQueueRoutes: DashboardPage = async (app, { tools }) => {
  const path = `${DASHBOARD_PATH}/approvals`;
  app.get(path, { schema: { hide: true } }, async (request, reply) => {
    const { admin, render, csrf } = tools(request, reply);
    const query = listQuery(request.query, ['page', 'status']);
    const status = query.status ?? 'pending';
    const listed = await admin.get('/admin/approvals', {
      query: { status, page: query.page ?? '0', limit: PAGE_SIZE },
    });
    const columns = [
      { label: 'Requested', cell: (row: Approval) => when(row.requestedAt) },
      { label: 'Action', cell: (row: Approval) => html`<code>${row.action}</code>` },
      { label: 'On', cell: (row: Approval) => Object.values(row.params).map(text).join(' / ') },
      { label: 'Details', cell: (row: Approval) => (row.body === null ? '' : text(row.body)) },
      { label: 'Requested by', cell: (row: Approval) => row.requestedBy },
      { label: 'Expires', cell: (row: Approval) => when(row.expiresAt) },
      { label: 'Status', cell: (row: Approval) => badge(row.status) },
      { label: 'Decision', cell: (row: Approval) => decisionOf(row, csrf) },
    ];
    return render(
      { title: 'Approvals', current: '/approvals' },
      html`<p>Actions under four eyes wait here until an operator other than the one who asked, holding the action's role, approves them; approved, they run at once as the approver.</p>
<form method="get" action="${path}" class="grid filters" aria-label="Filter the approvals">
${select({ label: 'Status', name: 'status', choices: STATUS_CHOICES, value: status })}
<div class="actions"><button type="submit" class="button">Show</button></div></form>
${table({
  caption: 'Approval requests',
  columns,
  rows: listed.ok ? listed.data : [],
  empty: listed.ok ? 'Nothing waits for approval.' : listed.message,
})}
${pager(path, { ...query, status }, listed.ok ? listed.pagination : undefined)}`,
    );
  });
};

/** Approve and Reject on a pending request; the decision, once taken. */
function decisionOf(row: Approval, csrf: string) {
  if (row.status !== 'pending') {
    return row.decidedBy === null ? '' : `${row.decidedBy}, ${when(row.decidedAt)}`;
  }
  const action = (decision: string) =>
    `${DASHBOARD_PATH}/approvals/${encodeURIComponent(row._id)}/${decision}`;
  return html`${actionButton({
    action: action('approve'),
    label: 'Approve',
    csrf,
    tone: 'primary',
    confirm: `Approve ${row.action}? It runs at once, as you.`,
  })} ${actionButton({ action: action('reject'), label: 'Reject', csrf, tone: 'danger' })}`;
}

import { badge, naira, table, when } from '../components.ts';
import { html } from '../html.ts';
import { registerResourceList, statusFilter } from '../resource-list.ts';
import type { DashboardPage } from '../route-kit.ts';

const party = (name: string | null, number: string | null) => `${name ?? ''} ${number ?? ''}`;

/** A client's transfers, filtered; the table refreshes itself while the page is open. */
export const transferRoutes: DashboardPage = async (app, { tools }) => {
  registerResourceList(app, tools, {
    suffix: '/transfers',
    title: 'Transfers',
    load: (admin, id, query) =>
      admin.get('/admin/clients/:id/transfers', { params: { id }, query }),
    empty: 'No transfer matches.',
    filters: [
      statusFilter(
        ['Created', 'Processing', 'Completed', 'Failed', 'Reversed'].map((s) => [s, s] as const),
      ),
      {
        kind: 'select',
        name: 'direction',
        label: 'Direction',
        choices: [
          ['', 'In and out'],
          ['Outwards', 'Outwards'],
          ['Inwards', 'Inwards'],
        ],
      },
      { kind: 'date', name: 'fromDate', label: 'From (date)' },
      { kind: 'date', name: 'toDate', label: 'To (date)' },
    ],
    table: (rows, { path }) =>
      table({
        caption: 'Transfers, newest first',
        columns: [
          { label: 'When', cell: (transfer) => when(transfer.createdAt) },
          { label: 'Direction', cell: (transfer) => transfer.type },
          {
            label: 'From',
            cell: (transfer) => party(transfer.debitAccountName, transfer.debitAccountNumber),
          },
          {
            label: 'To',
            cell: (transfer) => party(transfer.creditAccountName, transfer.creditAccountNumber),
          },
          { label: 'Amount', numeric: true, cell: (transfer) => naira(transfer.amount) },
          { label: 'Status', cell: (transfer) => badge(transfer.status) },
          { label: 'Reference', cell: (transfer) => transfer.paymentReference ?? '' },
          { label: 'Story', cell: (transfer) => html`<a href="${path}/${transfer._id}">Open</a>` },
        ],
        rows,
        empty: '',
      }),
  });
};

import { badge, field, naira, pager, select, table, when } from '../components.ts';
import { html } from '../html.ts';
import {
  clientPath,
  clientRoute,
  type DashboardPage,
  listQuery,
  loadClient,
  PAGE_SIZE,
} from '../route-kit.ts';

export interface TransferRecord {
  _id: string;
  type: string;
  sessionId: string | null;
  paymentReference: string | null;
  creditAccountName: string | null;
  creditAccountNumber: string | null;
  debitAccountName: string | null;
  debitAccountNumber: string | null;
  destinationInstitutionCode: string | null;
  narration: string | null;
  amount: number;
  fees: number;
  vat: number;
  stampDuty: number;
  responseCode: string | null;
  responseMessage: string | null;
  status: string;
  createdAt: string;
  updatedAt: string;
}

const FILTERS = ['status', 'direction', 'fromDate', 'toDate'] as const;

/** A client's transfers, filtered; the table refreshes itself while the page is open. */
export const transferRoutes: DashboardPage = async (app, { tools }) => {
  app.get<{ Params: { id: string } }>(
    clientRoute('/transfers'),
    { schema: { hide: true } },
    async (request, reply) => {
      const { admin, render, failed, fragment } = tools(request, reply);
      const id = request.params.id;
      const query = listQuery(request.query, ['page', ...FILTERS]);
      const filter = listQuery(request.query, FILTERS);
      const [client, transfers] = await Promise.all([
        fragment ? undefined : loadClient(admin, id),
        admin<TransferRecord[]>(
          'GET',
          `/admin/clients/${encodeURIComponent(id)}/transfers?${new URLSearchParams({ ...filter, page: query.page ?? '0', limit: PAGE_SIZE })}`,
        ),
      ]);
      if (client !== undefined && !client.ok) {
        return failed(client, 'Transfers');
      }
      const path = clientPath(id, '/transfers');
      const list = html`${table({
        caption: 'Transfers, newest first',
        columns: [
          { label: 'When', cell: (transfer) => when(transfer.createdAt) },
          { label: 'Direction', cell: (transfer) => transfer.type },
          {
            label: 'From',
            cell: (transfer) =>
              `${transfer.debitAccountName ?? ''} ${transfer.debitAccountNumber ?? ''}`,
          },
          {
            label: 'To',
            cell: (transfer) =>
              `${transfer.creditAccountName ?? ''} ${transfer.creditAccountNumber ?? ''}`,
          },
          { label: 'Amount', numeric: true, cell: (transfer) => naira(transfer.amount) },
          { label: 'Status', cell: (transfer) => badge(transfer.status) },
          { label: 'Reference', cell: (transfer) => transfer.paymentReference ?? '' },
          { label: 'Story', cell: (transfer) => html`<a href="${path}/${transfer._id}">Open</a>` },
        ],
        rows: transfers.ok ? transfers.data : [],
        empty: transfers.ok ? 'No transfer matches.' : transfers.message,
      })}
${pager(path, query, transfers.pagination)}`;
      if (client === undefined) {
        return render({ title: 'Transfers' }, list);
      }
      const live = `${path}?${new URLSearchParams({ ...query, fragment: '1' })}`;
      return render(
        { title: 'Transfers', client: { id, name: client.data.name }, current: '/transfers' },
        html`<form method="get" action="${path}" class="grid filters" aria-label="Filter transfers">
${select({
  label: 'Status',
  name: 'status',
  value: filter.status ?? '',
  choices: [
    ['', 'Any status'],
    ['Created', 'Created'],
    ['Processing', 'Processing'],
    ['Completed', 'Completed'],
    ['Failed', 'Failed'],
    ['Reversed', 'Reversed'],
  ],
})}
${select({
  label: 'Direction',
  name: 'direction',
  value: filter.direction ?? '',
  choices: [
    ['', 'In and out'],
    ['Outwards', 'Outwards'],
    ['Inwards', 'Inwards'],
  ],
})}
${field({ label: 'From (date)', name: 'fromDate', type: 'date', value: filter.fromDate ?? '' })}
${field({ label: 'To (date)', name: 'toDate', type: 'date', value: filter.toDate ?? '' })}
<div class="actions"><button type="submit" class="button">Filter</button></div>
</form>
<div data-live="${live}" aria-live="polite" id="transfers-live">${list}</div>`,
      );
    },
  );
};

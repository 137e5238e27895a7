import type { AdminApi } from '../admin-call.ts';
import { field, naira, pager, select, table, when } from '../components.ts';
import { html } from '../html.ts';
import {
  clientPath,
  clientRoute,
  type DashboardPage,
  listQuery,
  loadClient,
  PAGE_SIZE,
} from '../route-kit.ts';

type Params = { id: string; accountId: string };

const FILTERS = ['fromDate', 'toDate', 'type'] as const;
const CSV_PAGE = 100;
/** A CSV export reads at most this many lines (narrow the dates for more). */
const CSV_MAX_LINES = 50_000;

/** An account's statement with running balance: filters, pages, and a CSV of the same filter. */
export const statementRoutes: DashboardPage = async (app, { tools }) => {
  const statement = (
    admin: AdminApi,
    params: Params,
    query: Readonly<Record<string, string | number>>,
  ) =>
    admin.get('/admin/clients/:id/accounts/:accountId/statement', {
      params: { id: params.id, accountId: params.accountId },
      query,
    });

  app.get<{ Params: Params }>(
    clientRoute('/accounts/:accountId/statement'),
    { schema: { hide: true } },
    async (request, reply) => {
      const { admin, render, failed } = tools(request, reply);
      const { id, accountId } = request.params;
      const query = listQuery(request.query, ['page', ...FILTERS]);
      const filter = listQuery(request.query, FILTERS);
      const [client, lines] = await Promise.all([
        loadClient(admin, id),
        statement(admin, request.params, { ...filter, page: query.page ?? '0', limit: PAGE_SIZE }),
      ]);
      if (!client.ok) {
        return failed(client, 'Statement');
      }
      if (!lines.ok) {
        return failed(lines, 'Statement');
      }
      const path = clientPath(id, `/accounts/${encodeURIComponent(accountId)}/statement`);
      return render(
        { title: 'Statement', client: { id, name: client.data.name }, current: '/accounts' },
        html`<form method="get" action="${path}" class="grid filters" aria-label="Filter the statement">
${field({ label: 'From (date)', name: 'fromDate', type: 'date', value: filter.fromDate ?? '' })}
${field({ label: 'To (date)', name: 'toDate', type: 'date', value: filter.toDate ?? '' })}
${select({
  label: 'Type',
  name: 'type',
  value: filter.type ?? '',
  choices: [
    ['', 'Credits and debits'],
    ['Credit', 'Credits'],
    ['Debit', 'Debits'],
  ],
})}
<div class="actions"><button type="submit" class="button">Filter</button>
<a class="button" href="${`${path}.csv?${new URLSearchParams(filter)}`}" download>Export CSV</a></div>
</form>
${table({
  caption: 'Statement lines, newest first',
  columns: [
    { label: '#', cell: (line) => String(line.entryNumber) },
    { label: 'When', cell: (line) => when(line.createdAt) },
    { label: 'Narration', cell: (line) => line.narration },
    { label: 'Reference', cell: (line) => line.reference ?? '' },
    {
      label: 'Amount',
      numeric: true,
      cell: (line) =>
        html`<span class="${line.amount < 0 ? 'debit' : 'credit'}">${naira(line.amount)}</span>`,
    },
    { label: 'Balance after', numeric: true, cell: (line) => naira(line.balanceAfter) },
    {
      label: 'Transfer',
      cell: (line) =>
        line.transferId === null
          ? ''
          : html`<a href="${clientPath(id, `/transfers/${line.transferId}`)}">story</a>`,
    },
  ],
  rows: lines.data,
  empty: 'No line in this range.',
})}
${pager(path, query, lines.pagination)}`,
      );
    },
  );

  app.get<{ Params: Params }>(
    clientRoute('/accounts/:accountId/statement.csv'),
    { schema: { hide: true } },
    async (request, reply) => {
      const { admin, failed } = tools(request, reply);
      const { accountId } = request.params;
      const filter = listQuery(request.query, FILTERS);
      const rows = [
        [
          'entryNumber',
          'createdAt',
          'type',
          'amount',
          'balanceAfter',
          'narration',
          'reference',
          'transferId',
        ],
      ];
      for (let page = 0; rows.length - 1 < CSV_MAX_LINES; page += 1) {
        const lines = await statement(admin, request.params, { ...filter, page, limit: CSV_PAGE });
        if (!lines.ok) {
          return failed(lines, 'Statement export');
        }
        for (const line of lines.data) {
          rows.push([
            String(line.entryNumber),
            line.createdAt,
            line.type,
            line.amount.toFixed(2),
            line.balanceAfter.toFixed(2),
            line.narration,
            line.reference ?? '',
            line.transferId ?? '',
          ]);
        }
        if (lines.pagination === undefined || page + 1 >= lines.pagination.pages) {
          break;
        }
      }
      return reply
        .type('text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="statement-${accountId.replace(/[^A-Za-z0-9]/g, '')}.csv"`,
        )
        .send(`${rows.map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`);
    },
  );
};

/** RFC 4180 quoting; a cell a spreadsheet would run as a formula starts with a quote mark. */
function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) && !/^-?\d/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

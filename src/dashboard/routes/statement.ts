import type { AdminApi, AdminData, AdminFailure } from '../admin-call.ts';
import { field, naira, pager, select, table, when } from '../components.ts';
import { type Html, html } from '../html.ts';
import {
  clientPath,
  clientRoute,
  type DashboardPage,
  listQuery,
  loadClient,
  PAGE_SIZE,
} from '../route-kit.ts';

type Params = { id: string; accountId: string };
type Lines = AdminData<'GET /admin/clients/:id/accounts/:accountId/statement'>;

const FILTERS = ['fromDate', 'toDate', 'type'] as const;
const CSV_PAGE = 100;
/** A CSV export reads at most this many lines (narrow the dates for more). */
const CSV_MAX_LINES = 50_000;
const CSV_COLUMNS = [
  'entryNumber',
  'createdAt',
  'type',
  'amount',
  'balanceAfter',
  'narration',
  'reference',
  'transferId',
] as const;

/** An account's statement with running balance: filters, pages, and a CSV of the same filter. */
export const statementRoutes: DashboardPage = async (app, { tools }) => {
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
        html`${filterForm(path, filter)}
${linesTable(lines.data, id)}
${pager(path, query, lines.pagination)}`,
      );
    },
  );

  app.get<{ Params: Params }>(
    clientRoute('/accounts/:accountId/statement.csv'),
    { schema: { hide: true } },
    async (request, reply) => {
      const { admin, failed } = tools(request, reply);
      const rows = await csvRows(admin, request.params, listQuery(request.query, FILTERS));
      if (!Array.isArray(rows)) {
        return failed(rows, 'Statement export');
      }
      const name = request.params.accountId.replace(/[^A-Za-z0-9]/g, '');
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="statement-${name}.csv"`)
        .send(`${rows.map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`);
    },
  );
};

function statement(
  admin: AdminApi,
  params: Params,
  query: Readonly<Record<string, string | number>>,
) {
  return admin.get('/admin/clients/:id/accounts/:accountId/statement', {
    params: { id: params.id, accountId: params.accountId },
    query,
  });
}

function filterForm(path: string, filter: Readonly<Record<string, string>>): Html {
  return html`<form method="get" action="${path}" class="grid filters" aria-label="Filter the statement">
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
</form>`;
}

function linesTable(lines: Lines, clientId: string): Html {
  return table({
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
            : html`<a href="${clientPath(clientId, `/transfers/${line.transferId}`)}">story</a>`,
      },
    ],
    rows: lines,
    empty: 'No line in this range.',
  });
}

/** The statement's lines under the filter as CSV rows (a header first), page after page. */
async function csvRows(
  admin: AdminApi,
  params: Params,
  filter: Readonly<Record<string, string>>,
): Promise<string[][] | AdminFailure> {
  const rows: string[][] = [[...CSV_COLUMNS]];
  for (let page = 0; rows.length - 1 < CSV_MAX_LINES; page += 1) {
    const lines = await statement(admin, params, { ...filter, page, limit: CSV_PAGE });
    if (!lines.ok) {
      return lines;
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
    if (page + 1 >= lines.pagination.pages) {
      break;
    }
  }
  return rows;
}

/** RFC 4180 quoting; a cell a spreadsheet would run as a formula starts with a quote mark. */
function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) && !/^-?\d/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

import type { AdminApi, AdminData } from '../admin-call.ts';
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
/** A document holds every entry of its dates (a type filter would break its running balance). */
const DATES = ['fromDate', 'toDate'] as const;

/**
 * An account's statement with running balance: filters and pages, and its dates as a PDF or
 * CSV document, streamed from the admin API.
 */
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

  // The statement as the admin API streams it: every entry of the dates, as PDF or CSV.
  for (const format of ['pdf', 'csv'] as const) {
    app.get<{ Params: Params }>(
      clientRoute(`/accounts/:accountId/statement.${format}`),
      { schema: { hide: true } },
      async (request, reply) => {
        const { admin, failed } = tools(request, reply);
        const document = await admin.download('/admin/clients/:id/accounts/:accountId/statement', {
          params: { id: request.params.id, accountId: request.params.accountId },
          query: { ...listQuery(request.query, DATES), format },
        });
        if (!document.ok) {
          return failed(document, 'Statement download');
        }
        return reply
          .type(document.contentType)
          .header('content-disposition', document.disposition)
          .header('cache-control', 'no-store')
          .send(document.body);
      },
    );
  }
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
<a class="button" href="${`${path}.pdf?${dates(filter)}`}" download>Download PDF</a>
<a class="button" href="${`${path}.csv?${dates(filter)}`}" download>Download CSV</a></div>
</form>`;
}

/** The dates of the filter (days in Lagos for a document), as the download links carry them. */
function dates(filter: Readonly<Record<string, string>>): string {
  return new URLSearchParams(
    DATES.flatMap((name): [string, string][] => {
      const value = filter[name];
      return value === undefined ? [] : [[name, value]];
    }),
  ).toString();
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

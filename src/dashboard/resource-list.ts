import type { FastifyInstance } from 'fastify';
import type { AdminApi, AdminFailure } from './admin-call.ts';
import { field, type Pagination, pager, recordsTable, select } from './components.ts';
import { type Html, html } from './html.ts';
import type { ToolsFor } from './page-tools.ts';
import { clientPath, clientRoute, listQuery, loadClient, PAGE_SIZE } from './route-kit.ts';

export type ListFilter =
  | {
      readonly kind: 'select';
      readonly name: string;
      readonly label: string;
      readonly choices: readonly (readonly [value: string, label: string])[];
    }
  | { readonly kind: 'date'; readonly name: string; readonly label: string };

/** What a list's table and the parts around it are given. */
export interface ListContext {
  readonly clientId: string;
  /** This page's own path. */
  readonly path: string;
  readonly csrf: string;
  readonly sandbox: boolean;
}

/** One page of a list as an admin list route answers it. */
export type ListAnswer<Row> =
  | { readonly ok: true; readonly data: readonly Row[]; readonly pagination: Pagination }
  | AdminFailure;

export interface ResourceListSpec<Row> {
  /** Page path after the client's: `/vas`. */
  readonly suffix: string;
  readonly title: string;
  /** One page of the client's records from the admin list route, filtered by `query`. */
  readonly load: (
    admin: AdminApi,
    clientId: string,
    query: Readonly<Record<string, string>>,
  ) => Promise<ListAnswer<Row>>;
  /** The query parameters the admin route filters by, shown as a form. */
  readonly filters?: readonly ListFilter[];
  /** The table of one page of rows; by default every field the admin API answers. */
  readonly table?: (rows: readonly Row[], context: ListContext) => Html;
  /** The fields of the default table, in order. */
  readonly fields?: readonly (keyof Row & string)[];
  readonly empty: string;
  /** What the page shows above the filters. */
  readonly intro?: (context: ListContext) => Html;
  /** What the page shows under the list (a sandbox action form). */
  readonly below?: (rows: readonly Row[], context: ListContext) => Html;
}

/**
 * A client's records of one kind (transfers, virtual accounts, VAS purchases, USSD references,
 * checkout sessions, identity checks, webhook deliveries): the admin list route as a table, its
 * filters, pages, and a live region that the browser refreshes (?fragment=1 answers it alone).
 */
export function registerResourceList<Row extends Readonly<Record<string, unknown>>>(
  app: FastifyInstance,
  tools: ToolsFor,
  spec: ResourceListSpec<Row>,
) {
  const filterNames = (spec.filters ?? []).map((filter) => filter.name);
  app.get<{ Params: { id: string } }>(
    clientRoute(spec.suffix),
    { schema: { hide: true } },
    async (request, reply) => {
      const { admin, render, failed, fragment, csrf, sandbox } = tools(request, reply);
      const id = request.params.id;
      const query = listQuery(request.query, ['page', ...filterNames]);
      const filter = listQuery(request.query, filterNames);
      const [client, records] = await Promise.all([
        fragment ? undefined : loadClient(admin, id),
        spec.load(admin, id, { ...filter, page: query.page ?? '0', limit: PAGE_SIZE }),
      ]);
      if (client !== undefined && !client.ok) {
        return failed(client, spec.title);
      }
      const path = clientPath(id, spec.suffix);
      const context = { clientId: id, path, csrf, sandbox };
      const rows = records.ok ? records.data : [];
      const table =
        !records.ok || rows.length === 0
          ? html`<p class="empty">${records.ok ? spec.empty : records.message}</p>`
          : (spec.table?.(rows, context) ??
            recordsTable(spec.title, rows, spec.empty, spec.fields));
      const list = html`${table}${pager(path, query, records.ok ? records.pagination : undefined)}`;
      if (client === undefined) {
        return render({ title: spec.title }, list);
      }
      const live = `${path}?${new URLSearchParams({ ...query, fragment: '1' })}`;
      return render(
        { title: spec.title, client: { id, name: client.data.name }, current: spec.suffix },
        html`${spec.intro?.(context) ?? ''}
${filterForm(path, spec.filters ?? [], filter)}
<div data-live="${live}" aria-live="polite" id="live-list">${list}</div>
${spec.below?.(rows, context) ?? ''}`,
      );
    },
  );
}

function filterForm(
  path: string,
  filters: readonly ListFilter[],
  values: Record<string, string>,
): Html {
  if (filters.length === 0) {
    return html``;
  }
  return html`<form method="get" action="${path}" class="grid filters" aria-label="Filter the list">
${filters.map((filter) =>
  filter.kind === 'select'
    ? select({ ...filter, value: values[filter.name] ?? '' })
    : field({
        label: filter.label,
        name: filter.name,
        type: 'date',
        value: values[filter.name] ?? '',
      }),
)}
<div class="actions"><button type="submit" class="button">Filter</button></div>
</form>`;
}

/** A status filter over the given values. */
export function statusFilter(statuses: readonly (readonly [string, string])[]): ListFilter {
  return {
    kind: 'select',
    name: 'status',
    label: 'Status',
    choices: [['', 'Any status'], ...statuses],
  };
}

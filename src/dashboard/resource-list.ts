import type { FastifyInstance } from 'fastify';
import type { AdminAnswer } from './admin-call.ts';
import { pager, recordsTable, select } from './components.ts';
import { type Html, html } from './html.ts';
import type { ToolsFor } from './page-tools.ts';
import { clientPath, clientRoute, listQuery, loadClient, PAGE_SIZE } from './route-kit.ts';

export interface ResourceListSpec {
  /** Page path after the client's: `/vas`. */
  readonly suffix: string;
  readonly title: string;
  /** The admin list route after `/admin/clients/:id`: `/vas-purchases`. */
  readonly adminSuffix: string;
  /** The fields shown, in order (the admin API's own names). */
  readonly fields?: readonly string[] | undefined;
  /** The values `status` may take, when the list filters by it. */
  readonly statuses?: readonly string[];
  readonly empty: string;
  /** What the page shows under the list (a sandbox action form). */
  readonly below?: (context: {
    clientId: string;
    csrf: string;
    sandbox: boolean;
    rows: readonly Record<string, unknown>[];
  }) => Html;
}

/**
 * A client's records of one kind (virtual accounts, VAS purchases, USSD references, checkout
 * sessions, identity checks): the admin list route as a table, status filter, pages, live refresh.
 */
export function registerResourceList(
  app: FastifyInstance,
  tools: ToolsFor,
  spec: ResourceListSpec,
) {
  app.get<{ Params: { id: string } }>(
    clientRoute(spec.suffix),
    { schema: { hide: true } },
    async (request, reply) => {
      const { admin, render, failed, fragment, csrf, sandbox } = tools(request, reply);
      const id = request.params.id;
      const query = listQuery(request.query, ['page', 'status']);
      const filter = listQuery(request.query, ['status']);
      const [client, records] = await Promise.all([
        fragment ? undefined : loadClient(admin, id),
        admin<Record<string, unknown>[]>(
          'GET',
          `/admin/clients/${encodeURIComponent(id)}${spec.adminSuffix}?${new URLSearchParams({ ...filter, page: query.page ?? '0', limit: PAGE_SIZE })}`,
        ),
      ]);
      if (client !== undefined && !client.ok) {
        return failed(client, spec.title);
      }
      const path = clientPath(id, spec.suffix);
      const list = listOf(spec, records, path, query);
      if (client === undefined) {
        return render({ title: spec.title }, list);
      }
      const live = `${path}?${new URLSearchParams({ ...query, fragment: '1' })}`;
      return render(
        { title: spec.title, client: { id, name: client.data.name }, current: spec.suffix },
        html`${
          spec.statuses === undefined
            ? ''
            : html`<form method="get" action="${path}" class="grid filters" aria-label="Filter">
${select({ label: 'Status', name: 'status', value: filter.status ?? '', choices: [['', 'Any status'], ...spec.statuses.map((status) => [status, status] as const)] })}
<div class="actions"><button type="submit" class="button">Filter</button></div></form>`
        }
<div data-live="${live}" aria-live="polite">${list}</div>
${spec.below?.({ clientId: id, csrf, sandbox, rows: records.ok ? records.data : [] }) ?? ''}`,
      );
    },
  );
}

function listOf(
  spec: ResourceListSpec,
  records: AdminAnswer<Record<string, unknown>[]>,
  path: string,
  query: Record<string, string>,
): Html {
  return html`${recordsTable(spec.title, records.ok ? records.data : [], records.ok ? spec.empty : records.message, spec.fields)}
${pager(path, query, records.pagination)}`;
}

import { actionButton, badge, pager, select, table, when } from '../components.ts';
import { type Html, html } from '../html.ts';
import { noticeOf } from '../page-tools.ts';
import {
  clientPath,
  clientRoute,
  type DashboardPage,
  listQuery,
  loadClient,
  PAGE_SIZE,
} from '../route-kit.ts';

interface Attempt {
  attempt: number;
  attemptedAt: string;
  url: string | null;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseExcerpt: string | null;
}

interface Delivery {
  _id: string;
  type: string;
  status: string;
  callbackUrl: string | null;
  attemptCount: number;
  nextAttemptAt: string | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
  attempts: Attempt[];
}

/** A client's webhook deliveries with every attempt, replayed one by one; refreshes itself. */
export const webhookRoutes: DashboardPage = async (app, { tools }) => {
  app.get<{ Params: { id: string } }>(
    clientRoute('/webhooks'),
    { schema: { hide: true } },
    async (request, reply) => {
      const { admin, render, failed, fragment, csrf } = tools(request, reply);
      const id = request.params.id;
      const query = listQuery(request.query, ['page', 'status', 'type']);
      const filter = listQuery(request.query, ['status', 'type']);
      const [client, deliveries] = await Promise.all([
        fragment ? undefined : loadClient(admin, id),
        admin<Delivery[]>(
          'GET',
          `/admin/clients/${encodeURIComponent(id)}/webhooks/deliveries?${new URLSearchParams({ ...filter, page: query.page ?? '0', limit: PAGE_SIZE })}`,
        ),
      ]);
      if (client !== undefined && !client.ok) {
        return failed(client, 'Webhooks');
      }
      const path = clientPath(id, '/webhooks');
      const list = html`${table({
        caption: 'Webhook deliveries, newest first',
        columns: [
          {
            label: 'Event',
            cell: (delivery) =>
              html`${delivery.type}<br><small><code>${delivery._id}</code></small>`,
          },
          { label: 'Created', cell: (delivery) => when(delivery.createdAt) },
          { label: 'Status', cell: (delivery) => badge(delivery.status) },
          { label: 'Attempts', cell: (delivery) => attemptsOf(delivery) },
          {
            label: 'Next attempt',
            cell: (delivery) => (delivery.status === 'pending' ? when(delivery.nextAttemptAt) : ''),
          },
          {
            label: 'Replay',
            cell: (delivery) =>
              actionButton({ action: `${path}/${delivery._id}/replay`, label: 'Replay now', csrf }),
          },
        ],
        rows: deliveries.ok ? deliveries.data : [],
        empty: deliveries.ok ? 'No delivery yet.' : deliveries.message,
      })}
${pager(path, query, deliveries.pagination)}`;
      if (client === undefined) {
        return render({ title: 'Webhooks' }, list);
      }
      const live = `${path}?${new URLSearchParams({ ...query, fragment: '1' })}`;
      return render(
        {
          title: 'Webhook deliveries',
          client: { id, name: client.data.name },
          current: '/webhooks',
        },
        html`<p>The receiver's URL and secret are on the <a href="${clientPath(id)}">client page</a>. Replay sends a delivery again now, with the same webhook-id, whether it failed for good or waits for its next retry.</p>
<form method="get" action="${path}" class="grid filters" aria-label="Filter deliveries">
${select({
  label: 'Status',
  name: 'status',
  value: filter.status ?? '',
  choices: [
    ['', 'Any status'],
    ['pending', 'Pending (retrying)'],
    ['delivered', 'Delivered'],
    ['failed', 'Failed for good'],
  ],
})}
<div class="actions"><button type="submit" class="button">Filter</button></div></form>
<div data-live="${live}" aria-live="polite" id="deliveries-live">${list}</div>`,
      );
    },
  );

  app.post<{ Params: { id: string; eventId: string } }>(
    clientRoute('/webhooks/:eventId/replay'),
    { schema: { hide: true } },
    async (request, reply) => {
      const { admin, redirect } = tools(request, reply);
      const { id, eventId } = request.params;
      const answer = await admin(
        'POST',
        `/admin/clients/${encodeURIComponent(id)}/webhooks/deliveries/${encodeURIComponent(eventId)}/replay`,
      );
      return redirect(
        clientPath(id, '/webhooks'),
        noticeOf(answer, `Delivery ${eventId} queued to be sent now.`),
      );
    },
  );
};

function attemptsOf(delivery: Delivery): Html {
  if (delivery.attempts.length === 0) {
    return html`none yet`;
  }
  return html`<details><summary>${delivery.attempts.length} ${delivery.attempts.length === 1 ? 'attempt' : 'attempts'}${delivery.lastError === null ? '' : html`, last: ${delivery.lastError}`}</summary>
<ol class="attempts">${delivery.attempts.map(
    (attempt) =>
      html`<li>${when(attempt.attemptedAt)} → ${attempt.url ?? ''}: ${attempt.statusCode === null ? html`<span class="debit">${attempt.error ?? 'no answer'}</span>` : `HTTP ${attempt.statusCode}`} in ${attempt.latencyMs} ms${attempt.responseExcerpt === null ? '' : html`<pre class="excerpt">${attempt.responseExcerpt}</pre>`}</li>`,
  )}</ol></details>`;
}

import type { AdminData } from '../admin-call.ts';
import { actionButton, badge, table, when } from '../components.ts';
import { type Html, html } from '../html.ts';
import { noticeOf } from '../page-tools.ts';
import { registerResourceList, statusFilter } from '../resource-list.ts';
import { clientPath, clientRoute, type DashboardPage } from '../route-kit.ts';

type Delivery = AdminData<'GET /admin/clients/:id/webhooks/deliveries'>[number];

/** A client's webhook deliveries with every attempt, replayed one by one; refreshes itself. */
export const webhookRoutes: DashboardPage = async (app, { tools }) => {
  registerResourceList(app, tools, {
    suffix: '/webhooks',
    title: 'Webhook deliveries',
    load: (admin, id, query) =>
      admin.get('/admin/clients/:id/webhooks/deliveries', { params: { id }, query }),
    empty: 'No delivery yet.',
    intro: ({ clientId }) =>
      html`<p>The receiver's URL and secret are on the <a href="${clientPath(clientId)}">client page</a>. Replay sends a delivery again now, with the same webhook-id, whether it failed for good or waits for its next retry.</p>`,
    filters: [
      statusFilter([
        ['pending', 'Pending (retrying)'],
        ['delivered', 'Delivered'],
        ['failed', 'Failed for good'],
      ]),
    ],
    table: (rows, { path, csrf }) =>
      table({
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
        rows,
        empty: '',
      }),
  });

  app.post<{ Params: { id: string; eventId: string } }>(
    clientRoute('/webhooks/:eventId/replay'),
    { schema: { hide: true } },
    async (request, reply) => {
      const { admin, redirect } = tools(request, reply);
      const { id, eventId } = request.params;
      const answer = await admin.post('/admin/clients/:id/webhooks/deliveries/:eventId/replay', {
        params: { id, eventId },
      });
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

import { DASHBOARD_ACTIONS, isActionOf } from '../dashboard-actions.ts';
import { html } from '../html.ts';
import { noticeOf } from '../page-tools.ts';
import { clientPath, clientRoute, type DashboardPage, formFields } from '../route-kit.ts';

type Params = { id: string; appId: string; keyId: string; action: string };

/** The access actions the route takes: those of the dashboard's action table. */
const ACCESS_ROUTES = DASHBOARD_ACTIONS['POST /dashboard/clients/:id/access/:action'];

const ACCESS_NOTICES: Readonly<Record<keyof typeof ACCESS_ROUTES, string>> = {
  disable: 'Client disabled: its apps get no token and every token it holds stopped.',
  enable: 'Client enabled.',
  'revoke-tokens': "Every token of the client's apps is revoked.",
};

/**
 * What an operator does to a client's apps, keys, access, webhook and checkout settings; each is
 * one admin API call, then back to the client page with the answer.
 */
export const clientActionRoutes: DashboardPage = async (app, { tools }) => {
  await app.register(appActions, { tools });
  await app.register(accessActions, { tools });
  await app.register(settingsActions, { tools });
};

/** Register an app, revoke it, add a key to it, revoke a key. */
const appActions: DashboardPage = async (app, { tools }) => {
  app.post<{ Params: Params }>(
    clientRoute('/apps'),
    { schema: { hide: true } },
    async (request, reply) => {
      const { admin, redirect } = tools(request, reply);
      const form = formFields(request.body);
      const made = await admin.post('/admin/clients/:id/apps', {
        params: { id: request.params.id },
        body: { name: form.name ?? '', publicKey: form.publicKey ?? '' },
      });
      return redirect(
        clientPath(request.params.id),
        noticeOf(
          made,
          made.ok ? `App registered: its OAuth client id is ${made.data.clientId}.` : '',
        ),
      );
    },
  );

  app.post<{ Params: Params }>(
    clientRoute('/apps/:appId/revoke'),
    { schema: { hide: true } },
    async (request, reply) => {
      const { admin, redirect } = tools(request, reply);
      const { id, appId } = request.params;
      const answer = await admin.post('/admin/clients/:id/apps/:appId/revoke', {
        params: { id, appId },
      });
      return redirect(clientPath(id), noticeOf(answer, 'App revoked: its tokens stopped.'));
    },
  );

  app.post<{ Params: Params }>(
    clientRoute('/apps/:appId/keys'),
    { schema: { hide: true } },
    async (request, reply) => {
      const { admin, redirect } = tools(request, reply);
      const { id, appId } = request.params;
      const answer = await admin.post('/admin/clients/:id/apps/:appId/keys', {
        params: { id, appId },
        body: { publicKey: formFields(request.body).publicKey ?? '' },
      });
      return redirect(clientPath(id), noticeOf(answer, 'Key added.'));
    },
  );

  app.post<{ Params: Params }>(
    clientRoute('/apps/:appId/keys/:keyId/revoke'),
    { schema: { hide: true } },
    async (request, reply) => {
      const { admin, redirect } = tools(request, reply);
      const { id, appId, keyId } = request.params;
      const answer = await admin.post('/admin/clients/:id/apps/:appId/keys/:keyId/revoke', {
        params: { id, appId, keyId },
      });
      return redirect(clientPath(id), noticeOf(answer, "Key revoked: the app's tokens stopped."));
    },
  );
};

/** Disable or enable the client, or revoke every token it holds. */
const accessActions: DashboardPage = async (app, { tools }) => {
  app.post<{ Params: Params }>(
    clientRoute('/access/:action'),
    { schema: { hide: true } },
    async (request, reply) => {
      const { admin, redirect } = tools(request, reply);
      const { id, action } = request.params;
      if (!isActionOf(ACCESS_ROUTES, action)) {
        return reply.callNotFound();
      }
      const answer = await admin.post(`/admin/clients/:id/${action}`, { params: { id } });
      return redirect(clientPath(id), noticeOf(answer, ACCESS_NOTICES[action]));
    },
  );
};

/** The client's checkout origins and its webhook URL. */
const settingsActions: DashboardPage = async (app, { tools }) => {
  app.post<{ Params: Params }>(
    clientRoute('/checkout-settings'),
    { schema: { hide: true } },
    async (request, reply) => {
      const { admin, redirect } = tools(request, reply);
      const { id } = request.params;
      const form = formFields(request.body);
      const answer = await admin.put('/admin/clients/:id/checkout-settings', {
        params: { id },
        body: {
          allowedOrigins: linesOf(form.allowedOrigins),
          webhookUrls: linesOf(form.webhookUrls),
        },
      });
      return redirect(clientPath(id), noticeOf(answer, 'Checkout origins saved.'));
    },
  );

  // The secret is shown on this answer page only: never in a redirect, a cookie or a later page.
  app.post<{ Params: Params }>(
    clientRoute('/webhook'),
    { schema: { hide: true } },
    async (request, reply) => {
      const { admin, render, redirect } = tools(request, reply);
      const { id } = request.params;
      const form = formFields(request.body);
      const url = (form.url ?? '').trim();
      const rotateSecret = form.rotateSecret === 'true';
      const answer = await admin.put('/admin/clients/:id/webhook', {
        params: { id },
        body: { url: url === '' ? null : url, ...(rotateSecret ? { rotateSecret } : {}) },
      });
      if (!answer.ok) {
        return redirect(clientPath(id), noticeOf(answer, ''));
      }
      reply.header('cache-control', 'no-store');
      return render(
        { title: 'Webhook settings saved', current: '' },
        html`<p class="notice notice-success" role="status">Webhook URL: ${answer.data.url ?? 'none'}.</p>
<div class="card">
<h2>Signing secret</h2>
<p>Copy it now into the receiver's configuration: this page is the only place it is shown.</p>
<p><code class="secret" id="webhook-secret">${answer.data.secret}</code> <button type="button" class="button" data-copy="webhook-secret">Copy</button></p>
</div>
<p><a href="${clientPath(id)}">Back to the client</a></p>`,
      );
    },
  );
};

/** A textarea's non-empty lines, trimmed. */
function linesOf(text: string | undefined): string[] {
  return (text ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

import type { AdminData } from '../admin-call.ts';
import {
  actionButton,
  badge,
  csrfField,
  details,
  field,
  naira,
  table,
  when,
} from '../components.ts';
import { type Html, html } from '../html.ts';
import { clientPath, clientRoute, type DashboardPage, loadClient } from '../route-kit.ts';

/** A client: its details, access, OAuth apps and keys, webhook URL and checkout origins. */
export const clientRoutes: DashboardPage = async (app, { tools }) => {
  app.get<{ Params: { id: string } }>(
    clientRoute(''),
    { schema: { hide: true } },
    async (request, reply) => {
      const { admin, render, failed, csrf } = tools(request, reply);
      const id = request.params.id;
      const client = await loadClient(admin, id);
      if (!client.ok) {
        return failed(client, 'Client');
      }
      const [apps, access, webhook, checkout] = await Promise.all([
        admin.get('/admin/clients/:id/apps', { params: { id } }),
        admin.get('/admin/clients/:id/access', { params: { id } }),
        admin.get('/admin/clients/:id/webhook', { params: { id } }),
        admin.get('/admin/clients/:id/checkout-settings', { params: { id } }),
      ]);
      const main = client.data.mainAccount;
      const base = clientPath(id);
      return render(
        { title: client.data.name, client: { id, name: client.data.name }, current: '' },
        html`${details([
          ['Client id (ClientID header)', html`<code>${id}</code>`],
          ['Email', client.data.emailAddress ?? ''],
          ['Main account', `${main.accountNumber} · ${naira(main.accountBalance)}`],
          ['Onboarded', when(client.data.createdAt)],
          ['Access', access.ok ? badge(access.data.status) : access.message],
          ['Tokens last revoked', access.ok ? when(access.data.tokensRevokedAt) || 'never' : ''],
        ])}
<div class="button-row">
${access.ok && access.data.status === 'Disabled' ? actionButton({ action: `${base}/access/enable`, label: 'Enable client', csrf }) : actionButton({ action: `${base}/access/disable`, label: 'Disable client', csrf, tone: 'danger', confirm: 'Disable this client? Its apps get no token and every token it holds stops.' })}
${actionButton({ action: `${base}/access/revoke-tokens`, label: 'Revoke every token', csrf, tone: 'danger', confirm: "Revoke every access and refresh token of this client's apps?" })}
</div>
<section aria-labelledby="apps" class="card">
<h2 id="apps">OAuth apps and keys</h2>
${apps.ok ? appsTable(apps.data, base, csrf) : html`<p>${apps.message}</p>`}
<h3>Register an app</h3>
<form method="post" action="${base}/apps" class="grid">
${csrfField(csrf)}
${field({ label: 'App name', name: 'name', required: true })}
${pemField('register-key', 'publicKey')}
<div class="actions"><button type="submit" class="button primary">Register app</button></div>
</form>
</section>
<section aria-labelledby="webhook" class="card">
<h2 id="webhook">Webhook URL</h2>
<p>Now: ${webhook.ok ? (webhook.data.url ?? 'none set') : webhook.message}. The signing secret is shown once, when it is made.</p>
<form method="post" action="${base}/webhook" class="grid">
${csrfField(csrf)}
${field({ label: 'Webhook URL', name: 'url', type: 'url', value: webhook.ok ? (webhook.data.url ?? '') : '', placeholder: 'https://example.com/webhooks/openibs', hint: 'Leave empty to stop deliveries to the client URL.' })}
<div class="field checkbox"><input id="rotate-secret" name="rotateSecret" type="checkbox" value="true"><label for="rotate-secret">Rotate the signing secret (the old one keeps signing for the grace period)</label></div>
<div class="actions"><button type="submit" class="button primary">Save webhook settings</button></div>
</form>
</section>
${checkoutSettingsSection(checkout.ok ? checkout.data : undefined, base, csrf)}`,
      );
    },
  );
};

function appsTable(
  apps: AdminData<'GET /admin/clients/:id/apps'>,
  base: string,
  csrf: string,
): Html {
  return table({
    caption: 'OAuth apps',
    columns: [
      {
        label: 'App',
        cell: (app) =>
          html`${app.name}<br><small>OAuth client id <code>${app.clientId}</code></small>`,
      },
      { label: 'Status', cell: (app) => badge(app.status) },
      {
        label: 'Keys',
        cell: (app) =>
          html`<ul class="plain">${app.keys.map(
            (key) =>
              html`<li><code>${key._id.slice(0, 12)}</code> ${key.algorithm} · ${when(key.createdAt)} ${key.revokedAt === null ? (app.status === 'Active' ? actionButton({ action: `${base}/apps/${app._id}/keys/${key._id}/revoke`, label: 'Revoke key', csrf, tone: 'danger', confirm: "Revoke this key? The app's tokens stop too." }) : '') : badge('revoked')}</li>`,
          )}</ul>${
            app.status === 'Active'
              ? html`<details><summary>Add a key</summary><form method="post" action="${base}/apps/${app._id}/keys">${csrfField(csrf)}${pemField(`key-${app._id}`, 'publicKey')}<button type="submit" class="button">Add key</button></form></details>`
              : ''
          }`,
      },
      {
        label: 'Actions',
        cell: (app) =>
          app.status === 'Active'
            ? actionButton({
                action: `${base}/apps/${app._id}/revoke`,
                label: 'Revoke app',
                csrf,
                tone: 'danger',
                confirm: 'Revoke this app? It gets no new token and its tokens stop.',
              })
            : html`revoked ${when(app.revokedAt)}`,
      },
    ],
    rows: apps,
    empty: 'No app yet: register one with its public key below.',
  });
}

/** A PEM text area with a file picker that fills it (the script reads the file in the browser). */
/** Where the client's checkout may be opened from and report to (one value per line). */
function checkoutSettingsSection(
  settings: AdminData<'GET /admin/clients/:id/checkout-settings'> | undefined,
  base: string,
  csrf: string,
): Html {
  const lines = (values: readonly string[] | undefined) => (values ?? []).join('\n');
  return html`<section aria-labelledby="checkout-settings" class="card">
<h2 id="checkout-settings">Checkout origins</h2>
<p>${settings === undefined ? 'Not available.' : settings.allowedOrigins.length === 0 ? 'None registered: in production this client cannot open checkout sessions.' : `Checkout sessions open only from ${settings.allowedOrigins.join(', ')}.`}</p>
<form method="post" action="${base}/checkout-settings" class="grid">
${csrfField(csrf)}
<div class="field wide"><label for="allowed-origins">Allowed origins (one per line, such as https://shop.example.com)</label>
<textarea id="allowed-origins" name="allowedOrigins" rows="3" spellcheck="false">${lines(settings?.allowedOrigins)}</textarea></div>
<div class="field wide"><label for="checkout-webhook-urls">Checkout event destinations a config may name, besides the client URL (one per line)</label>
<textarea id="checkout-webhook-urls" name="webhookUrls" rows="2" spellcheck="false">${lines(settings?.webhookUrls)}</textarea></div>
<div class="actions"><button type="submit" class="button primary">Save checkout origins</button></div>
</form>
</section>`;
}

function pemField(id: string, name: string): Html {
  return html`<div class="field wide">
<label for="${id}">Public key (PEM: SPKI public key or X.509 certificate; RSA ≥ 2048 bits or P-256)</label>
<textarea id="${id}" name="${name}" rows="6" required spellcheck="false" placeholder="-----BEGIN PUBLIC KEY-----"></textarea>
<label class="file">Or upload a .pem file <input type="file" accept=".pem,.crt,.cer,.pub,text/plain" data-fills="${id}"></label>
</div>`;
}

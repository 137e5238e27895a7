import { type Html, html } from './html.ts';
import { DASHBOARD_PATH } from './session.ts';

export interface Notice {
  readonly kind: 'success' | 'error';
  readonly text: string;
}

export interface PageFrame {
  readonly title: string;
  readonly operator: string;
  readonly csrf: string;
  readonly sandbox: boolean;
  readonly notice?: Notice | undefined;
  /** The client whose pages these are: a second row of tabs. */
  readonly client?: { readonly id: string; readonly name: string } | undefined;
  /** Which tab is current (its path suffix). */
  readonly current?: string;
}

const MAIN_TABS = [
  ['', 'Overview'],
  ['/clients', 'Clients'],
  ['/ledger', 'Ledger'],
  ['/approvals', 'Approvals'],
  ['/audit', 'Audit trail'],
] as const;

const CLIENT_TABS = [
  ['', 'Client'],
  ['/accounts', 'Accounts'],
  ['/transfers', 'Transfers'],
  ['/bulk-transfers', 'Bulk'],
  ['/virtual-accounts', 'Virtual accounts'],
  ['/vas', 'VAS'],
  ['/ussd', 'USSD'],
  ['/checkout', 'Checkout'],
  ['/identity', 'Identity'],
  ['/webhooks', 'Webhooks'],
] as const;

function tab(href: string, label: string, current: boolean): Html {
  return html`<li><a class="tab" href="${href}"${current ? html` aria-current="page"` : ''}>${label}</a></li>`;
}

/** The page around every dashboard view: header, navigation, notice, main content. */
export function page(frame: PageFrame, body: Html): Html {
  const clientBase =
    frame.client === undefined ? undefined : `${DASHBOARD_PATH}/clients/${frame.client.id}`;
  const tabs = frame.sandbox
    ? [...MAIN_TABS, ['/inbox', 'Inbox'] as const, ['/sandbox', 'Sandbox'] as const]
    : MAIN_TABS;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${frame.title} · OpenIBS dashboard</title>
<link rel="stylesheet" href="${DASHBOARD_PATH}/assets/dashboard.css">
<script src="${DASHBOARD_PATH}/assets/dashboard.js" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
<div class="brand"><a href="${DASHBOARD_PATH}">OpenIBS</a>${frame.sandbox ? html` <span class="env">Sandbox</span>` : html` <span class="env env-live">Production</span>`}</div>
<nav aria-label="Main"><ul class="tabs">${tabs.map(([suffix, label]) =>
    tab(
      `${DASHBOARD_PATH}${suffix}`,
      label,
      frame.client === undefined && frame.current === suffix,
    ),
  )}</ul></nav>
<form method="post" action="${DASHBOARD_PATH}/logout" class="signout">
<input type="hidden" name="_csrf" value="${frame.csrf}">
<span class="who">${frame.operator}</span> <button type="submit" class="link">Sign out</button>
</form>
</header>
${
  clientBase === undefined || frame.client === undefined
    ? ''
    : html`<nav aria-label="Client" class="client-nav"><p class="client-name">${frame.client.name}</p><ul class="tabs">${CLIENT_TABS.map(
        ([suffix, label]) => tab(`${clientBase}${suffix}`, label, frame.current === suffix),
      )}</ul></nav>`
}
<main id="main" tabindex="-1">
<h1>${frame.title}</h1>
${
  frame.notice === undefined
    ? ''
    : html`<p class="notice notice-${frame.notice.kind}" role="${frame.notice.kind === 'error' ? 'alert' : 'status'}">${frame.notice.text}</p>`
}
${body}
</main>
</body>
</html>`;
}

/** The sign-in page (no navigation: there is no session yet). */
/**
 * The sign-in page: an operator's own email, password and authenticator code; beside it, while
 * break-glass is open (docs/operators.md), the shared admin token with a name to record.
 */
export function signInPage(options: {
  csrf: string;
  error?: string | undefined;
  notice?: string | undefined;
  breakGlass: boolean;
  /** The organisation's identity provider is configured (OIDC_ISSUER). */
  singleSignOn?: boolean;
}): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in · OpenIBS dashboard</title>
<link rel="stylesheet" href="${DASHBOARD_PATH}/assets/dashboard.css">
</head>
<body class="signin">
<main id="main">
<h1>OpenIBS dashboard</h1>
${options.error === undefined ? '' : html`<p class="notice notice-error" role="alert">${options.error}</p>`}
${options.notice === undefined ? '' : html`<p class="notice notice-success" role="status">${options.notice}</p>`}
${options.singleSignOn === true ? html`<p class="card"><a class="button primary" href="${DASHBOARD_PATH}/sso/start">Sign in with your organisation</a></p>` : ''}
<form method="post" action="${DASHBOARD_PATH}/login/operator" class="card">
<input type="hidden" name="_csrf" value="${options.csrf}">
<div class="field"><label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" maxlength="254" required></div>
<div class="field"><label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" maxlength="1024" required></div>
<div class="field"><label for="code">Code from your authenticator app</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" maxlength="7" required></div>
<button type="submit" class="button primary">Sign in</button>
</form>
${options.breakGlass ? breakGlassForm(options.csrf) : ''}
</main>
</body>
</html>`;
}

/** The shared admin token's form: only while break-glass is open. */
function breakGlassForm(csrf: string): Html {
  return html`<h2>Break-glass: the admin token</h2>
<form method="post" action="${DASHBOARD_PATH}/login" class="card">
<input type="hidden" name="_csrf" value="${csrf}">
<div class="field"><label for="admin-token">Admin token</label>
<input id="admin-token" name="adminToken" type="password" autocomplete="off" required></div>
<div class="field"><label for="operator">Your name (recorded in the audit trail)</label>
<input id="operator" name="operator" type="text" pattern="[A-Za-z0-9._@\\-]{1,64}" value="operator" required aria-describedby="operator-hint">
<small id="operator-hint">Letters, digits and . _ @ - (at most 64).</small></div>
<button type="submit" class="button">Sign in with the admin token</button>
</form>
<p class="hint">In the sandbox, the link printed when the server starts (or <code>npx openibs dashboard</code>) signs you in with one click.</p>`;
}

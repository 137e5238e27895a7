import { type Html, html } from './html.ts';
import { DASHBOARD_PATH } from './session.ts';

export interface SetupPageView {
  readonly email: string;
  readonly totpSecret: string;
  readonly totpUri: string;
  readonly expiresAt: Date;
}

/**
 * A local operator's setup page (docs/operators.md): the TOTP secret to add to an authenticator
 * app (typed in, or opened as an `otpauth://` link on the phone), a password chosen twice, and a
 * current code to prove the app holds the secret. A spent or expired link shows only why.
 */
export function setupPage(options: {
  csrf: string;
  ticket: string;
  view?: SetupPageView | undefined;
  error?: string | undefined;
}): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Set up your sign-in · OpenIBS dashboard</title>
<link rel="stylesheet" href="${DASHBOARD_PATH}/assets/dashboard.css">
</head>
<body class="signin">
<main id="main">
<h1>Set up your sign-in</h1>
${options.error === undefined ? '' : html`<p class="notice notice-error" role="alert">${options.error}</p>`}
${options.view === undefined ? '' : setupForm(options.csrf, options.ticket, options.view)}
</main>
</body>
</html>`;
}

function setupForm(csrf: string, ticket: string, view: SetupPageView): Html {
  return html`<p>For <strong>${view.email}</strong>. This link works once, until ${view.expiresAt.toISOString()}.</p>
<section class="card" aria-labelledby="second-factor">
<h2 id="second-factor">1. Add the bank to your authenticator app</h2>
<p>Type this secret into the app (time-based, 6 digits, every 30 seconds):</p>
<p><code class="totp-secret" data-secret="${view.totpSecret}">${groupsOfFour(view.totpSecret)}</code></p>
<p>On the phone that holds the app, <a href="${view.totpUri}">open this link</a> instead.</p>
</section>
<form method="post" action="${DASHBOARD_PATH}/setup/${ticket}" class="card" aria-labelledby="password-and-code">
<h2 id="password-and-code">2. Choose a password and confirm a code</h2>
<input type="hidden" name="_csrf" value="${csrf}">
<input type="text" name="username" value="${view.email}" autocomplete="username" hidden>
<div class="field"><label for="password">New password (at least 12 characters)</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="12" maxlength="256" required></div>
<div class="field"><label for="password-again">The same password again</label>
<input id="password-again" name="passwordAgain" type="password" autocomplete="new-password" minlength="12" maxlength="256" required></div>
<div class="field"><label for="code">The code your app shows now</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" maxlength="7" required></div>
<button type="submit" class="button primary">Set up and go to sign-in</button>
</form>`;
}

/** A base32 secret in groups of four characters, as one reads it aloud or types it. */
function groupsOfFour(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

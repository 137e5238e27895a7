import type { FastifyReply } from 'fastify';
import type { AdminData } from '../admin-call.ts';
import { badge, details, field, pager, select, table, text, when } from '../components.ts';
import { type Html, html } from '../html.ts';
import { type DashboardPage, listQuery } from '../route-kit.ts';
import { DASHBOARD_PATH } from '../session.ts';

const FILTERS = ['accountNumber', 'channel'] as const;
const CHANNELS = [
  ['', 'Email and SMS'],
  ['email', 'Email'],
  ['sms', 'SMS'],
] as const;

type Message = AdminData<'GET /admin/sandbox/messages/:id'>;

/**
 * The message page's policy: the dashboard's own, but the email's HTML (in a sandboxed iframe
 * made from `srcdoc`, which takes its parent's policy) may style itself inline and show the
 * bank's logo from https, as the customer's mail program shows it. Scripts stay the dashboard's
 * own file only, and the iframe's empty `sandbox` runs none and gives it no origin.
 */
const MESSAGE_PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/**
 * The sandbox's message inbox (docs/dashboard.md, docs/alerts.md): every alert and monthly
 * statement the bank made, email and SMS, over GET /admin/sandbox/messages; one message as its
 * holder reads it. Registered in the sandbox only.
 */
export const inboxRoutes: DashboardPage = async (app, { tools }) => {
  const path = `${DASHBOARD_PATH}/inbox`;
  app.get(path, { schema: { hide: true } }, async (request, reply) => {
    const { admin, render } = tools(request, reply);
    const query = listQuery(request.query, ['page', ...FILTERS]);
    const filter = listQuery(request.query, FILTERS);
    const messages = await admin.get('/admin/sandbox/messages', {
      query: { ...filter, page: query.page ?? '0', limit: '25' },
    });
    return render(
      { title: 'Inbox', current: '/inbox' },
      html`<p>Every email and SMS the sandbox made for account holders (alerts and monthly statements), newest first, also when <code>SMTP_URL</code> sends them for real.</p>
<form method="get" action="${path}" class="grid filters" aria-label="Filter the inbox">
${field({ label: 'Account number', name: 'accountNumber', value: filter.accountNumber ?? '', pattern: '[0-9]{10}', inputmode: 'numeric' })}
${select({ label: 'Channel', name: 'channel', choices: CHANNELS, value: filter.channel ?? '' })}
<div class="actions"><button type="submit" class="button">Filter</button></div></form>
${messageTable(messages.ok ? messages.data : [], messages.ok ? 'No message yet.' : messages.message)}
${pager(path, query, messages.ok ? messages.pagination : undefined)}`,
    );
  });

  app.get<{ Params: { id: string } }>(
    `${path}/:id`,
    { schema: { hide: true } },
    async (request, reply) => {
      const { admin, render, failed } = tools(request, reply);
      const message = await admin.get('/admin/sandbox/messages/:id', {
        params: { id: request.params.id },
      });
      if (!message.ok) {
        return failed(message, 'Message');
      }
      allowEmailPreview(reply);
      return render(
        { title: message.data.channel === 'email' ? 'Email' : 'SMS', current: '/inbox' },
        messagePage(path, message.data),
      );
    },
  );
};

function allowEmailPreview(reply: FastifyReply): void {
  void reply.header('content-security-policy', MESSAGE_PAGE_POLICY);
}

function messageTable(rows: readonly Message[], empty: string): Html {
  const path = `${DASHBOARD_PATH}/inbox`;
  return table<Message>({
    caption: 'Messages',
    empty,
    rows,
    columns: [
      { label: 'Made', cell: (m) => when(m.createdAt) },
      { label: 'Account', cell: (m) => m.accountNumber },
      { label: 'Channel', cell: (m) => (m.channel === 'email' ? 'Email' : 'SMS') },
      { label: 'To', cell: (m) => m.to },
      {
        label: 'Message',
        cell: (m) =>
          html`<a href="${`${path}/${encodeURIComponent(m._id)}`}">${m.subject ?? excerpt(m.body)}</a>`,
      },
      { label: 'Status', cell: (m) => badge(m.status) },
    ],
  });
}

function messagePage(path: string, message: Message): Html {
  const facts = details([
    ['To', message.to],
    ['Account', message.accountNumber],
    ['Status', badge(message.status)],
    ['Attempts', text(message.attempts)],
    ['Last error', message.lastError ?? ''],
    ['Made', when(message.createdAt)],
    ['Sent', when(message.sentAt)],
    ['Id', html`<code>${message._id}</code>`],
    ...(message.statementMonth === null ? [] : [statementFact(message)]),
  ]);
  if (message.channel === 'sms') {
    return html`${facts}
<section aria-labelledby="sms" class="card"><h2 id="sms">The text message</h2>
<p class="sms">${message.body}</p></section>
<p><a href="${path}">Back to the inbox</a></p>`;
  }
  return html`${facts}
<section aria-labelledby="email" class="card"><h2 id="email">${message.subject ?? ''}</h2>
${
  message.html === null
    ? ''
    : html`<iframe class="email-preview" sandbox="" srcdoc="${message.html}" title="The email as its holder sees it" referrerpolicy="no-referrer"></iframe>`
}
<details${message.html === null ? html` open` : ''}><summary>Plain-text version</summary>
<pre class="email-text">${message.body}</pre></details></section>
<p><a href="${path}">Back to the inbox</a></p>`;
}

/** A monthly statement's message: which month, and (email) the PDF it carries. */
function statementFact(message: Message): readonly [string, string] {
  const month = (message.statementMonth ?? '').slice(0, 7);
  return [
    'Monthly statement',
    message.channel === 'email'
      ? `${month}: the month's PDF statement is attached, made when the email is sent (the account's statement page downloads the same document)`
      : `${month}: the closing balance`,
  ];
}

/** The start of an SMS, for the list. */
function excerpt(body: string): string {
  return body.length > 80 ? `${body.slice(0, 79)}…` : body;
}

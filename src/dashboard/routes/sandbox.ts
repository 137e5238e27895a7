import type { FastifyPluginAsync } from 'fastify';
import type { AdminData } from '../admin-call.ts';
import { actionButton, csrfField, field, select, table, when } from '../components.ts';
import { type Html, html } from '../html.ts';
import { noticeOf, type ToolsFor } from '../page-tools.ts';
import { type DashboardPage, formFields } from '../route-kit.ts';
import { DASHBOARD_PATH } from '../session.ts';

const NIP_OUTCOMES = [
  ['00', '00 · Approved'],
  ['51', '51 · Insufficient funds at the network: failed'],
  ['05', '05 · Do not honour: failed'],
  ['07', '07 · Invalid account: failed'],
  ['61', '61 · Transfer limit exceeded: failed'],
  ['96', '96 · System malfunction, then approved on status query'],
  ['97', '97 · No answer (timeout), then approved on status query'],
  ['01', '01 · Status unknown, then failed on status query'],
  ['09', '09 · In progress, then approved'],
  ['94', '94 · Duplicate, then approved on status query'],
] as const;

const FAULTS = [
  ['503', '503 · Service unavailable (the handler does not run)'],
  ['500', '500 · Internal error (the handler does not run)'],
  ['429', '429 · Rate limited, with Retry-After (the handler does not run)'],
  ['timeout', 'timeout · No answer; the connection is held until the client gives up'],
  ['commit-then-drop', 'commit-then-drop · Done and committed, then the connection drops'],
  ['commit-then-504', 'commit-then-504 · Done and committed, then answered 504'],
] as const;

// Routes a test most often makes fail; any route of /openapi.json that takes a token will do.
const COMMON_ROUTES = [
  'POST /transfers',
  'POST /transfers/tqs',
  'POST /transfers/name-enquiry',
  'GET /accounts',
  'POST /virtual-accounts',
  'POST /vas/pay/airtime',
  'POST /ussd-payment',
];

/** A part of the sandbox page's actions: the tools and the page's path. */
type SandboxActions = FastifyPluginAsync<{ readonly tools: ToolsFor; readonly path: string }>;

/**
 * Sandbox controls with no client of their own: the NIP simulator's next outcome, the bank's test
 * clock and the faults waiting for clients' calls (docs/sandbox-testing-controls.md).
 */
export const sandboxRoutes: DashboardPage = async (app, { tools }) => {
  const path = `${DASHBOARD_PATH}/sandbox`;
  app.get(path, { schema: { hide: true } }, async (request, reply) => {
    const { admin, render, csrf } = tools(request, reply);
    const [clock, faults, clients] = await Promise.all([
      admin.get('/admin/sandbox/clock'),
      admin.get('/admin/sandbox/faults'),
      admin.get('/admin/clients', { query: { limit: 100 } }),
    ]);
    const names = new Map(
      (clients.ok ? clients.data : []).map((client) => [client._id, client.name]),
    );
    return render(
      { title: 'Sandbox', current: '/sandbox' },
      html`${clock.ok ? clockCard(path, csrf, clock.data) : ''}
${faultsCard(path, csrf, faults.ok ? faults.data : [], names)}
<section aria-labelledby="nip" class="card sandbox"><h2 id="nip">NIP simulator: the next outbound transfer</h2>
<p>Queues the answer the simulated network gives the next NIP transfer, whatever its amount; with nothing queued, the amount's kobo decides (docs/sandbox-nip.md).</p>
<form method="post" action="${path}/nip-next-outcome" class="grid">
${csrfField(csrf)}
${select({ label: 'Outcome', name: 'responseCode', choices: NIP_OUTCOMES })}
<div class="actions"><button type="submit" class="button primary">Queue outcome</button></div>
</form></section>
<p>Crediting an account, paying a virtual account and dialling a USSD reference are on each client's pages.</p>`,
    );
  });

  app.post(`${path}/nip-next-outcome`, { schema: { hide: true } }, async (request, reply) => {
    const { admin, redirect } = tools(request, reply);
    const responseCode = formFields(request.body).responseCode ?? '';
    const answer = await admin.post('/admin/sandbox/nip/next-outcome', { body: { responseCode } });
    return redirect(
      path,
      noticeOf(answer, `The next NIP transfer will be answered ${responseCode}.`),
    );
  });

  await app.register(clockActions, { tools, path });
  await app.register(faultActions, { tools, path });
};

/** Advance the clock by a duration, or freeze and unfreeze it. */
const clockActions: SandboxActions = async (app, { tools, path }) => {
  app.post(`${path}/clock`, { schema: { hide: true } }, async (request, reply) => {
    const { admin, redirect } = tools(request, reply);
    const fields = formFields(request.body);
    const body =
      fields.freeze === undefined
        ? { advance: fields.advance ?? '' }
        : { freeze: fields.freeze === 'true' };
    const answer = await admin.post('/admin/sandbox/clock', { body });
    const done = answer.ok ? `The bank's clock now reads ${when(answer.data.now)}.` : '';
    return redirect(path, noticeOf(answer, done));
  });
};

/** Add a fault, clear one, clear them all. */
const faultActions: SandboxActions = async (app, { tools, path }) => {
  app.post(`${path}/faults`, { schema: { hide: true } }, async (request, reply) => {
    const { admin, redirect } = tools(request, reply);
    const fields = formFields(request.body);
    const times = Number(fields.times ?? '1');
    const answer = await admin.post('/admin/sandbox/faults', {
      body: {
        clientId: fields.clientId ?? '',
        route: fields.route ?? '',
        fault: fields.fault ?? '',
        times: Number.isInteger(times) ? times : 0,
      },
    });
    return redirect(
      path,
      noticeOf(
        answer,
        `The next ${times} ${fields.route ?? ''} call(s) will fail: ${fields.fault}.`,
      ),
    );
  });

  app.post<{ Params: { id: string } }>(
    `${path}/faults/:id/clear`,
    { schema: { hide: true } },
    async (request, reply) => {
      const { admin, redirect } = tools(request, reply);
      const answer = await admin.delete('/admin/sandbox/faults/:id', {
        params: { id: request.params.id },
      });
      return redirect(path, noticeOf(answer, 'The fault is cleared.'));
    },
  );

  app.post(`${path}/faults/clear`, { schema: { hide: true } }, async (request, reply) => {
    const { admin, redirect } = tools(request, reply);
    const answer = await admin.delete('/admin/sandbox/faults');
    return redirect(path, noticeOf(answer, 'Every fault is cleared.'));
  });
};

function clockCard(path: string, csrf: string, clock: AdminData<'GET /admin/sandbox/clock'>): Html {
  const offset = clock.offsetSeconds;
  return html`<section aria-labelledby="clock" class="card sandbox"><h2 id="clock">The bank's clock</h2>
<p>Everything time-bound follows it: virtual accounts, USSD references and checkout sessions expire, daily limits roll over at midnight in Lagos, tokens expire, retries and status queries come due (their workers run at once). It only moves forward.</p>
<p><strong>${when(clock.now)}</strong> · ${clock.frozen ? 'frozen' : 'running'} · ${offset === 0 ? 'real time' : `${offset > 0 ? '+' : ''}${offset} s from real time`}</p>
<form method="post" action="${path}/clock" class="grid">
${csrfField(csrf)}
${field({ label: 'Advance by (ISO 8601 duration)', name: 'advance', placeholder: 'PT2H', required: true, hint: 'PT2H, PT30M, P1D, P1DT12H, PT90S' })}
<div class="actions"><button type="submit" class="button primary">Advance</button></div>
</form>
${actionButton({ action: `${path}/clock`, label: clock.frozen ? 'Unfreeze' : 'Freeze', csrf, fields: { freeze: clock.frozen ? 'false' : 'true' } })}
</section>`;
}

function faultsCard(
  path: string,
  csrf: string,
  faults: AdminData<'GET /admin/sandbox/faults'>,
  names: ReadonlyMap<string, string>,
): Html {
  const clientChoices = [...names].map(([id, name]) => [id, `${name} (${id})`] as const);
  return html`<section aria-labelledby="faults" class="card sandbox"><h2 id="faults">Faults on purpose</h2>
<p>A client's next calls to one route fail the way networks and servers fail, to rehearse the client's recovery: replay with the same Idempotency-Key, or find a transfer with POST /transfers/tqs.</p>
${table({
  caption: 'Faults waiting',
  empty: 'No fault is waiting.',
  rows: faults,
  columns: [
    { label: 'Client', cell: (fault) => names.get(fault.clientId) ?? fault.clientId },
    { label: 'Route', cell: (fault) => fault.route },
    { label: 'Fault', cell: (fault) => fault.fault },
    { label: 'Left', cell: (fault) => `${fault.remaining} of ${fault.times}`, numeric: true },
    { label: 'Added', cell: (fault) => when(fault.createdAt) },
    {
      label: '',
      cell: (fault) =>
        actionButton({ action: `${path}/faults/${fault._id}/clear`, label: 'Clear', csrf }),
    },
  ],
})}
${faults.length === 0 ? '' : actionButton({ action: `${path}/faults/clear`, label: 'Clear every fault', csrf, tone: 'danger' })}
<form method="post" action="${path}/faults" class="grid">
${csrfField(csrf)}
${select({ label: 'Client', name: 'clientId', choices: clientChoices })}
${field({ label: 'Route (method and path, as /openapi.json lists them)', name: 'route', value: 'POST /transfers', required: true, placeholder: 'POST /transfers', hint: COMMON_ROUTES.join(', ') })}
${select({ label: 'Fault', name: 'fault', choices: FAULTS })}
${field({ label: 'How many calls', name: 'times', type: 'number', value: '1', required: true, inputmode: 'numeric' })}
<div class="actions"><button type="submit" class="button primary">Add fault</button></div>
</form></section>`;
}

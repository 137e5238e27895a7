import { csrfField, select } from '../components.ts';
import { html } from '../html.ts';
import { noticeOf } from '../page-tools.ts';
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

/** Sandbox controls with no client of their own: the NIP simulator's next outcome. */
export const sandboxRoutes: DashboardPage = async (app, { tools }) => {
  const path = `${DASHBOARD_PATH}/sandbox`;
  app.get(path, { schema: { hide: true } }, async (request, reply) => {
    const { render, csrf } = tools(request, reply);
    return render(
      { title: 'Sandbox', current: '/sandbox' },
      html`<section aria-labelledby="nip" class="card sandbox"><h2 id="nip">NIP simulator: the next outbound transfer</h2>
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
    const answer = await admin('POST', '/admin/sandbox/nip/next-outcome', { responseCode });
    return redirect(
      path,
      noticeOf(answer, `The next NIP transfer will be answered ${responseCode}.`),
    );
  });
};

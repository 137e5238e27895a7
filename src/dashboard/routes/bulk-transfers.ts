import { createHash } from 'node:crypto';
import type { AdminData } from '../admin-call.ts';
import { MAX_CSV_BYTES, parseBulkCsv } from '../bulk-csv.ts';
import { badge, csrfField, table, when } from '../components.ts';
import { type Html, html } from '../html.ts';
import { noticeOf } from '../page-tools.ts';
import { registerResourceList } from '../resource-list.ts';
import { clientPath, clientRoute, type DashboardPage, formFields } from '../route-kit.ts';

type Batch = AdminData<'GET /admin/clients/:id/bulk-transfers'>[number];

/** The form's own body limit: a CSV of 1,000 rows, form-encoded. */
const UPLOAD_BODY_LIMIT = 3 * MAX_CSV_BYTES;

/**
 * A client's bulk payout batches with their progress (the list refreshes itself while they
 * run); in the sandbox, a CSV file sent as a batch for the client (docs/bulk-payouts.md).
 */
export const bulkTransferRoutes: DashboardPage = async (app, { tools }) => {
  registerResourceList(app, tools, {
    suffix: '/bulk-transfers',
    title: 'Bulk transfers',
    load: (admin, id, query) =>
      admin.get('/admin/clients/:id/bulk-transfers', { params: { id }, query }),
    empty: 'No bulk transfer yet.',
    table: (rows) =>
      table({
        caption: 'Bulk transfer batches, newest first',
        columns: [
          { label: 'When', cell: (batch: Batch) => when(batch.createdAt) },
          { label: 'Batch', cell: (batch: Batch) => batch._id },
          { label: 'Status', cell: (batch: Batch) => badge(batch.status) },
          { label: 'Progress', cell: progress },
          { label: 'Placed', numeric: true, cell: (batch: Batch) => String(batch.placed) },
          { label: 'Refused', numeric: true, cell: (batch: Batch) => String(batch.refused) },
          { label: 'Pending', numeric: true, cell: (batch: Batch) => String(batch.pending) },
          { label: 'All or nothing', cell: (batch: Batch) => (batch.allOrNothing ? 'Yes' : 'No') },
        ],
        rows,
        empty: '',
      }),
    below: (_rows, { clientId, csrf, sandbox }) => (sandbox ? uploadForm(clientId, csrf) : html``),
  });

  app.post<{ Params: { id: string } }>(
    clientRoute('/bulk-transfers/upload'),
    { schema: { hide: true }, bodyLimit: UPLOAD_BODY_LIMIT },
    async (request, reply) => {
      const { admin, redirect, sandbox } = tools(request, reply);
      if (!sandbox) {
        return reply.callNotFound();
      }
      const { id } = request.params;
      const back = clientPath(id, '/bulk-transfers');
      const form = formFields(request.body);
      const csv = form.csv ?? '';
      const parsed = parseBulkCsv(csv);
      if (!parsed.ok) {
        return redirect(back, { kind: 'error', text: parsed.problems.join(' ') });
      }
      const allOrNothing = form.allOrNothing === 'on';
      // The same file for the same client replays its batch: a form sent twice pays once.
      const idempotencyKey = `dashboard-${createHash('sha256')
        .update(`${id}\n${allOrNothing}\n${csv}`)
        .digest('hex')
        .slice(0, 40)}`;
      const answer = await admin.post('/admin/sandbox/bulk-transfers', {
        body: { clientId: id, idempotencyKey, allOrNothing, transfers: parsed.transfers },
      });
      const summary = answer.ok
        ? `Batch ${answer.data._id} accepted: ${answer.data.pending} to place, ${answer.data.refused} refused.`
        : '';
      return redirect(back, noticeOf(answer, summary));
    },
  );
};

function progress(batch: Batch): Html {
  const ended = batch.placed + batch.refused;
  return html`<progress max="${String(batch.total)}" value="${String(ended)}">${String(ended)} of ${String(batch.total)}</progress> ${String(ended)}/${String(batch.total)}`;
}

/** Sandbox: a CSV file of transfers sent as one batch for this client. */
function uploadForm(clientId: string, csrf: string): Html {
  return html`<section aria-labelledby="bulk-upload" class="card sandbox">
<h2 id="bulk-upload">Sandbox: send a CSV file as a bulk batch</h2>
<form method="post" action="${clientPath(clientId, '/bulk-transfers/upload')}" class="grid">
${csrfField(csrf)}
<div class="field wide">
<label for="bulk-csv">Transfers (CSV: a header row naming debitAccountNumber, beneficiaryBankCode, beneficiaryAccountNumber, amount, paymentReference, and optionally narration and nameEnquiryReference; up to 1,000 rows)</label>
<textarea id="bulk-csv" name="csv" rows="8" required spellcheck="false" placeholder="debitAccountNumber,beneficiaryBankCode,beneficiaryAccountNumber,amount,paymentReference"></textarea>
<label class="file">Or upload a .csv file <input type="file" accept=".csv,text/csv,text/plain" data-fills="bulk-csv"></label>
</div>
<div class="field"><label><input type="checkbox" name="allOrNothing"> All or nothing (hold the total first)</label></div>
<div class="actions"><button type="submit" class="button primary">Send the batch</button></div>
</form></section>`;
}

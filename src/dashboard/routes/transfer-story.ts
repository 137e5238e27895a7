import type { AdminData } from '../admin-call.ts';
import { csrfField, field, recordDetails, recordsTable } from '../components.ts';
import { type Html, html } from '../html.ts';
import { clientPath, clientRoute, type DashboardPage, loadClient } from '../route-kit.ts';
import { transferRecallRoutes } from './transfer-recall.ts';
import { transferReturnRoutes } from './transfer-return.ts';

const TRANSFER_FIELDS = [
  '_id',
  'type',
  'status',
  'amount',
  'fees',
  'vat',
  'stampDuty',
  'debitAccountName',
  'debitAccountNumber',
  'creditAccountName',
  'creditAccountNumber',
  'destinationInstitutionCode',
  'narration',
  'paymentReference',
  'sessionId',
  'nameEnquiryReference',
  'responseCode',
  'responseMessage',
  'isReversed',
  'reversalReference',
  'createdAt',
  'updatedAt',
] as const;

/** A leg of a journal: whose account, which way, how much, and the balance it left. */
const ENTRY_FIELDS = [
  'accountName',
  'accountNumber',
  'type',
  'amount',
  'balanceAfter',
  'narration',
  'journalKind',
  'createdAt',
] as const;

/**
 * One transfer's whole story: the request, its ledger entries, the NIP session, its webhooks; in
 * the sandbox, a Completed NIP transfer can be returned from here, and a credit from another bank
 * recalled.
 */
export const transferStoryRoutes: DashboardPage = async (app, { tools }) => {
  app.get<{ Params: { id: string; transferId: string } }>(
    clientRoute('/transfers/:transferId'),
    { schema: { hide: true } },
    async (request, reply) => {
      const { admin, render, failed, sandbox, csrf } = tools(request, reply);
      const { id, transferId } = request.params;
      const [client, story] = await Promise.all([
        loadClient(admin, id),
        admin.get('/admin/clients/:id/transfers/:transferId/story', {
          params: { id, transferId },
        }),
      ]);
      if (!client.ok) {
        return failed(client, 'Transfer');
      }
      if (!story.ok) {
        return failed(story, 'Transfer');
      }
      const { transfer, ledgerEntries, nip, webhookEvents } = story.data;
      return render(
        { title: 'Transfer story', client: { id, name: client.data.name }, current: '/transfers' },
        html`<section aria-labelledby="request" class="card"><h2 id="request">The transfer</h2>
${recordDetails(transfer, TRANSFER_FIELDS)}</section>
<section aria-labelledby="entries"><h2 id="entries">Ledger entries</h2>
${recordsTable('Ledger entries of this transfer', ledgerEntries, 'No ledger entry (nothing was posted).', ENTRY_FIELDS)}</section>
<section aria-labelledby="nip"><h2 id="nip">NIP session and status queries</h2>
${nip === null ? html`<p class="empty">Not a NIP transfer (intra-bank): no session at the network.</p>` : recordDetails(nip)}</section>
<section aria-labelledby="events"><h2 id="events">Webhook events</h2>
${recordsTable('Webhook events about this transfer', webhookEvents, 'No webhook event.')}
<p><a href="${clientPath(id, '/webhooks')}">Every delivery, with its attempts</a></p></section>
${sandbox && returnable(transfer) ? returnForm(clientPath(id, `/transfers/${transfer._id}/return`), csrf) : ''}
${sandbox && recallable(transfer) ? recallForm(clientPath(id, `/transfers/${transfer._id}/recall`), csrf) : ''}`,
      );
    },
  );
  await app.register(transferReturnRoutes, { tools });
  await app.register(transferRecallRoutes, { tools });
};

type StoryTransfer = AdminData<'GET /admin/clients/:id/transfers/:transferId/story'>['transfer'];

/** What the beneficiary bank may send back: a Completed transfer of ours to another bank. */
function returnable(transfer: StoryTransfer): boolean {
  return (
    transfer.type === 'Outwards' &&
    transfer.providerChannel === 'NIP' &&
    transfer.status === 'Completed'
  );
}

/** Sandbox: the beneficiary bank sends the transfer back (docs/sandbox-nip.md, "Returns"). */
function returnForm(action: string, csrf: string): Html {
  return html`<section aria-labelledby="return" class="card sandbox">
<h2 id="return">Sandbox: the beneficiary bank returns it</h2>
<form method="post" action="${action}" class="grid" data-confirm="Return this transfer? The customer gets the amount, fee and VAT back, and it becomes Reversed.">
${csrfField(csrf)}
${field({ label: 'Reason', name: 'reason', value: 'Returned by the beneficiary bank' })}
<div class="actions"><button type="submit" class="button danger">Return this transfer</button></div>
</form>
</section>`;
}

/**
 * What a sending bank may recall: a Completed credit from another bank (its session id starts
 * with that bank's code; an intra-bank transfer's, with ours).
 */
function recallable(transfer: StoryTransfer): boolean {
  return (
    transfer.type === 'Inwards' &&
    transfer.status === 'Completed' &&
    !transfer.sessionId.startsWith(transfer.destinationInstitutionCode)
  );
}

/** Sandbox: the sending bank recalls the credit (docs/sandbox-nip.md, "Recalls"). */
function recallForm(action: string, csrf: string): Html {
  return html`<section aria-labelledby="recall" class="card sandbox">
<h2 id="recall">Sandbox: the sending bank recalls it</h2>
<form method="post" action="${action}" class="grid" data-confirm="Recall this credit? The account gives back what it has; what it lacks becomes a lien its next credits pay.">
${csrfField(csrf)}
${field({ label: 'Reason', name: 'reason', value: 'Credit sent in error' })}
<div class="actions"><button type="submit" class="button danger">Recall this credit</button></div>
</form>
</section>`;
}

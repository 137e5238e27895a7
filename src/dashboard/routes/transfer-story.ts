import { recordDetails, recordsTable } from '../components.ts';
import { html } from '../html.ts';
import { clientPath, clientRoute, type DashboardPage, loadClient } from '../route-kit.ts';

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

/** One transfer's whole story: the request, its ledger entries, the NIP session, its webhooks. */
export const transferStoryRoutes: DashboardPage = async (app, { tools }) => {
  app.get<{ Params: { id: string; transferId: string } }>(
    clientRoute('/transfers/:transferId'),
    { schema: { hide: true } },
    async (request, reply) => {
      const { admin, render, failed } = tools(request, reply);
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
<p><a href="${clientPath(id, '/webhooks')}">Every delivery, with its attempts</a></p></section>`,
      );
    },
  );
};

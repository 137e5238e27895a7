import type { AdminApi, AdminData } from '../admin-call.ts';
import { csrfField, field, recordDetails, recordsTable } from '../components.ts';
import { type Html, html } from '../html.ts';
import { type Lien, liensTable } from '../lien-list.ts';
import { clientPath, clientRoute, type DashboardPage, loadClient } from '../route-kit.ts';
import { transferRecallRoutes } from './transfer-recall.ts';
import { transferReturnRoutes } from './transfer-return.ts';
import { transferReversalRoutes } from './transfer-reversal.ts';

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
 * One transfer's whole story: the request, its ledger entries, the NIP session, its webhooks. A
 * Completed intra-bank transfer can be reversed from here, and the lien a reversed credit left on
 * the client's account released; in the sandbox, a Completed NIP transfer can be returned, and a
 * credit from another bank recalled.
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
      const page = clientPath(id, `/transfers/${transfer._id}`);
      const liens = await liensOf(admin, story.data);
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
${liens.length > 0 ? lienSection(liens, { clientId: id, page, csrf }) : ''}
${reversible(transfer) ? reversalForm(`${page}/reversal`, csrf) : ''}
${sandbox && returnable(transfer) ? returnForm(`${page}/return`, csrf) : ''}
${sandbox && recallable(transfer) ? recallForm(`${page}/recall`, csrf) : ''}`,
      );
    },
  );
  await app.register(transferReturnRoutes, { tools });
  await app.register(transferRecallRoutes, { tools });
  await app.register(transferReversalRoutes, { tools });
};

type Story = AdminData<'GET /admin/clients/:id/transfers/:transferId/story'>;
type StoryTransfer = Story['transfer'];

/** What an operator may reverse: a Completed intra-bank transfer, from its sender's side. */
function reversible(transfer: StoryTransfer): boolean {
  return (
    transfer.type === 'Outwards' &&
    transfer.providerChannel !== 'NIP' &&
    transfer.status === 'Completed'
  );
}

/** An operator reverses a transfer made in error (docs/api.md, "Operator reversals"). */
function reversalForm(action: string, csrf: string): Html {
  return html`<section aria-labelledby="reversal" class="card">
<h2 id="reversal">Reverse this transfer</h2>
<p>The sender gets the amount back at once; the beneficiary gives back what it kept, and what it no longer has becomes a lien its next credits pay.</p>
<form method="post" action="${action}" class="grid" data-confirm="Reverse this transfer? Both sides become Reversed; the beneficiary may be left owing a lien.">
${csrfField(csrf)}
${field({ label: 'Reason', name: 'reason', required: true, placeholder: 'Sent to the wrong beneficiary' })}
<div class="actions"><button type="submit" class="button danger">Reverse this transfer</button></div>
</form>
</section>`;
}

/**
 * The liens a reversed credit left on the client's account: those its recall or reversal placed
 * (their reference is the credit's reversalReference), looked for on the accounts its ledger
 * entries name (a virtual account's payment lands on its settlement account, not the number it
 * was paid to). Only a credit's own story shows them: its account is this client's.
 */
async function liensOf(admin: AdminApi, story: Story): Promise<readonly AccountLien[]> {
  const { transfer, ledgerEntries } = story;
  const reference = transfer.reversalReference;
  if (transfer.type !== 'Inwards' || reference === null) {
    return [];
  }
  const numbers = new Set(
    ledgerEntries.flatMap((entry) =>
      entry.isGlAccount || entry.accountNumber === null ? [] : [entry.accountNumber],
    ),
  );
  const found = await Promise.all(
    [...numbers].map(async (accountNumber) => {
      const liens = await admin.get('/admin/accounts/:accountNumber/liens', {
        params: { accountNumber },
      });
      return liens.ok
        ? liens.data
            .filter((lien) => lien.reference === reference)
            .map((lien) => ({ ...lien, accountNumber }))
        : [];
    }),
  );
  return found.flat();
}

type AccountLien = Lien & { readonly accountNumber: string };

function lienSection(
  liens: readonly AccountLien[],
  at: { clientId: string; page: string; csrf: string },
): Html {
  return html`<section aria-labelledby="liens" class="card"><h2 id="liens">The lien it left</h2>
${liensTable(liens, {
  caption: 'Liens its recall or reversal placed',
  empty: 'No lien.',
  csrf: at.csrf,
  back: at.page,
  releaseAction: (lien) =>
    clientPath(
      at.clientId,
      `/accounts/${encodeURIComponent(lien.accountNumber)}/liens/${encodeURIComponent(lien._id)}/release`,
    ),
})}</section>`;
}

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

import type { AdminApi, AdminData, AdminFailure } from './admin-call.ts';
import { badge, csrfField, naira, table, when } from './components.ts';
import { type Html, html } from './html.ts';

export type Lien = AdminData<'GET /admin/accounts/:accountNumber/liens'>[number];
export type ClientAccount = AdminData<'GET /admin/clients/:id/accounts'>[number];

export interface LienListOptions<L extends Lien> {
  readonly caption: string;
  readonly empty: string;
  readonly csrf: string;
  /** Where the Release form of an active lien posts. */
  readonly releaseAction: (lien: L) => string;
  /** The page the release comes back to (a path of the same client). */
  readonly back: string;
}

/**
 * Liens as operators read them: why, how much, what is still owed and written off, the status;
 * an active lien has a Release form, whose reason is required (the admin API's is).
 */
export function liensTable<L extends Lien>(liens: readonly L[], options: LienListOptions<L>): Html {
  return table({
    caption: options.caption,
    columns: [
      { label: 'Placed', cell: (lien) => when(lien.createdAt) },
      { label: 'Reason', cell: (lien) => lien.reason },
      { label: 'Amount', numeric: true, cell: (lien) => naira(lien.amount) },
      { label: 'Outstanding', numeric: true, cell: (lien) => naira(lien.outstanding) },
      { label: 'Written off', numeric: true, cell: (lien) => naira(lien.writtenOff) },
      { label: 'Status', cell: (lien) => badge(lien.status) },
      {
        label: 'Actions',
        cell: (lien) => (lien.status === 'active' ? releaseForm(lien, options) : ''),
      },
    ],
    rows: liens,
    empty: options.empty,
  });
}

/** What an account owes under its active liens, in naira (summed in kobo). */
export function owedUnderLiens(liens: readonly Lien[]): number {
  const kobo = liens
    .filter((lien) => lien.status === 'active')
    .reduce((sum, lien) => sum + Math.round(lien.outstanding * 100), 0);
  return kobo / 100;
}

function releaseForm<L extends Lien>(lien: L, options: LienListOptions<L>): Html {
  const id = `release-reason-${lien._id}`;
  return html`<form method="post" action="${options.releaseAction(lien)}" class="inline" data-confirm="Release this lien? What the account still owes under it (${naira(lien.outstanding)}) is written off: the bank bears it.">
${csrfField(options.csrf)}
<input type="hidden" name="back" value="${options.back}">
<label for="${id}">Reason</label>
<input id="${id}" name="reason" type="text" required maxlength="200">
<button type="submit" class="button danger">Release</button>
</form>`;
}

/**
 * The account if it is one of this client's, with its liens (the admin route reads any account's:
 * the page shows only its own client's).
 */
export async function clientAccountWithLiens(
  admin: AdminApi,
  clientId: string,
  accountNumber: string,
): Promise<{ account: ClientAccount; liens: readonly Lien[] } | AdminFailure> {
  const found = await admin.get('/admin/clients/:id/accounts', {
    params: { id: clientId },
    query: { accountNumber },
  });
  if (!found.ok) {
    return found;
  }
  const [account] = found.data;
  if (account === undefined || account.accountNumber !== accountNumber) {
    return { ok: false, statusCode: 404, message: 'That account is not one of this client.' };
  }
  const liens = await admin.get('/admin/accounts/:accountNumber/liens', {
    params: { accountNumber },
  });
  return liens.ok ? { account, liens: liens.data } : liens;
}

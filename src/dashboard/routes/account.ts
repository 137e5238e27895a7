import { badge, details, naira } from '../components.ts';
import { type Html, html } from '../html.ts';
import {
  type ClientAccount,
  clientAccountWithLiens,
  type Lien,
  liensTable,
  owedUnderLiens,
} from '../lien-list.ts';
import { clientPath, clientRoute, type DashboardPage, loadClient } from '../route-kit.ts';
import { lienReleaseRoutes } from './lien-release.ts';

/**
 * One account of the client: its balances, `lockedBalance` counting what it owes under liens
 * (docs/api.md, decisions), and its liens with their reasons; an operator releases an active one
 * from here (lien-release.ts).
 */
export const accountPageRoutes: DashboardPage = async (app, { tools }) => {
  app.get<{ Params: { id: string; accountNumber: string } }>(
    clientRoute('/accounts/:accountNumber'),
    { schema: { hide: true } },
    async (request, reply) => {
      const { admin, render, failed, csrf } = tools(request, reply);
      const { id, accountNumber } = request.params;
      const [client, found] = await Promise.all([
        loadClient(admin, id),
        clientAccountWithLiens(admin, id, accountNumber),
      ]);
      if (!client.ok) {
        return failed(client, 'Account');
      }
      if ('ok' in found) {
        return failed(found, 'Account');
      }
      const { account, liens } = found;
      const path = clientPath(id, `/accounts/${encodeURIComponent(account.accountNumber)}`);
      return render(
        {
          title: `Account ${account.accountNumber}`,
          client: { id, name: client.data.name },
          current: '/accounts',
        },
        html`<section aria-labelledby="balances" class="card"><h2 id="balances">${account.accountName}</h2>
${balances(account, liens)}
<p><a href="${clientPath(id, `/accounts/${account._id}/statement`)}">Statement</a></p></section>
<section aria-labelledby="liens"><h2 id="liens">Liens</h2>
${liensTable(liens, {
  caption: 'Liens on this account, oldest first',
  empty: 'No lien: the account owes the bank nothing.',
  csrf,
  back: path,
  releaseAction: (lien) => `${path}/liens/${encodeURIComponent(lien._id)}/release`,
})}</section>`,
      );
    },
  );
  await app.register(lienReleaseRoutes, { tools });
};

function balances(account: ClientAccount, liens: readonly Lien[]): Html {
  return details([
    ['Number', account.accountNumber],
    ['Status', badge(account.status)],
    ['Available', naira(account.accountBalance)],
    ['Book', naira(account.bookBalance)],
    ['Locked (held and owed under liens)', naira(account.lockedBalance)],
    ['Owed under liens', naira(owedUnderLiens(liens))],
  ]);
}

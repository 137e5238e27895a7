import { naira } from '../components.ts';
import { clientAccountWithLiens } from '../lien-list.ts';
import { noticeOf } from '../page-tools.ts';
import { clientPath, clientRoute, type DashboardPage, formFields } from '../route-kit.ts';

type Params = { id: string; accountNumber: string; lienId: string };

/**
 * "Release" on an active lien (the account page, a reversed credit's story page): what the
 * account still owes under it is written off (POST /admin/liens/:id/release), as the signed-in
 * operator, with the reason the form requires. Only a lien on an account of the client the page
 * is about is released; the operator comes back to the page the form was on.
 */
export const lienReleaseRoutes: DashboardPage = async (app, { tools }) => {
  app.post<{ Params: Params }>(
    clientRoute('/accounts/:accountNumber/liens/:lienId/release'),
    { schema: { hide: true } },
    async (request, reply) => {
      const { admin, redirect } = tools(request, reply);
      const { id, accountNumber, lienId } = request.params;
      const form = formFields(request.body);
      const back =
        samePageOf(id, form.back) ??
        clientPath(id, `/accounts/${encodeURIComponent(accountNumber)}`);
      const reason = form.reason?.trim() ?? '';
      if (reason === '') {
        return redirect(back, { kind: 'error', text: 'Say why the lien is released.' });
      }
      const found = await clientAccountWithLiens(admin, id, accountNumber);
      if ('ok' in found) {
        return redirect(back, noticeOf(found, ''));
      }
      if (!found.liens.some((lien) => lien._id === lienId)) {
        return redirect(back, { kind: 'error', text: 'That lien is not on this account.' });
      }
      const answer = await admin.post('/admin/liens/:id/release', {
        params: { id: lienId },
        body: { reason },
      });
      const writtenOff = answer.ok ? naira(answer.data.writtenOff) : '';
      return redirect(
        back,
        noticeOf(
          answer,
          `Lien released: ${writtenOff} written off, account ${accountNumber} is free of it.`,
        ),
      );
    },
  );
};

/** The form's page to come back to, if it is an account's or a transfer's page of this client. */
function samePageOf(clientId: string, back: string | undefined): string | undefined {
  const prefix = clientPath(clientId);
  const rest = back?.startsWith(`${prefix}/`) === true ? back.slice(prefix.length) : '';
  return /^\/(accounts|transfers)\/[A-Za-z0-9._%-]+$/.test(rest) ? `${prefix}${rest}` : undefined;
}

import { naira } from '../components.ts';
import { noticeOf } from '../page-tools.ts';
import { clientPath, clientRoute, type DashboardPage, formFields } from '../route-kit.ts';

/**
 * "Reverse this transfer" on an intra-bank transfer's page: an operator reverses a transfer made
 * in error (POST /admin/transfers/:id/reversal, the service the admin route calls), as the
 * signed-in operator, with the reason the form requires. The transfer is read through the
 * client's own story first, so only a transfer of the client the page is about is reversed; the
 * admin API refuses what cannot be reversed (a NIP transfer, one not Completed). Not a sandbox
 * control: operators reverse in production too.
 */
export const transferReversalRoutes: DashboardPage = async (app, { tools }) => {
  app.post<{ Params: { id: string; transferId: string } }>(
    clientRoute('/transfers/:transferId/reversal'),
    { schema: { hide: true } },
    async (request, reply) => {
      const { admin, redirect } = tools(request, reply);
      const { id, transferId } = request.params;
      const back = clientPath(id, `/transfers/${encodeURIComponent(transferId)}`);
      const reason = formFields(request.body).reason?.trim() ?? '';
      if (reason === '') {
        return redirect(back, { kind: 'error', text: 'Say why the transfer is reversed.' });
      }
      const story = await admin.get('/admin/clients/:id/transfers/:transferId/story', {
        params: { id, transferId },
      });
      if (!story.ok) {
        return redirect(clientPath(id, '/transfers'), noticeOf(story, ''));
      }
      const answer = await admin.post('/admin/transfers/:id/reversal', {
        params: { id: story.data.transfer._id },
        body: { reason },
      });
      if (!answer.ok) {
        return redirect(back, noticeOf(answer, ''));
      }
      const { outward, lien } = answer.data;
      const done = `Transfer ${outward.sessionId} reversed: ${naira(outward.amount)} back to ${outward.debitAccountNumber}.`;
      return redirect(back, {
        kind: 'success',
        text:
          lien === null
            ? done
            : `${done} The beneficiary lacked ${naira(lien.outstanding)}: a lien on its account now.`,
      });
    },
  );
};

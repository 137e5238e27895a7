import { noticeOf } from '../page-tools.ts';
import { clientPath, clientRoute, type DashboardPage, formFields } from '../route-kit.ts';

/**
 * Sandbox: "Recall this credit" on an inbound credit's page. The sending bank recalls it through
 * the simulated network (POST /admin/sandbox/nip/recalls); the transfer is read through the
 * client's own story first, so only a credit of the client the page is about is recalled.
 * Outside the sandbox there is no such action (404).
 */
export const transferRecallRoutes: DashboardPage = async (app, { tools }) => {
  app.post<{ Params: { id: string; transferId: string } }>(
    clientRoute('/transfers/:transferId/recall'),
    { schema: { hide: true } },
    async (request, reply) => {
      const { admin, redirect, sandbox } = tools(request, reply);
      if (!sandbox) {
        return reply.callNotFound();
      }
      const { id, transferId } = request.params;
      const back = clientPath(id, `/transfers/${encodeURIComponent(transferId)}`);
      const story = await admin.get('/admin/clients/:id/transfers/:transferId/story', {
        params: { id, transferId },
      });
      if (!story.ok) {
        return redirect(clientPath(id, '/transfers'), noticeOf(story, ''));
      }
      const reason = formFields(request.body).reason?.trim();
      const { sessionId } = story.data.transfer;
      const answer = await admin.post('/admin/sandbox/nip/recalls', {
        body: { sessionId, ...(reason === undefined || reason === '' ? {} : { reason }) },
      });
      const lien = answer.ok ? answer.data.lien : null;
      return redirect(
        back,
        noticeOf(
          answer,
          lien === null
            ? `Credit ${sessionId} recalled: the account gave it all back.`
            : `Credit ${sessionId} recalled: the account lacked ₦${lien.outstanding}, now a lien on it.`,
        ),
      );
    },
  );
};

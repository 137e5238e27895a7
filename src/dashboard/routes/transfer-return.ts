import { noticeOf } from '../page-tools.ts';
import { clientPath, clientRoute, type DashboardPage, formFields } from '../route-kit.ts';

/**
 * Sandbox: "Return this transfer" on a transfer's page. The beneficiary bank sends it back
 * through the simulated network (POST /admin/sandbox/nip/returns); the transfer is read through
 * the client's own story first, so only a transfer of the client the page is about is returned.
 * Outside the sandbox there is no such action (404).
 */
export const transferReturnRoutes: DashboardPage = async (app, { tools }) => {
  app.post<{ Params: { id: string; transferId: string } }>(
    clientRoute('/transfers/:transferId/return'),
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
      const answer = await admin.post('/admin/sandbox/nip/returns', {
        body: { sessionId, ...(reason === undefined || reason === '' ? {} : { reason }) },
      });
      return redirect(
        back,
        noticeOf(
          answer,
          `Transfer ${sessionId} returned: the customer has it back, fee and VAT included.`,
        ),
      );
    },
  );
};

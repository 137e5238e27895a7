import { noticeOf } from '../page-tools.ts';
import type { DashboardPage } from '../route-kit.ts';
import { DASHBOARD_PATH } from '../session.ts';

/**
 * Approve and Reject on the approvals queue: the decision is the admin API's
 * (POST /admin/approvals/:id/approve or /reject), as the signed-in operator; an approval runs
 * the held action at once and the notice says how it went. The admin API refuses the requester
 * approving their own, break-glass, and an operator without the action's role.
 */
export const approvalDecisionRoutes: DashboardPage = async (app, { tools }) => {
  const back = `${DASHBOARD_PATH}/approvals`;
  app.post<{ Params: { approvalId: string } }>(
    `${back}/:approvalId/approve`,
    { schema: { hide: true } },
    async (request, reply) => {
      const { admin, redirect } = tools(request, reply);
      const answer = await admin.post('/admin/approvals/:id/approve', {
        params: { id: request.params.approvalId },
      });
      if (!answer.ok) {
        return redirect(back, noticeOf(answer, ''));
      }
      const { _id, action, status, result } = answer.data;
      return status === 'applied'
        ? redirect(back, { kind: 'success', text: `Approved ${_id}: ${action} applied.` })
        : redirect(back, {
            kind: 'error',
            text: `Approved ${_id}, but ${action} failed: ${messageOf(result?.answer)} (HTTP ${result?.statusCode ?? '?'})`,
          });
    },
  );
  app.post<{ Params: { approvalId: string } }>(
    `${back}/:approvalId/reject`,
    { schema: { hide: true } },
    async (request, reply) => {
      const { admin, redirect } = tools(request, reply);
      const answer = await admin.post('/admin/approvals/:id/reject', {
        params: { id: request.params.approvalId },
      });
      return redirect(
        back,
        noticeOf(answer, answer.ok ? `Rejected ${answer.data._id}: it will not run.` : ''),
      );
    },
  );
};

function messageOf(answer: unknown): string {
  const message = (answer as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : 'no message';
}

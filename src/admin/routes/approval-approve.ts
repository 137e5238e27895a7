import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import { type Approvals, approvalView, executeAs } from '../approvals/index.ts';
import { adminContract } from '../contract/index.ts';

const approve = adminContract['POST /admin/approvals/:id/approve'];

export interface ApprovalApproveRouteOptions {
  readonly approvals: Pick<Approvals, 'approve' | 'statusOf'>;
}

/**
 * POST /admin/approvals/:id/approve: a second operator approves a held action, which then runs
 * at once as them; the answer carries what the action answered (`result`). Refused to the
 * requester (403 APPROVAL_OWN_REQUEST), to break-glass (403 APPROVAL_NEEDS_OPERATOR), to an
 * operator without the action's role (403 ROLE_REQUIRED), and once expired or decided (409).
 */
export const approvalApproveRoute: FastifyPluginAsyncTypebox<ApprovalApproveRouteOptions> = async (
  app,
  { approvals },
) => {
  app.post(
    '/admin/approvals/:id/approve',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Approve a held action, which runs at once as the approver',
        params: approve.params,
        response: {
          200: approve.answer,
          401: ErrorSchema,
          403: ErrorSchema,
          404: ErrorSchema,
          409: ErrorSchema,
        },
      },
    },
    async (request) => {
      const operator = request.operator;
      if (operator === null) {
        throw new Error('the admin scope authenticates every request');
      }
      const done = await approvals.approve(
        request.params.id,
        operator,
        executeAs(app, request),
        request,
      );
      const view = approvalView(done, approvals.statusOf(done));
      return ok(
        view.status === 'applied' ? 'Approved and applied.' : 'Approved; the action failed.',
        view,
      );
    },
  );
};

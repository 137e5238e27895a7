import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import { type Approvals, approvalView } from '../approvals/index.ts';
import { adminContract } from '../contract/index.ts';

const reject = adminContract['POST /admin/approvals/:id/reject'];

export interface ApprovalRejectRouteOptions {
  readonly approvals: Pick<Approvals, 'reject' | 'statusOf'>;
}

/**
 * POST /admin/approvals/:id/reject: another operator with the action's role rejects a held
 * action, or its requester withdraws it; it never runs. Break-glass cannot decide.
 */
export const approvalRejectRoute: FastifyPluginAsyncTypebox<ApprovalRejectRouteOptions> = async (
  app,
  { approvals },
) => {
  app.post(
    '/admin/approvals/:id/reject',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Reject a held action (or withdraw your own)',
        params: reject.params,
        response: {
          200: reject.answer,
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
      const done = await approvals.reject(request.params.id, operator, request);
      return ok('Rejected.', approvalView(done, approvals.statusOf(done)));
    },
  );
};

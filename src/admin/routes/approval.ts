import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import { type Approvals, approvalView } from '../approvals/index.ts';
import { adminContract } from '../contract/index.ts';

const one = adminContract['GET /admin/approvals/:id'];

export interface ApprovalRouteOptions {
  readonly approvals: Pick<Approvals, 'find' | 'statusOf'>;
}

/** GET /admin/approvals/:id: one held request, who asked, who decided, and what it answered. */
export const approvalRoute: FastifyPluginAsyncTypebox<ApprovalRouteOptions> = async (
  app,
  { approvals },
) => {
  app.get(
    '/admin/approvals/:id',
    {
      schema: {
        tags: ['Admin'],
        summary: 'One request held for a second operator',
        params: one.params,
        response: { 200: one.answer, 401: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request) => {
      const approval = await approvals.find(request.params.id);
      return ok('Approval request fetched.', approvalView(approval, approvals.statusOf(approval)));
    },
  );
};

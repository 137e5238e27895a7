import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { paged } from '../../http/envelope.ts';
import { type Approvals, approvalView } from '../approvals/index.ts';
import { adminContract } from '../contract/index.ts';

const list = adminContract['GET /admin/approvals'];

export interface ApprovalsRouteOptions {
  readonly approvals: Pick<Approvals, 'list' | 'statusOf'>;
}

/**
 * GET /admin/approvals: the requests held for a second operator (docs/operators.md, "Four
 * eyes"), newest first; `status=pending` is the queue (expired ones read as `expired`).
 */
export const approvalsRoute: FastifyPluginAsyncTypebox<ApprovalsRouteOptions> = async (
  app,
  { approvals },
) => {
  app.get(
    '/admin/approvals',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Requests held for a second operator, newest first',
        querystring: list.query,
        response: { 200: list.answer, 400: ErrorSchema, 401: ErrorSchema },
      },
    },
    async (request) => {
      const { status, page, limit } = request.query;
      const { rows, total } = await approvals.list({ status, limit, offset: page * limit });
      const data = rows.map((row) => approvalView(row, approvals.statusOf(row)));
      return paged('Approval requests fetched.', data, { page, limit, total });
    },
  );
};

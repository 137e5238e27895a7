import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type ApprovalRouteOptions, approvalRoute } from './approval.ts';
import { type ApprovalApproveRouteOptions, approvalApproveRoute } from './approval-approve.ts';
import { type ApprovalRejectRouteOptions, approvalRejectRoute } from './approval-reject.ts';
import { type ApprovalsRouteOptions, approvalsRoute } from './approvals.ts';

export type ApprovalsRoutesOptions = ApprovalsRouteOptions &
  ApprovalRouteOptions &
  ApprovalApproveRouteOptions &
  ApprovalRejectRouteOptions;

/** Four eyes: the requests held for a second operator, and the decisions on them. */
export const approvalsRoutes: FastifyPluginAsyncTypebox<ApprovalsRoutesOptions> = async (
  app,
  options,
) => {
  await app.register(approvalsRoute, options);
  await app.register(approvalRoute, options);
  await app.register(approvalApproveRoute, options);
  await app.register(approvalRejectRoute, options);
};

import type { ApprovalRecord } from './approval-repository.ts';
import type { ApprovalStatus } from './approvals.ts';

/** A held request as the admin API shows it (status: as read now, expired included). */
export function approvalView(approval: ApprovalRecord, status: ApprovalStatus) {
  return {
    _id: approval.id,
    action: approval.routeKey,
    role: approval.routeRole,
    params: approval.params,
    query: approval.query,
    body: approval.body,
    requestedBy: approval.requestedByActor,
    requestedByOperatorId: approval.requestedByOperatorId,
    requestedAt: approval.requestedAt.toISOString(),
    expiresAt: approval.expiresAt.toISOString(),
    status,
    decidedBy: approval.decidedByActor,
    decidedByOperatorId: approval.decidedByOperatorId,
    decidedAt: approval.decidedAt?.toISOString() ?? null,
    result:
      approval.resultStatus === null
        ? null
        : { statusCode: approval.resultStatus, answer: approval.resultAnswer },
  };
}

/**
 * Four eyes (docs/operators.md, "Four eyes"), its one public file: admin actions held until a
 * second operator approves them, the hook that holds them, and how an approval runs one.
 * Owns the table approval_requests.
 */
export type { ApprovalFilter, ApprovalRecord } from './approval-repository.ts';
export { approvalView } from './approval-view.ts';
export { type ApprovalStatus, type Approvals, createApprovals } from './approvals.ts';
export { executeAs } from './execute.ts';
export { APPROVAL_EXECUTION_HEADER, fourEyesRoutes, requireFourEyes } from './four-eyes.ts';

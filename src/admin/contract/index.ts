/**
 * The admin API's contract, its one public file: the schemas of what each admin route takes and
 * answers, by method and path, and the types a caller's requests and answers take from them. The
 * admin routes and the dashboard both import it; the dashboard imports nothing else of admin/.
 */
export { type AdminRouteContract, adminContract } from './admin-contract.ts';
export { APPROVAL_STATUSES, PendingApprovalAnswer } from './approval-schemas.ts';
export type {
  AdminAnswerBody,
  AdminAnswerSchema,
  AdminMethod,
  AdminPath,
  AdminRequest,
  AdminRouteKey,
  AdminRouteOf,
} from './contract-types.ts';
export { OperatorApiKeySchema, OperatorSchema } from './operator-admin-schemas.ts';
export { ClientSchema } from './operator-schemas.ts';
export { adminRouteUrl } from './route-url.ts';

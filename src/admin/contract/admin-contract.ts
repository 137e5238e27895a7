import { type TSchema, Type } from 'typebox';
import type { OperatorRole } from '../../auth/operator-roles.ts';
import { envelopeSchema, IdParams, pagedEnvelopeSchema } from '../../http/common-schemas.ts';
import {
  AccountSchema,
  StatementDocumentQuery,
  StatementRowSchema,
} from '../../modules/accounts/index.ts';
import {
  CheckoutSettingsBody,
  CheckoutSettingsSchema,
  CheckoutVerifySchema,
} from '../../modules/checkout/index.ts';
import { VerificationOperatorSchema } from '../../modules/identity/index.ts';
import { BulkBatchSchema, TransferSchema } from '../../modules/transfers/index.ts';
import { UssdReferenceSchema } from '../../modules/ussd/index.ts';
import {
  CategorySchema,
  ProductSchema,
  PurchaseTransactionSchema,
} from '../../modules/vas/index.ts';
import { VirtualAccountWithPaymentsSchema } from '../../modules/virtual-accounts/index.ts';
import { FixturesSchema } from '../../sandbox/fixtures/index.ts';
import {
  ListDeliveriesQuery,
  ReplayBody,
  ReplayResultSchema,
  WebhookDeliverySchema,
} from '../../webhooks/webhook-schemas.ts';
import { LiftSuppressionBody, SuppressedDestinationSchema } from './alert-schemas.ts';
import { ApprovalSchema, ApprovalsQuery } from './approval-schemas.ts';
import {
  AuditExportQuery,
  AuditExportRowSchema,
  AuditVerifyQuery,
  AuditVerifySchema,
} from './audit-schemas.ts';
import {
  UpdateVasCategoryBody,
  UpdateVasProductsBody,
  VasCategoryWithProductsSchema,
} from './catalogue-schemas.ts';
import {
  LienReleaseBody,
  LienSchema,
  LiensSchema,
  NipRecallBody,
  RecallOutcomeSchema,
  ReversalBody,
  ReversalOutcomeSchema,
} from './clawback-schemas.ts';
import {
  CreateOperatorBody,
  EndedOperatorSessionsSchema,
  IssueApiKeyBody,
  IssuedApiKeySchema,
  MyKeyParams,
  OperatorApiKeySchema,
  OperatorKeyParams,
  OperatorRolesBody,
  OperatorSchema,
  WhoAmISchema,
} from './operator-admin-schemas.ts';
import {
  AddAppKeyBody,
  AppKeyParams,
  AppKeySchema,
  AppParams,
  AppSchema,
  AppWithKeysSchema,
  ClientAccessSchema,
  ClientSchema,
  CreateClientBody,
  DashboardLoginLinkSchema,
  DeliveryParams,
  EndedSessionsSchema,
  RegisterAppBody,
  RevokedSchema,
  SetWebhookBody,
  WebhookSetSchema,
  WebhookUrlSchema,
} from './operator-schemas.ts';
import { OperatorSetupLinkSchema, OperatorSignInStateSchema } from './operator-sign-in-schemas.ts';
import {
  AccountNumberParams,
  AdminPageQuery,
  AdminTransfersQuery,
  AuditEventSchema,
  AuditEventsQuery,
  CheckoutSessionsQuery,
  ClientAccountParams,
  ClientAccountsQuery,
  ClientTransferParams,
  LedgerOverviewSchema,
  TransferStorySchema,
  UssdReferencesQuery,
  VasPurchasesQuery,
} from './read-schemas.ts';
import {
  ClearedSchema,
  FixturesSummarySchema,
  NipNextOutcomeBody,
  NipOutcomeQueueSchema,
  NipReturnBody,
  SandboxBulkTransferBody,
  SandboxClockBody,
  SandboxClockSchema,
  SandboxCreditBody,
  SandboxFaultBody,
  SandboxFaultSchema,
  SandboxFaultsQuery,
  SandboxMessageSchema,
  SandboxMessagesQuery,
  SandboxPaymentSchema,
  SandboxResetSchema,
  SandboxUssdDialBody,
  SandboxVirtualAccountPaymentBody,
  SandboxWebhookSchema,
  SandboxWebhooksQuery,
} from './sandbox-schemas.ts';

/** One admin route's wire contract: what it takes, and what it answers when it succeeds. */
export interface AdminRouteContract {
  /**
   * The role an operator needs for this route (docs/operators.md): reads need `viewer`; the
   * admin API refuses a route that has none, and the role matrix test covers every entry.
   */
  readonly role: OperatorRole;
  readonly params?: TSchema;
  readonly query?: TSchema;
  readonly body?: TSchema;
  /**
   * The status of a success: 201 for what makes a record, 202 for what starts a job (a bulk
   * batch), 200 otherwise.
   */
  readonly status?: 201 | 202;
  /** The success answer whole: the envelope with its data (and the pagination of a list). */
  readonly answer: TSchema;
  /**
   * An action's before-state: the read route (`GET ...`, in this table) whose answer is the
   * record the action changes, called with the action's own path parameters just before it
   * runs; the audit trail keeps its data beside the after-state (docs/operators.md). Absent on
   * actions that make something new or send something (nothing stood before them).
   */
  readonly before?: string;
}

const client = {
  'GET /admin/clients': {
    role: 'viewer',
    query: AdminPageQuery,
    answer: pagedEnvelopeSchema(ClientSchema),
  },
  'POST /admin/clients': {
    role: 'security',
    body: CreateClientBody,
    status: 201,
    answer: envelopeSchema(ClientSchema),
  },
  'GET /admin/clients/:id': {
    role: 'viewer',
    params: IdParams,
    answer: envelopeSchema(ClientSchema),
  },
  'GET /admin/clients/:id/apps': {
    role: 'viewer',
    params: IdParams,
    answer: envelopeSchema(Type.Array(AppWithKeysSchema)),
  },
  'POST /admin/clients/:id/apps': {
    role: 'security',
    before: 'GET /admin/clients/:id/apps',
    params: IdParams,
    body: RegisterAppBody,
    status: 201,
    answer: envelopeSchema(AppSchema),
  },
  'POST /admin/clients/:id/apps/:appId/revoke': {
    role: 'security',
    before: 'GET /admin/clients/:id/apps',
    params: AppParams,
    answer: envelopeSchema(RevokedSchema),
  },
  'POST /admin/clients/:id/apps/:appId/keys': {
    role: 'security',
    before: 'GET /admin/clients/:id/apps',
    params: AppParams,
    body: AddAppKeyBody,
    status: 201,
    answer: envelopeSchema(AppKeySchema),
  },
  'POST /admin/clients/:id/apps/:appId/keys/:keyId/revoke': {
    role: 'security',
    before: 'GET /admin/clients/:id/apps',
    params: AppKeyParams,
    answer: envelopeSchema(RevokedSchema),
  },
  'GET /admin/clients/:id/access': {
    role: 'viewer',
    params: IdParams,
    answer: envelopeSchema(ClientAccessSchema),
  },
  'POST /admin/clients/:id/disable': {
    role: 'security',
    before: 'GET /admin/clients/:id',
    params: IdParams,
    answer: envelopeSchema(ClientAccessSchema),
  },
  'POST /admin/clients/:id/enable': {
    role: 'security',
    before: 'GET /admin/clients/:id',
    params: IdParams,
    answer: envelopeSchema(ClientAccessSchema),
  },
  'POST /admin/clients/:id/revoke-tokens': {
    role: 'security',
    before: 'GET /admin/clients/:id/access',
    params: IdParams,
    answer: envelopeSchema(ClientAccessSchema),
  },
  'GET /admin/clients/:id/checkout-settings': {
    role: 'viewer',
    params: IdParams,
    answer: envelopeSchema(CheckoutSettingsSchema),
  },
  'PUT /admin/clients/:id/checkout-settings': {
    role: 'security',
    before: 'GET /admin/clients/:id/checkout-settings',
    params: IdParams,
    body: CheckoutSettingsBody,
    answer: envelopeSchema(CheckoutSettingsSchema),
  },
  'GET /admin/clients/:id/webhook': {
    role: 'viewer',
    params: IdParams,
    answer: envelopeSchema(WebhookUrlSchema),
  },
  'PUT /admin/clients/:id/webhook': {
    role: 'security',
    before: 'GET /admin/clients/:id/webhook',
    params: IdParams,
    body: SetWebhookBody,
    answer: envelopeSchema(WebhookSetSchema),
  },
  'GET /admin/clients/:id/webhooks/deliveries': {
    role: 'viewer',
    params: IdParams,
    query: ListDeliveriesQuery,
    answer: pagedEnvelopeSchema(WebhookDeliverySchema),
  },
  'POST /admin/clients/:id/webhooks/replay': {
    role: 'support',
    params: IdParams,
    body: ReplayBody,
    answer: envelopeSchema(ReplayResultSchema),
  },
  'POST /admin/clients/:id/webhooks/deliveries/:eventId/replay': {
    role: 'support',
    params: DeliveryParams,
    answer: envelopeSchema(WebhookDeliverySchema),
  },
} as const satisfies Record<string, AdminRouteContract>;

/** A client's records, as its own API shows them, and the accounts by number. */
const records = {
  'GET /admin/clients/:id/accounts': {
    role: 'viewer',
    params: IdParams,
    query: ClientAccountsQuery,
    answer: pagedEnvelopeSchema(AccountSchema),
  },
  'GET /admin/clients/:id/accounts/:accountId/statement': {
    role: 'viewer',
    params: ClientAccountParams,
    query: StatementDocumentQuery,
    answer: pagedEnvelopeSchema(StatementRowSchema),
  },
  'GET /admin/clients/:id/transfers': {
    role: 'viewer',
    params: IdParams,
    query: AdminTransfersQuery,
    answer: pagedEnvelopeSchema(TransferSchema),
  },
  'GET /admin/clients/:id/bulk-transfers': {
    role: 'viewer',
    params: IdParams,
    query: AdminPageQuery,
    answer: pagedEnvelopeSchema(BulkBatchSchema),
  },
  'GET /admin/clients/:id/transfers/:transferId/story': {
    role: 'viewer',
    params: ClientTransferParams,
    answer: envelopeSchema(TransferStorySchema),
  },
  'GET /admin/clients/:id/virtual-accounts': {
    role: 'viewer',
    params: IdParams,
    query: AdminPageQuery,
    answer: pagedEnvelopeSchema(VirtualAccountWithPaymentsSchema),
  },
  'GET /admin/clients/:id/vas-purchases': {
    role: 'viewer',
    params: IdParams,
    query: VasPurchasesQuery,
    answer: pagedEnvelopeSchema(PurchaseTransactionSchema),
  },
  'GET /admin/clients/:id/ussd-references': {
    role: 'viewer',
    params: IdParams,
    query: UssdReferencesQuery,
    answer: pagedEnvelopeSchema(UssdReferenceSchema),
  },
  'GET /admin/clients/:id/checkout-sessions': {
    role: 'viewer',
    params: IdParams,
    query: CheckoutSessionsQuery,
    answer: pagedEnvelopeSchema(CheckoutVerifySchema),
  },
  'GET /admin/clients/:id/identity-verifications': {
    role: 'viewer',
    params: IdParams,
    query: AdminPageQuery,
    answer: pagedEnvelopeSchema(VerificationOperatorSchema),
  },
  'GET /admin/accounts/:accountNumber': {
    role: 'viewer',
    params: AccountNumberParams,
    answer: envelopeSchema(AccountSchema),
  },
  'POST /admin/accounts/:accountNumber/freeze': {
    role: 'support',
    before: 'GET /admin/accounts/:accountNumber',
    params: AccountNumberParams,
    answer: envelopeSchema(AccountSchema),
  },
  'POST /admin/accounts/:accountNumber/unfreeze': {
    role: 'support',
    before: 'GET /admin/accounts/:accountNumber',
    params: AccountNumberParams,
    answer: envelopeSchema(AccountSchema),
  },
  'GET /admin/accounts/:accountNumber/liens': {
    role: 'viewer',
    params: AccountNumberParams,
    answer: envelopeSchema(LiensSchema),
  },
  'GET /admin/liens/:id': {
    role: 'viewer',
    params: IdParams,
    answer: envelopeSchema(LienSchema),
  },
  'POST /admin/liens/:id/release': {
    role: 'finance',
    before: 'GET /admin/liens/:id',
    params: IdParams,
    body: LienReleaseBody,
    answer: envelopeSchema(LienSchema),
  },
  'GET /admin/transfers/:id': {
    role: 'viewer',
    params: IdParams,
    answer: envelopeSchema(TransferSchema),
  },
  'POST /admin/transfers/:id/reversal': {
    role: 'finance',
    before: 'GET /admin/transfers/:id',
    params: IdParams,
    body: ReversalBody,
    answer: envelopeSchema(ReversalOutcomeSchema),
  },
} as const satisfies Record<string, AdminRouteContract>;

/** The bank as a whole: its ledger, its catalogue, the audit trail, the dashboard's sessions. */
const bank = {
  'GET /admin/ledger': { role: 'viewer', answer: envelopeSchema(LedgerOverviewSchema) },
  'GET /admin/audit-events': {
    role: 'viewer',
    query: AuditEventsQuery,
    answer: pagedEnvelopeSchema(AuditEventSchema),
  },
  'GET /admin/audit/verify': {
    role: 'viewer',
    query: AuditVerifyQuery,
    answer: envelopeSchema(AuditVerifySchema),
  },
  /** Streamed; JSON is a bare array of rows (no envelope), CSV the same rows as a table. */
  'GET /admin/audit/export': {
    role: 'security',
    query: AuditExportQuery,
    answer: Type.Array(AuditExportRowSchema),
  },
  'GET /admin/vas/service-categories/:id': {
    role: 'viewer',
    params: IdParams,
    answer: envelopeSchema(VasCategoryWithProductsSchema),
  },
  'PUT /admin/vas/service-categories/:id': {
    role: 'support',
    before: 'GET /admin/vas/service-categories/:id',
    params: IdParams,
    body: UpdateVasCategoryBody,
    answer: envelopeSchema(CategorySchema),
  },
  'PUT /admin/vas/service-categories/:id/products': {
    role: 'support',
    before: 'GET /admin/vas/service-categories/:id',
    params: IdParams,
    body: UpdateVasProductsBody,
    answer: envelopeSchema(Type.Array(ProductSchema)),
  },
  'GET /admin/alerts/suppressed-destinations': {
    role: 'support',
    query: AdminPageQuery,
    answer: pagedEnvelopeSchema(SuppressedDestinationSchema),
  },
  'POST /admin/alerts/suppressed-destinations/lift': {
    role: 'support',
    body: LiftSuppressionBody,
    answer: envelopeSchema(SuppressedDestinationSchema),
  },
  'POST /admin/dashboard/login-links': {
    role: 'security',
    status: 201,
    answer: envelopeSchema(DashboardLoginLinkSchema),
  },
  'POST /admin/dashboard/sessions/end-all': {
    role: 'security',
    answer: envelopeSchema(EndedSessionsSchema),
  },
} as const satisfies Record<string, AdminRouteContract>;

/** The bank's operators: who they are, their roles, their keys and sessions (docs/operators.md). */
const operators = {
  'GET /admin/operators': {
    role: 'admin',
    query: AdminPageQuery,
    answer: pagedEnvelopeSchema(OperatorSchema),
  },
  'POST /admin/operators': {
    role: 'admin',
    body: CreateOperatorBody,
    status: 201,
    answer: envelopeSchema(OperatorSchema),
  },
  'GET /admin/operators/me': { role: 'viewer', answer: envelopeSchema(WhoAmISchema) },
  'GET /admin/operators/me/api-keys': {
    role: 'viewer',
    answer: envelopeSchema(Type.Array(OperatorApiKeySchema)),
  },
  'POST /admin/operators/me/api-keys': {
    role: 'viewer',
    before: 'GET /admin/operators/me/api-keys',
    body: IssueApiKeyBody,
    status: 201,
    answer: envelopeSchema(IssuedApiKeySchema),
  },
  'POST /admin/operators/me/api-keys/:keyId/revoke': {
    role: 'viewer',
    before: 'GET /admin/operators/me/api-keys',
    params: MyKeyParams,
    answer: envelopeSchema(OperatorApiKeySchema),
  },
  'POST /admin/operators/me/sign-out-everywhere': {
    role: 'viewer',
    before: 'GET /admin/operators/me',
    answer: envelopeSchema(EndedOperatorSessionsSchema),
  },
  'GET /admin/operators/:id': {
    role: 'admin',
    params: IdParams,
    answer: envelopeSchema(OperatorSchema),
  },
  'PUT /admin/operators/:id/roles': {
    role: 'admin',
    before: 'GET /admin/operators/:id',
    params: IdParams,
    body: OperatorRolesBody,
    answer: envelopeSchema(OperatorSchema),
  },
  'POST /admin/operators/:id/disable': {
    role: 'admin',
    before: 'GET /admin/operators/:id',
    params: IdParams,
    answer: envelopeSchema(OperatorSchema),
  },
  'POST /admin/operators/:id/enable': {
    role: 'admin',
    before: 'GET /admin/operators/:id',
    params: IdParams,
    answer: envelopeSchema(OperatorSchema),
  },
  'POST /admin/operators/:id/api-keys': {
    role: 'admin',
    before: 'GET /admin/operators/:id',
    params: IdParams,
    body: IssueApiKeyBody,
    status: 201,
    answer: envelopeSchema(IssuedApiKeySchema),
  },
  'POST /admin/operators/:id/api-keys/:keyId/revoke': {
    role: 'security',
    before: 'GET /admin/operators/:id',
    params: OperatorKeyParams,
    answer: envelopeSchema(OperatorApiKeySchema),
  },
  'POST /admin/operators/:id/sessions/end': {
    role: 'security',
    before: 'GET /admin/operators/:id',
    params: IdParams,
    answer: envelopeSchema(EndedOperatorSessionsSchema),
  },
} as const satisfies Record<string, AdminRouteContract>;

/** The sandbox's controls (each answers SANDBOX_ONLY in production). */
const sandbox = {
  'POST /admin/sandbox/credits': {
    role: 'finance',
    body: SandboxCreditBody,
    status: 201,
    answer: envelopeSchema(SandboxPaymentSchema),
  },
  'POST /admin/sandbox/virtual-account-payments': {
    role: 'finance',
    body: SandboxVirtualAccountPaymentBody,
    status: 201,
    answer: envelopeSchema(SandboxPaymentSchema),
  },
  'POST /admin/sandbox/ussd-dials': {
    role: 'finance',
    body: SandboxUssdDialBody,
    answer: envelopeSchema(SandboxPaymentSchema),
  },
  'POST /admin/sandbox/nip/next-outcome': {
    role: 'support',
    body: NipNextOutcomeBody,
    answer: envelopeSchema(NipOutcomeQueueSchema),
  },
  'POST /admin/sandbox/bulk-transfers': {
    role: 'finance',
    body: SandboxBulkTransferBody,
    status: 202,
    answer: envelopeSchema(BulkBatchSchema),
  },
  'POST /admin/sandbox/nip/returns': {
    role: 'finance',
    body: NipReturnBody,
    answer: envelopeSchema(TransferSchema),
  },
  'POST /admin/sandbox/nip/recalls': {
    role: 'finance',
    body: NipRecallBody,
    answer: envelopeSchema(RecallOutcomeSchema),
  },
  'GET /admin/sandbox/clock': { role: 'viewer', answer: envelopeSchema(SandboxClockSchema) },
  'POST /admin/sandbox/clock': {
    role: 'support',
    before: 'GET /admin/sandbox/clock',
    body: SandboxClockBody,
    answer: envelopeSchema(SandboxClockSchema),
  },
  'GET /admin/sandbox/webhooks': {
    role: 'viewer',
    query: SandboxWebhooksQuery,
    answer: pagedEnvelopeSchema(SandboxWebhookSchema),
  },
  'GET /admin/sandbox/messages': {
    role: 'viewer',
    query: SandboxMessagesQuery,
    answer: pagedEnvelopeSchema(SandboxMessageSchema),
  },
  'GET /admin/sandbox/messages/:id': {
    role: 'viewer',
    params: IdParams,
    answer: envelopeSchema(SandboxMessageSchema),
  },
  'GET /admin/sandbox/faults': {
    role: 'viewer',
    query: SandboxFaultsQuery,
    answer: envelopeSchema(Type.Array(SandboxFaultSchema)),
  },
  'POST /admin/sandbox/faults': {
    role: 'support',
    before: 'GET /admin/sandbox/faults',
    body: SandboxFaultBody,
    status: 201,
    answer: envelopeSchema(SandboxFaultSchema),
  },
  'DELETE /admin/sandbox/faults': {
    role: 'support',
    before: 'GET /admin/sandbox/faults',
    query: SandboxFaultsQuery,
    answer: envelopeSchema(ClearedSchema),
  },
  'DELETE /admin/sandbox/faults/:id': {
    role: 'support',
    before: 'GET /admin/sandbox/faults',
    params: IdParams,
    answer: envelopeSchema(ClearedSchema),
  },
  'GET /admin/sandbox/fixtures': { role: 'viewer', answer: envelopeSchema(FixturesSchema) },
  'POST /admin/sandbox/fixtures': {
    role: 'admin',
    before: 'GET /admin/sandbox/fixtures',
    body: FixturesSchema,
    answer: envelopeSchema(FixturesSummarySchema),
  },
  'POST /admin/sandbox/reset': { role: 'admin', answer: envelopeSchema(SandboxResetSchema) },
} as const satisfies Record<string, AdminRouteContract>;

/**
 * Local operators' sign-in (docs/operators.md): setup links, a reset and an unlock, each by an
 * admin other than the operator.
 */
const operatorSignIn = {
  'POST /admin/operators/:id/setup-link': {
    role: 'admin',
    before: 'GET /admin/operators/:id',
    params: IdParams,
    status: 201,
    answer: envelopeSchema(OperatorSetupLinkSchema),
  },
  'POST /admin/operators/:id/reset-sign-in': {
    role: 'admin',
    before: 'GET /admin/operators/:id',
    params: IdParams,
    status: 201,
    answer: envelopeSchema(OperatorSetupLinkSchema),
  },
  'POST /admin/operators/:id/unlock': {
    role: 'admin',
    before: 'GET /admin/operators/:id',
    params: IdParams,
    answer: envelopeSchema(OperatorSignInStateSchema),
  },
} as const satisfies Record<string, AdminRouteContract>;

/**
 * Four eyes (docs/operators.md): the requests held for a second operator, and the decisions.
 * Deciding checks the held action's own role in the service; the routes need only `viewer`.
 */
const approvals = {
  'GET /admin/approvals': {
    role: 'viewer',
    query: ApprovalsQuery,
    answer: pagedEnvelopeSchema(ApprovalSchema),
  },
  'GET /admin/approvals/:id': {
    role: 'viewer',
    params: IdParams,
    answer: envelopeSchema(ApprovalSchema),
  },
  'POST /admin/approvals/:id/approve': {
    role: 'viewer',
    before: 'GET /admin/approvals/:id',
    params: IdParams,
    answer: envelopeSchema(ApprovalSchema),
  },
  'POST /admin/approvals/:id/reject': {
    role: 'viewer',
    before: 'GET /admin/approvals/:id',
    params: IdParams,
    answer: envelopeSchema(ApprovalSchema),
  },
} as const satisfies Record<string, AdminRouteContract>;

/**
 * The admin API's contract: every admin route, by method and path, with the schemas of what it
 * takes and answers. The admin routes declare these very schemas (the contract test checks the
 * published ones match), and the dashboard's calls are typed from them: a changed answer breaks
 * the dashboard's build.
 */
export const adminContract = {
  ...client,
  ...records,
  ...bank,
  ...operators,
  ...operatorSignIn,
  ...approvals,
  ...sandbox,
};

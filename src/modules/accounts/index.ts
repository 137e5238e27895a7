/**
 * The accounts module's public face: other modules and the composition root import only this
 * file (docs/architecture.md). Accounts, sub-accounts, statements and balances.
 */
export { type Account, DEFAULT_NOTIFICATION_SETTINGS } from './account.ts';
export {
  findActiveAccount,
  findOwnActiveAccount,
  findSettlementAccount,
  findSweepDestination,
  requireActive,
  usableSweepDestination,
} from './account-checks.ts';
export { newAccountNumber } from './account-numbers.ts';
export {
  findAccountByNumber,
  findAccountsByIds,
  findAccountsByNumber,
  findAccountsOpenedWith,
  findClientAccount,
  findMonthlyStatementAccounts,
} from './account-repository.ts';
export {
  AccountSchema,
  LienSchema,
  StatementDocumentQuery,
  StatementQuery,
  StatementRowSchema,
} from './account-schemas.ts';
export type { AccountService } from './account-service.ts';
export { accountView } from './account-view.ts';
/** What the wiring builds and registers of this module (docs/architecture.md). */
export { accountsModule } from './accounts-module.ts';
export { lienView } from './lien-view.ts';
export type {
  AlsoListed,
  ClientNames,
  IdentityClaim,
  IdentityProof,
  ProvenHolder,
} from './ports.ts';
export {
  refuseTypeFilter,
  sendStatementDocument,
  statementFormat,
  statementPdfFile,
} from './statement-document.ts';
export type { StatementBank } from './statement-pdf.ts';
export { statementRowView } from './statement-view.ts';

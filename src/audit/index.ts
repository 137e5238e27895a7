/** The audit trail: append-only operator actions and security events (docs/security.md). */

export {
  type ChainVerdict,
  formatHead,
  parseRecordedHead,
  type RecordedHead,
  verifyAuditChain,
} from './audit-chain.ts';
export { AUDIT_EXPORT_COLUMNS, type AuditExportFormat, exportAuditRows } from './audit-export.ts';
export { type AuditEntry, type AuditLog, createAuditLog } from './audit-log.ts';
export type { AuditQuery, StoredAuditEvent } from './audit-repository.ts';

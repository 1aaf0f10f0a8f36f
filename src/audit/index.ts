/** The audit log (docs/dashboard-api.md "Audit log"): one way to record, one way to list. */
export { AUDIT_ACTIONS, isAuditAction, type AuditAction } from "./actions.ts";
export { recordAudit, SYSTEM, type AuditActor, type AuditBy, type AuditEntry, type AuditTarget } from "./record.ts";

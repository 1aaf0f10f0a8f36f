/**
 * Every action the audit log records (docs/dashboard-api.md "Audit log"), in one list: the
 * `action` filter accepts exactly these, and an action is recorded under one of these names only.
 * Some are recorded by capabilities that add them as they land (members, release operations);
 * the list is complete now so the filter and the page know every name.
 */
export const AUDIT_ACTIONS = [
  "sign_in",
  "sign_in_failed",
  "sign_out",
  "user_created",
  "user_changed",
  "user_deleted",
  "member_changed",
  "member_removed",
  "token_created",
  "token_deleted",
  "webhook_created",
  "webhook_changed",
  "webhook_deleted",
  "release_published",
  "release_republished",
  "release_deleted",
  "release_scheduled",
  "channel_moved",
  "slug_rotated",
  "project_changed",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export function isAuditAction(value: string): value is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(value);
}

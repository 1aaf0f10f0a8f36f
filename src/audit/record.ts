import type { Clock } from "../common/clock.ts";
import type { Db } from "../storage/db.ts";
import { auditLog } from "../storage/schema.ts";
import type { AuditAction } from "./actions.ts";

/**
 * Who did it: a signed-in user, an API token, or the server itself (a role set from single sign-on
 * groups, a scheduled job), with the public id and name it had then, and the client's address
 * when a request did it (docs/dashboard-api.md "Audit log").
 */
export interface AuditActor {
  kind: "user" | "token" | "system";
  /** The user's or token's public id; null for the system or an email no user has (a failed sign-in). */
  publicId: string | null;
  name: string;
}

export interface AuditBy {
  actor: AuditActor;
  /** The client's address, null when no request was involved (the command line, a job). */
  ip: string | null;
}

/** The server acting on its own: the command line, start-up, jobs. */
export const SYSTEM: AuditBy = { actor: { kind: "system", publicId: null, name: "system" }, ip: null };

export interface AuditTarget {
  kind: "user" | "project" | "token" | "webhook" | "release" | "member" | "channel";
  id: string | null;
  name: string | null;
}

export interface AuditEntry {
  action: AuditAction;
  target: AuditTarget;
  /** The project's row id for an action in a project (its own log shows it); absent for server-wide ones. */
  projectId?: number | null;
  /** What changed, as plain JSON: names, roles, events, URLs with their query masked; never a secret. */
  details?: Record<string, unknown>;
}

/**
 * Field names a detail may never have: whatever a caller passes, a secret or a token's value does
 * not enter the log (docs/dashboard-api.md "Audit log"). A caller names what changed
 * (`secret_changed: true`), not the value.
 */
const SECRET_FIELDS = /^(password|password_hash|secret|token|token_hash|client_secret|code|id_token|access_token|refresh_token)$/i;

function checkDetails(details: Record<string, unknown>): void {
  for (const key of Object.keys(details)) {
    if (SECRET_FIELDS.test(key)) throw new Error(`audit details must not carry "${key}"`);
  }
}

/**
 * Records one entry, inside the transaction of the action it records (docs/architecture.md
 * "Audit log"): the action and its entry commit together or not at all. Called outside a
 * transaction it throws, so an action cannot record itself on the side by mistake.
 */
export function recordAudit(db: Db, clock: Clock, by: AuditBy, entry: AuditEntry): void {
  if (!db.$client.inTransaction) throw new Error(`audit entry ${entry.action} recorded outside a transaction`);
  const details = entry.details ?? {};
  checkDetails(details);
  db.insert(auditLog)
    .values({
      at: clock.now(),
      actorKind: by.actor.kind,
      actorId: by.actor.publicId,
      actorName: by.actor.name,
      action: entry.action,
      targetKind: entry.target.kind,
      targetId: entry.target.id,
      targetName: entry.target.name,
      projectId: entry.projectId ?? null,
      ip: by.ip,
      details,
    })
    .run();
}

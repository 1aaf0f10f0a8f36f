import { and, count, desc, eq, type SQL } from "drizzle-orm";
import { iso } from "../common/clock.ts";
import { badRequest } from "../common/errors.ts";
import { pageInfo, parsePositiveInt, type PageInfo } from "../common/paging.ts";
import type { Db } from "../storage/db.ts";
import { auditLog, type AuditRow } from "../storage/schema.ts";
import { AUDIT_ACTIONS, isAuditAction } from "./actions.ts";
import { AUDIT_PAGE_SIZE_DEFAULT, AUDIT_PAGE_SIZE_MAX, type AuditQuery } from "./model.ts";

/** One entry as `GET /audit` answers it (docs/dashboard-api.md "Audit log"). */
export interface AuditEntryView {
  at: string;
  actor: { kind: "user" | "token" | "system"; id: string | null; name: string };
  action: string;
  target: { kind: string; id: string | null; name: string | null };
  ip: string | null;
  details: Record<string, unknown>;
}

export function auditEntryView(row: AuditRow): AuditEntryView {
  return {
    at: iso(row.at),
    actor: { kind: row.actorKind, id: row.actorId, name: row.actorName },
    action: row.action,
    target: { kind: row.targetKind, id: row.targetId, name: row.targetName },
    ip: row.ip,
    details: row.details,
  };
}

/**
 * A page of the log, newest first: the whole server's (`projectId` undefined) or one project's.
 * `action` must be one of the names the log records (400 naming the parameter otherwise); a page
 * size above the maximum is a 400 too, like every paged list of the dashboard API.
 */
export function listAudit(db: Db, query: AuditQuery, projectId?: number): { items: AuditEntryView[]; page_info: PageInfo } {
  const page = parsePositiveInt(query.page, "page", 1);
  const pageSize = parsePositiveInt(query.page_size, "page_size", AUDIT_PAGE_SIZE_DEFAULT);
  if (pageSize > AUDIT_PAGE_SIZE_MAX) throw badRequest(`invalid query parameter "page_size": at most ${AUDIT_PAGE_SIZE_MAX}`);
  const filters: SQL[] = [];
  if (projectId !== undefined) filters.push(eq(auditLog.projectId, projectId));
  if (query.action !== undefined && query.action !== "") {
    if (!isAuditAction(query.action)) throw badRequest(`invalid query parameter "action": one of ${AUDIT_ACTIONS.join(", ")}`);
    filters.push(eq(auditLog.action, query.action));
  }
  const where = filters.length ? and(...filters) : undefined;
  const total = db.select({ n: count() }).from(auditLog).where(where).get()!.n;
  const rows = db
    .select()
    .from(auditLog)
    .where(where)
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .all();
  return { items: rows.map(auditEntryView), page_info: pageInfo(total, page, pageSize) };
}

import { Elysia } from "elysia";
import { listAudit } from "../audit/list.ts";
import { AuditQuery } from "../audit/model.ts";
import type { AppDeps } from "../deps.ts";
import type { DashboardContext } from "./access.ts";

/**
 * The audit log (docs/dashboard-api.md "Audit log"): the whole server's for admins, a project's
 * for whoever administers the project (until project roles land, a global admin). No token reaches
 * either: no scope maps to `admin`.
 */
export function auditRoutes({ db }: AppDeps, context: DashboardContext) {
  return new Elysia()
    .use(context)
    .get("/audit", ({ query }) => listAudit(db, query), { access: "admin", query: AuditQuery })
    .get("/projects/:pid/audit", ({ query, project }) => listAudit(db, query, project.id), { access: "audit", inProject: true, query: AuditQuery });
}

import { Type, type Static } from "@sinclair/typebox";
import { WholeNumberParam } from "../common/model.ts";
import { AUDIT_ACTION_MAX_LENGTH } from "./limits.ts";
export * from "./limits.ts";

/** `GET /audit` and `GET /projects/:pid/audit`: paging and one action (docs/dashboard-api.md "Audit log"). */
export const AuditQuery = Type.Object({
  page: Type.Optional(WholeNumberParam),
  page_size: Type.Optional(WholeNumberParam),
  action: Type.Optional(Type.String({ maxLength: AUDIT_ACTION_MAX_LENGTH })),
});
export type AuditQuery = Static<typeof AuditQuery>;

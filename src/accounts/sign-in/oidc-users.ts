import { eq } from "drizzle-orm";
import { recordAudit, type AuditBy } from "../../audit/record.ts";
import type { Clock } from "../../common/clock.ts";
import { newId } from "../../common/ids.ts";
import { log } from "../../common/log.ts";
import type { Db } from "../../storage/db.ts";
import { sessions, users, type UserRow } from "../../storage/schema.ts";
import type { Role } from "../model.ts";
import { adminCount, auditUser, findUserByEmail } from "../users.ts";
import type { OidcPerson } from "./oidc-claims.ts";

/** Who the log says changed a user when single sign-on did it: the server, on the provider's word. */
const SINGLE_SIGN_ON: AuditBy["actor"] = { kind: "system", publicId: null, name: "single sign-on" };

export interface LinkedUser {
  user: UserRow;
  /** A role the groups would have taken away, kept because the user is the last admin. */
  roleKept: Role | null;
}

/**
 * The user a verified person signs in as (docs/dashboard-api.md "Single sign-on"), in one
 * writing transaction: an existing user of that email (linked by the verified address), or a new
 * one, `admin` when a group is one of `adminGroups`. With `adminGroups` set, every sign-in re-reads the role from the groups; a
 * demotion of the last admin is not made (the sign-in keeps the role, and it is logged). A role
 * it changes moves the credential epoch and carries the user's sessions to it, as `updateUser` does.
 */
export function linkOidcUser(db: Db, clock: Clock, person: OidcPerson, adminGroups: string[], ip: string | null): LinkedUser {
  const by: AuditBy = { actor: SINGLE_SIGN_ON, ip };
  const fromGroups: Role = person.groups.some((g) => adminGroups.includes(g)) ? "admin" : "member";
  return db.transaction(
    () => {
      const existing = findUserByEmail(db, person.email);
      if (!existing) {
        const user = db.insert(users).values({ publicId: newId("usr"), email: person.email, name: person.name, passwordHash: null, role: fromGroups, createdAt: clock.now() }).returning().get();
        recordAudit(db, clock, by, { action: "user_created", target: auditUser(user), details: { role: user.role, via: "oidc", groups: person.groups } });
        return { user, roleKept: null };
      }
      if (adminGroups.length === 0 || existing.role === fromGroups) return { user: existing, roleKept: null };
      if (existing.role === "admin" && adminCount(db) === 1) {
        log.warn("single sign-on kept the last admin's role", { user: existing.publicId, groups: person.groups });
        return { user: existing, roleKept: "admin" };
      }
      const credentialEpoch = existing.credentialEpoch + 1;
      db.update(sessions).set({ credentialEpoch }).where(eq(sessions.userId, existing.id)).run();
      const user = db.update(users).set({ role: fromGroups, credentialEpoch }).where(eq(users.id, existing.id)).returning().get()!;
      recordAudit(db, clock, by, { action: "user_changed", target: auditUser(user), details: { role: { from: existing.role, to: fromGroups }, via: "oidc groups", groups: person.groups } });
      return { user, roleKept: null };
    },
    { behavior: "immediate" },
  );
}

import { and, eq } from "drizzle-orm";
import { recordAudit, type AuditBy } from "../../audit/record.ts";
import type { Clock } from "../../common/clock.ts";
import { newId } from "../../common/ids.ts";
import { log } from "../../common/log.ts";
import type { Db } from "../../storage/db.ts";
import { sessions, userIdentities, users, type UserRow } from "../../storage/schema.ts";
import type { Role } from "../model.ts";
import { adminCount, auditUser, findUserByEmail } from "../users.ts";
import { refuseFor } from "./method.ts";
import type { OidcPerson } from "./oidc-claims.ts";

/** Who the log says changed a user when single sign-on did it: the server, on the provider's word. */
const SINGLE_SIGN_ON: AuditBy["actor"] = { kind: "system", publicId: null, name: "single sign-on" };

export interface LinkedUser {
  user: UserRow;
  /** A role the groups would have taken away, kept because the user is the last admin. */
  roleKept: Role | null;
}

/** The user bound to an identity at a provider, if any. */
function boundUser(db: Db, issuer: string, subject: string): UserRow | undefined {
  return db
    .select({ user: users })
    .from(userIdentities)
    .innerJoin(users, eq(users.id, userIdentities.userId))
    .where(and(eq(userIdentities.issuer, issuer), eq(userIdentities.subject, subject)))
    .get()?.user;
}

/**
 * The user a verified person signs in as (docs/dashboard-api.md "Single sign-on"), in one
 * writing transaction:
 *
 * 1. the user bound to the provider's issuer and the person's `sub` there, whatever the email now
 *    says (an address the provider reassigns or lets a person change cannot move an account);
 * 2. else the user whose email is exactly the verified one (normaliseEmail: no Unicode fold), when
 *    that user has no identity at this provider yet: the identity is bound to it from now on. One
 *    bound to another person of the same provider is refused, and the log says why;
 * 3. else a new user, bound to the identity: `admin` when a group is one of `adminGroups`.
 *
 * With `adminGroups` set, every sign-in re-reads the role from the groups; a demotion of the last
 * admin is not made (the sign-in keeps the role, and it is logged). A role it changes moves the
 * credential epoch and carries the user's sessions to it, as `updateUser` does.
 */
export function linkOidcUser(db: Db, clock: Clock, person: OidcPerson, adminGroups: string[], ip: string | null): LinkedUser {
  const by: AuditBy = { actor: SINGLE_SIGN_ON, ip };
  const fromGroups: Role = person.groups.some((g) => adminGroups.includes(g)) ? "admin" : "member";
  const identity = { issuer: person.issuer, subject: person.subject };
  return db.transaction(
    () => {
      let existing = boundUser(db, person.issuer, person.subject);
      if (!existing) {
        const byEmail = findUserByEmail(db, person.email);
        if (!byEmail) {
          const user = db.insert(users).values({ publicId: newId("usr"), email: person.email, name: person.name, passwordHash: null, role: fromGroups, createdAt: clock.now() }).returning().get();
          db.insert(userIdentities).values({ ...identity, userId: user.id, createdAt: clock.now() }).run();
          recordAudit(db, clock, by, { action: "user_created", target: auditUser(user), details: { role: user.role, via: "oidc", groups: person.groups, identity } });
          return { user, roleKept: null };
        }
        const other = db.select().from(userIdentities).where(and(eq(userIdentities.userId, byEmail.id), eq(userIdentities.issuer, person.issuer))).get();
        if (other) {
          log.warn("single sign-on: the verified email is a user's who is bound to another person of this provider; not signed in", { user: byEmail.publicId, issuer: person.issuer, bound_subject: other.subject, subject: person.subject });
          throw refuseFor("identity", person.email);
        }
        db.insert(userIdentities).values({ ...identity, userId: byEmail.id, createdAt: clock.now() }).run();
        recordAudit(db, clock, by, { action: "user_changed", target: auditUser(byEmail), details: { identity_linked: identity, via: "oidc verified email" } });
        existing = byEmail;
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

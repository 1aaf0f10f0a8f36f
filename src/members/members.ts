import { and, asc, count, eq } from "drizzle-orm";
import { recordAudit, SYSTEM, type AuditBy } from "../audit/record.ts";
import { conflict, invalidField, notFound } from "../common/errors.ts";
import type { Clock } from "../common/clock.ts";
import type { Db } from "../storage/db.ts";
import { languages, projectMembers, users, type MemberRow, type ProjectRole, type ProjectRow, type UserRow } from "../storage/schema.ts";
import { LANGUAGE_LIMITED_ROLES, PROJECT_ROLE_NAMES, type MemberInput } from "./model.ts";

/**
 * Project roles (docs/dashboard-api.md "Project roles"): who holds which role in a project, and
 * the changes to it. Which route needs which role is decided in one place, dashboard-api/access.ts;
 * this module only keeps the table and its rules.
 */

// The limits module's names are the schema's roles, in the same order (lowest first).
const SAME_ROLES: readonly ProjectRole[] = PROJECT_ROLE_NAMES;
void SAME_ROLES;

/** What a user may do in a project: a role, and for a translator or reviewer maybe a list of languages (null: all). */
export interface Grant {
  role: ProjectRole;
  languages: string[] | null;
}

/** The default role for users without a row: a role, or `none` (docs/deploy.md "Settings"). */
export type DefaultRole = ProjectRole | "none";

const RANK = new Map<ProjectRole, number>(PROJECT_ROLE_NAMES.map((role, i) => [role, i]));

/** Whether `role` holds the rights of `needed` (each role holds those before it). */
export function roleCovers(role: ProjectRole, needed: ProjectRole): boolean {
  return RANK.get(role)! >= RANK.get(needed)!;
}

/** Whether a grant reaches language `code` (compared without letter case, as codes are matched). */
export function grantCoversLanguage(grant: Grant, code: string): boolean {
  if (grant.languages === null) return true;
  const wanted = code.toLowerCase();
  return grant.languages.some((c) => c.toLowerCase() === wanted);
}

/**
 * The grant of `user` in `project`, or null for none (the project is then a 404 to them). A global
 * admin is every project's admin; others hold their row, else the default role.
 */
export function grantOf(db: Db, user: Pick<UserRow, "id" | "role">, projectId: number, defaultRole: DefaultRole): Grant | null {
  if (user.role === "admin") return { role: "admin", languages: null };
  const row = db.select().from(projectMembers).where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.userId, user.id))).get();
  if (row) return { role: row.role, languages: limited(row.role) ? row.languages : null };
  return defaultRole === "none" ? null : { role: defaultRole, languages: null };
}

/** Every project's grant for `user`, by project row id (for the project list); global admins: null (all). */
export function grantsOf(db: Db, user: Pick<UserRow, "id" | "role">): Map<number, Grant> | null {
  if (user.role === "admin") return null;
  const rows = db.select().from(projectMembers).where(eq(projectMembers.userId, user.id)).all();
  return new Map(rows.map((r) => [r.projectId, { role: r.role, languages: limited(r.role) ? r.languages : null }]));
}

function limited(role: ProjectRole): boolean {
  return (LANGUAGE_LIMITED_ROLES as readonly string[]).includes(role);
}

export interface MemberView {
  user: { id: string; name: string; email: string };
  role: ProjectRole;
  /** For a translator or reviewer, the languages it is limited to; null: every language. */
  languages: string[] | null;
  updated_at: string;
}

function memberView(row: MemberRow, user: UserRow): MemberView {
  return {
    user: { id: user.publicId, name: user.name, email: user.email },
    role: row.role,
    languages: limited(row.role) ? row.languages : null,
    updated_at: new Date(row.updatedAt).toISOString(),
  };
}

/** The project's members with a role of their own, by name; `default_role` is what everyone else holds. */
export function listMembers(db: Db, project: ProjectRow, defaultRole: DefaultRole): { items: MemberView[]; default_role: DefaultRole } {
  const rows = db
    .select({ member: projectMembers, user: users })
    .from(projectMembers)
    .innerJoin(users, eq(users.id, projectMembers.userId))
    .where(eq(projectMembers.projectId, project.id))
    .orderBy(asc(users.name), asc(users.id))
    .all();
  return { items: rows.map((r) => memberView(r.member, r.user)), default_role: defaultRole };
}

function findUser(db: Db, publicId: string): UserRow {
  const row = db.select().from(users).where(eq(users.publicId, publicId)).get();
  if (!row) throw notFound("user not found");
  return row;
}

/** The project's languages as stored, for the codes given (any letter case); an unknown one is a 400 naming it. */
function projectLanguages(db: Db, project: ProjectRow, codes: string[]): string[] {
  const known = db.select({ code: languages.code }).from(languages).where(eq(languages.projectId, project.id)).all().map((l) => l.code);
  const out: string[] = [];
  for (const code of codes) {
    const found = known.find((k) => k.toLowerCase() === code.trim().toLowerCase());
    if (!found) throw invalidField("languages", `${code.slice(0, 40) || "an empty code"} is not a language of this project`);
    if (!out.includes(found)) out.push(found);
  }
  return out;
}

function projectAdminCount(db: Db, projectId: number): number {
  return db
    .select({ n: count() })
    .from(projectMembers)
    .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.role, "admin")))
    .get()!.n;
}

/**
 * The last-admin rule of a project (docs/decisions.md "Project roles"): once a project has an
 * `admin` member, the last one can be neither demoted nor removed, by anyone, so someone of the
 * project's own people can always manage it. Checked in the writing transaction (BEGIN
 * IMMEDIATE), so two parallel changes cannot both pass it.
 */
function refuseLastProjectAdmin(db: Db, projectId: number, before: MemberRow | undefined, what: string): void {
  if (before?.role === "admin" && projectAdminCount(db, projectId) === 1) throw conflict(`cannot ${what} the last admin of the project`);
}

/**
 * Gives a user a role in the project, or changes it. A global admin holds every right whatever
 * their row says; the row counts once they are no longer one. `languages` only for a translator
 * or reviewer.
 */
export function setMember(db: Db, clock: Clock, project: ProjectRow, userPublicId: string, input: MemberInput, by: AuditBy = SYSTEM): MemberView {
  const limitedRole = limited(input.role);
  if (!limitedRole && input.languages != null) throw invalidField("languages", `only a translator or reviewer is limited to languages, not a ${input.role}`);
  return db.transaction(
    () => {
      const user = findUser(db, userPublicId);
      const langs = limitedRole && input.languages != null ? projectLanguages(db, project, input.languages) : null;
      const before = db.select().from(projectMembers).where(and(eq(projectMembers.projectId, project.id), eq(projectMembers.userId, user.id))).get();
      if (input.role !== "admin") refuseLastProjectAdmin(db, project.id, before, "demote");
      const values = { projectId: project.id, userId: user.id, role: input.role, languages: langs, updatedAt: clock.now() };
      const row = db
        .insert(projectMembers)
        .values(values)
        .onConflictDoUpdate({ target: [projectMembers.projectId, projectMembers.userId], set: { role: values.role, languages: values.languages, updatedAt: values.updatedAt } })
        .returning()
        .get();
      // Recorded by the change itself, in its transaction (docs/dashboard-api.md "Audit log").
      recordAudit(db, clock, by, {
        action: "member_changed",
        target: { kind: "member", id: user.publicId, name: user.email },
        projectId: project.id,
        details: { role: row.role, languages: row.languages, previous_role: before?.role ?? null },
      });
      return memberView(row, user);
    },
    { behavior: "immediate" },
  );
}

/** Takes a user's own role in the project away; they then hold the default role (or none: the project is a 404 to them). */
export function removeMember(db: Db, clock: Clock, project: ProjectRow, userPublicId: string, by: AuditBy = SYSTEM): void {
  db.transaction(
    () => {
      const user = findUser(db, userPublicId);
      const before = db.select().from(projectMembers).where(and(eq(projectMembers.projectId, project.id), eq(projectMembers.userId, user.id))).get();
      if (!before) throw notFound("this user has no role of their own in this project");
      refuseLastProjectAdmin(db, project.id, before, "remove");
      db.delete(projectMembers).where(and(eq(projectMembers.projectId, project.id), eq(projectMembers.userId, user.id))).run();
      recordAudit(db, clock, by, { action: "member_removed", target: { kind: "member", id: user.publicId, name: user.email }, projectId: project.id, details: { role: before.role } });
    },
    { behavior: "immediate" },
  );
}

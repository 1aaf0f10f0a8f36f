import { recordAudit, SYSTEM, type AuditBy } from "../audit/record.ts";
import { and, asc, eq } from "drizzle-orm";
import { iso } from "../common/clock.ts";
import { invalidField, notFound } from "../common/errors.ts";
import { newId, newSlug } from "../common/ids.ts";
import { atLeastCharacters } from "../common/model.ts";
import type { ServiceDeps } from "../deps.ts";
import type { Db } from "../storage/db.ts";
import { languages, projectMembers, projects, type ProjectRow } from "../storage/schema.ts";
import { createFirstKey } from "../delivery/keys.ts";
import { markProjectUnchecked, recheckProject } from "./checks.ts";
import { defaultLanguageName, normaliseLanguageCode } from "./language-codes.ts";
import type { NewProject, ProjectPatch } from "./model.ts";

export interface ProjectView {
  id: string;
  name: string;
  base_language_code: string;
  cdn_slug: string;
  created_at: string;
  /** How messages are checked (docs/product.md §7): ICU MessageFormat, or text with {name}/{{name}}. */
  message_syntax: ProjectRow["messageSyntax"];
  /** Releases ship approved values only, but for the base language (docs/releases.md "Reviewed strings only"). */
  publish_approved_only: boolean;
}

export function projectView(p: ProjectRow): ProjectView {
  return {
    id: p.publicId,
    name: p.name,
    base_language_code: p.baseLanguageCode,
    cdn_slug: p.cdnSlug,
    created_at: iso(p.createdAt),
    message_syntax: p.messageSyntax,
    publish_approved_only: p.publishApprovedOnly,
  };
}

/** A name as stored: trimmed, and not blank (which the schema, counting characters, lets through). */
function cleanName(name: string): string {
  const n = name.trim();
  if (!n) throw invalidField("name", atLeastCharacters(1));
  return n;
}

/** The project a `:pid` in a path names; a malformed or unknown id is the same 404. */
export function findProject(db: Db, publicId: string | null): ProjectRow {
  const row = typeof publicId === "string" ? db.select().from(projects).where(eq(projects.publicId, publicId)).get() : undefined;
  if (!row) throw notFound("project not found");
  return row;
}

/**
 * The projects `pick` keeps, each with what it adds (a user's role in it; docs/dashboard-api.md
 * "Project roles"), in the order of listProjects.
 */
export function pickProjects<E extends object>(db: Db, pick: (row: ProjectRow) => E | null): (ProjectView & E)[] {
  const out: (ProjectView & E)[] = [];
  for (const row of db.select().from(projects).orderBy(asc(projects.name), asc(projects.id)).all()) {
    const extra = pick(row);
    if (extra !== null) out.push({ ...projectView(row), ...extra });
  }
  return out;
}

/** Every project, or only the one with row id `onlyId` (a token's, docs/product.md §6). */
export function listProjects(db: Db, onlyId?: number): ProjectView[] {
  const query = db.select().from(projects);
  return (onlyId === undefined ? query : query.where(eq(projects.id, onlyId))).orderBy(asc(projects.name), asc(projects.id)).all().map(projectView);
}

/**
 * Creates a project with its base language (docs/product.md §4) and a random CDN slug
 * (docs/interface.md §2.7). The creator (a user's row id; none for a caller that is no user) is
 * the project's `admin` (docs/dashboard-api.md "Project roles").
 */
export function createProject({ db, clock }: ServiceDeps, input: NewProject, creatorId: number | null = null): ProjectView {
  const name = cleanName(input.name);
  const code = normaliseLanguageCode(input.base_language_code, "base_language_code");
  const now = clock.now();
  return db.transaction((tx) => {
    const row = tx
      .insert(projects)
      .values({ publicId: newId("prj"), name, baseLanguageCode: code, cdnSlug: newSlug(), createdAt: now, messageSyntax: input.message_syntax ?? "icu" })
      .returning()
      .get();
    tx.insert(languages).values({ projectId: row.id, code, name: defaultLanguageName(code), createdAt: now }).run();
    // Its manifests are signed from the first publish on (docs/delivery.md "Signatures").
    createFirstKey(tx as unknown as Db, row.id, now);
    if (creatorId !== null) tx.insert(projectMembers).values({ projectId: row.id, userId: creatorId, role: "admin", languages: null, updatedAt: now }).run();
    return projectView(row);
  });
}

/**
 * Renames a project, moves its base language or changes its message syntax. Either of the last
 * two changes what every value is checked against (docs/product.md §7): the values are marked
 * unchecked in the same transaction and rechecked in chunks before the answer, other requests
 * running in between; a stop half-way leaves the rest to the start-up pass.
 */
export async function updateProject({ db, clock, changes }: ServiceDeps, project: ProjectRow, patch: ProjectPatch, by: AuditBy = SYSTEM): Promise<ProjectView> {
  const values: Partial<ProjectRow> = {};
  if (patch.name !== undefined) values.name = cleanName(patch.name);
  if (patch.base_language_code !== undefined) {
    const code = normaliseLanguageCode(patch.base_language_code, "base_language_code");
    const lang = db.select({ code: languages.code }).from(languages).where(and(eq(languages.projectId, project.id), eq(languages.code, code))).get();
    if (!lang) throw invalidField("base_language_code", `${code} is not a language of this project`);
    values.baseLanguageCode = lang.code;
  }
  if (patch.message_syntax !== undefined) values.messageSyntax = patch.message_syntax;
  if (patch.publish_approved_only !== undefined) values.publishApprovedOnly = patch.publish_approved_only;
  if (Object.keys(values).length === 0) return projectView(project);
  const recheck =
    (values.baseLanguageCode !== undefined && values.baseLanguageCode !== project.baseLanguageCode) ||
    (values.messageSyntax !== undefined && values.messageSyntax !== project.messageSyntax);
  const row = db.transaction(() => {
    const updated = db.update(projects).set(values).where(eq(projects.id, project.id)).returning().get()!;
    if (recheck) markProjectUnchecked(db, project.id);
    recordAudit(db, clock, by, { action: "project_changed", target: auditProject(updated), projectId: project.id, details: settingChanges(project, updated) });
    return updated;
  });
  changes.notify(project.id);
  if (recheck) await recheckProject(db, () => clock.now(), project.id);
  return projectView(row);
}

/** A project as the audit log names it. */
function auditProject(p: ProjectRow) {
  return { kind: "project" as const, id: p.publicId, name: p.name };
}

/** The settings a change moved, each as `{from, to}`, for the audit log. */
function settingChanges(before: ProjectRow, after: ProjectRow): Record<string, { from: unknown; to: unknown }> {
  const out: Record<string, { from: unknown; to: unknown }> = {};
  const fields = { name: "name", base_language_code: "baseLanguageCode", message_syntax: "messageSyntax" } as const;
  for (const [label, key] of Object.entries(fields)) {
    if (before[key] !== after[key]) out[label] = { from: before[key], to: after[key] };
  }
  return out;
}

/** A new project slug revokes every URL of the project at once (docs/interface.md §5 rule 7). */
export function rotateProjectSlug({ db, clock, changes }: ServiceDeps, project: ProjectRow, by: AuditBy = SYSTEM): { cdn_slug: string } {
  const cdnSlug = newSlug();
  db.transaction(() => {
    const from = db.select({ cdnSlug: projects.cdnSlug }).from(projects).where(eq(projects.id, project.id)).get()!.cdnSlug;
    db.update(projects).set({ cdnSlug }).where(eq(projects.id, project.id)).run();
    changes.paths.projectSlugRotated(project.id, from);
    recordAudit(db, clock, by, { action: "slug_rotated", target: auditProject(project), projectId: project.id, details: { of: "project" } });
  });
  changes.notify(project.id);
  return { cdn_slug: cdnSlug };
}

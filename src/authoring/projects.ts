import { and, asc, eq } from "drizzle-orm";
import type { Clock } from "../common/clock.ts";
import { iso } from "../common/clock.ts";
import { badRequest, notFound } from "../common/errors.ts";
import { newId, newSlug } from "../common/ids.ts";
import type { Db } from "../storage/db.ts";
import { languages, projects } from "../storage/schema.ts";
import { defaultLanguageName, normaliseLanguageCode } from "./language-codes.ts";

export type ProjectRow = typeof projects.$inferSelect;

export interface ProjectView {
  id: string;
  name: string;
  base_language_code: string;
  cdn_slug: string;
  created_at: string;
}

export const NAME_MAX_LENGTH = 200;

export function projectView(p: ProjectRow): ProjectView {
  return { id: p.publicId, name: p.name, base_language_code: p.baseLanguageCode, cdn_slug: p.cdnSlug, created_at: iso(p.createdAt) };
}

function cleanName(name: string): string {
  const n = name.trim();
  if (!n) throw badRequest('invalid field "name": must not be empty');
  return n;
}

export function findProject(db: Db, publicId: string): ProjectRow {
  const row = db.select().from(projects).where(eq(projects.publicId, publicId)).get();
  if (!row) throw notFound("project not found");
  return row;
}

export function listProjects(db: Db): ProjectView[] {
  return db.select().from(projects).orderBy(asc(projects.name), asc(projects.id)).all().map(projectView);
}

/** Creates a project with its base language (CONTRACTS 4) and a random CDN slug (spec 2.7). */
export function createProject(db: Db, clock: Clock, input: { name: string; base_language_code: string }): ProjectView {
  const name = cleanName(input.name);
  const code = normaliseLanguageCode(input.base_language_code, "base_language_code");
  const now = clock.now();
  return db.transaction((tx) => {
    const row = tx
      .insert(projects)
      .values({ publicId: newId("prj"), name, baseLanguageCode: code, cdnSlug: newSlug(), createdAt: now })
      .returning()
      .get();
    tx.insert(languages).values({ projectId: row.id, code, name: defaultLanguageName(code), createdAt: now }).run();
    return projectView(row);
  });
}

export function updateProject(db: Db, publicId: string, patch: { name?: string; base_language_code?: string }): ProjectView {
  const project = findProject(db, publicId);
  const values: Partial<ProjectRow> = {};
  if (patch.name !== undefined) values.name = cleanName(patch.name);
  if (patch.base_language_code !== undefined) {
    const code = normaliseLanguageCode(patch.base_language_code, "base_language_code");
    const lang = db.select({ code: languages.code }).from(languages).where(and(eq(languages.projectId, project.id), eq(languages.code, code))).get();
    if (!lang) throw badRequest(`invalid field "base_language_code": ${code} is not a language of this project`);
    values.baseLanguageCode = lang.code;
  }
  if (Object.keys(values).length === 0) return projectView(project);
  return projectView(db.update(projects).set(values).where(eq(projects.id, project.id)).returning().get()!);
}

/** Spec 5.7: a new project slug revokes every URL of the project. Callers purge caches. */
export function rotateProjectSlug(db: Db, publicId: string): { project: ProjectRow; cdn_slug: string } {
  const project = findProject(db, publicId);
  const cdnSlug = newSlug();
  db.update(projects).set({ cdnSlug }).where(eq(projects.id, project.id)).run();
  return { project: { ...project, cdnSlug }, cdn_slug: cdnSlug };
}

import { and, asc, desc, eq } from "drizzle-orm";
import { downloadUrls } from "../bundles/urls.ts";
import { iso } from "../common/clock.ts";
import { conflict, invalidField, notFound } from "../common/errors.ts";
import { newId } from "../common/ids.ts";
import { atLeastCharacters } from "../common/model.ts";
import { hasControlCharacters } from "../common/text.ts";
import type { ServiceDeps } from "../deps.ts";
import { shippedFormats, type BundleFormat } from "../formats/registry.ts";
import type { Db } from "../storage/db.ts";
import { releaseLanguages, releases, type ProjectRow, type ReleaseRow } from "../storage/schema.ts";
import type { NewRelease, ReleasePatch } from "./model.ts";

export interface ReleaseLanguageView {
  code: string;
  is_base_language: boolean;
  /** One URL per format the release shipped (docs/formats.md "What a release records"). */
  download_urls: Partial<Record<BundleFormat, string>>;
}

export interface ReleaseView {
  id: string;
  name: string;
  tag: string;
  status: "draft" | "published";
  created_at: string;
  published_at: string | null;
  /** Published by an admin while messages had errors (docs/product.md §7); false otherwise. */
  forced: boolean;
  slug?: string;
  languages?: ReleaseLanguageView[];
  /** The release this one republished (docs/releases.md "Roll back"); only on a republished release. */
  republished_from?: string;
  /** A draft's scheduled publish (docs/releases.md "Scheduled publish"); only while there is one. */
  scheduled_at?: string;
  /** Why the scheduled publish did not happen (the refusal's message); only after it failed. */
  schedule_error?: string;
}

export function releaseView(r: ReleaseRow): ReleaseView {
  const view: ReleaseView = { id: r.publicId, name: r.name, tag: r.tag, status: r.status, created_at: iso(r.createdAt), published_at: iso(r.publishedAt), forced: r.forced };
  if (r.republishedFrom !== null) view.republished_from = r.republishedFrom;
  if (r.scheduledAt !== null) view.scheduled_at = iso(r.scheduledAt);
  if (r.scheduleError !== null) view.schedule_error = r.scheduleError;
  return view;
}

/**
 * The languages a published release shipped, with the absolute download URLs of the formats it
 * shipped (docs/interface.md §2.3).
 */
export function shippedLanguages(db: Db, cdnUrl: string, project: ProjectRow, r: ReleaseRow): ReleaseLanguageView[] {
  if (r.status !== "published" || !r.slug) return [];
  const formats = shippedFormats(r.formats);
  return db
    .select()
    .from(releaseLanguages)
    .where(eq(releaseLanguages.releaseId, r.id))
    .orderBy(asc(releaseLanguages.code))
    .all()
    .map((l) => ({ code: l.code, is_base_language: l.isBaseLanguage, download_urls: downloadUrls(cdnUrl, project.cdnSlug, r.slug!, l.code, formats) }));
}

export function releaseDetail(db: Db, cdnUrl: string, project: ProjectRow, r: ReleaseRow): ReleaseView {
  const view = releaseView(r);
  if (r.status === "published" && r.slug) {
    view.slug = r.slug;
    view.languages = shippedLanguages(db, cdnUrl, project, r);
  }
  return view;
}

/** A name or tag as stored: trimmed, not blank, no control characters. Its length is the route schema's to bound (model.ts). */
export function cleanField(raw: string, field: "name" | "tag"): string {
  const v = raw.trim();
  if (!v) throw invalidField(field, atLeastCharacters(1));
  if (hasControlCharacters(v)) throw invalidField(field, "must not contain control characters");
  return v;
}

export function assertTagFree(db: Db, project: ProjectRow, tag: string, exceptId?: number): void {
  const other = db
    .select({ id: releases.id })
    .from(releases)
    .where(and(eq(releases.projectId, project.id), eq(releases.tag, tag)))
    .get();
  if (other && other.id !== exceptId) throw conflict(`a release tagged "${tag}" already exists in this project`);
}

export function findRelease(db: Db, project: ProjectRow, publicId: string): ReleaseRow {
  const row = db
    .select()
    .from(releases)
    .where(and(eq(releases.projectId, project.id), eq(releases.publicId, publicId)))
    .get();
  if (!row) throw notFound("release not found");
  return row;
}

/** Dashboard list: drafts and published ones, newest first. */
export function listReleases(db: Db, project: ProjectRow): ReleaseView[] {
  return db
    .select()
    .from(releases)
    .where(eq(releases.projectId, project.id))
    .orderBy(desc(releases.createdAt), desc(releases.id))
    .all()
    .map(releaseView);
}

export function createRelease({ db, clock, changes }: ServiceDeps, project: ProjectRow, userId: number | null, input: NewRelease): ReleaseView {
  const name = cleanField(input.name, "name");
  const tag = cleanField(input.tag, "tag");
  assertTagFree(db, project, tag);
  return db.transaction((tx) => {
    const row = tx
      .insert(releases)
      // A draft has no files, so no formats yet: publishing records them (docs/formats.md).
      .values({ publicId: newId("rel"), projectId: project.id, name, tag, status: "draft", createdBy: userId, createdAt: clock.now(), formats: [] })
      .returning()
      .get();
    changes.event(project, "release_created", { release_id: row.publicId, name, tag, status: "draft" });
    return releaseView(row);
  });
}

export function updateRelease({ db, changes }: ServiceDeps, project: ProjectRow, publicId: string, patch: ReleasePatch): ReleaseRow {
  const r = findRelease(db, project, publicId);
  const name = patch.name === undefined ? r.name : cleanField(patch.name, "name");
  const tag = patch.tag === undefined ? r.tag : cleanField(patch.tag, "tag");
  if (tag !== r.tag) assertTagFree(db, project, tag, r.id);
  if (name === r.name && tag === r.tag) return r;
  const row = db.transaction((tx) => {
    const updated = tx.update(releases).set({ name, tag }).where(eq(releases.id, r.id)).returning().get()!;
    changes.event(project, "release_updated", { release_id: r.publicId, name, tag });
    return updated;
  });
  changes.notify(project.id);
  return row;
}

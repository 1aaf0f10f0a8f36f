import { and, desc, eq } from "drizzle-orm";
import { readFile } from "node:fs/promises";
import { bundlePath } from "../bundles/layout.ts";
import { conflict } from "../common/errors.ts";
import { compareCodePoints } from "../common/text.ts";
import type { Db } from "../storage/db.ts";
import { releaseLanguages, releases, type ProjectRow, type ReleaseRow } from "../storage/schema.ts";
import { DIFF_LIST_MAX } from "./limits.ts";
import { findRelease } from "./releases.ts";
import { takeSnapshot } from "./snapshot.ts";

/** docs/releases.md "Diff": what the after side (`:rid`) changes against the before side. */
export interface ReleaseDiff {
  added: string[];
  removed: string[];
  changed: { key: string; language_code: string; before: string | null; after: string | null }[];
  languages_added: string[];
  languages_removed: string[];
  truncated: boolean;
  counts: { added: number; removed: number; changed: number };
}

/** One side of a diff: each language's values by key. */
type Content = Map<string, Map<string, string>>;

const EMPTY: Content = new Map();

/**
 * A published release's content, from the JSON file of each language it shipped: the JSON bundle
 * is a flat mapping of key to value, exactly what was published (docs/product.md §3), so a diff
 * never depends on how translations changed since.
 */
async function publishedContent(db: Db, dataDir: string, release: ReleaseRow): Promise<Content> {
  const content: Content = new Map();
  const codes = db.select({ code: releaseLanguages.code }).from(releaseLanguages).where(eq(releaseLanguages.releaseId, release.id)).all();
  for (const { code } of codes) {
    const parsed = JSON.parse(await readFile(bundlePath(dataDir, release.publicId, code, "json"), "utf8")) as Record<string, string>;
    content.set(code, new Map(Object.entries(parsed)));
  }
  return content;
}

/** A draft's side: what publishing it now would ship (the snapshot a publish takes). */
function draftContent(db: Db, project: ProjectRow): Content {
  const snapshot = takeSnapshot(db, project.id);
  const content: Content = new Map();
  for (const lang of snapshot.languages) {
    const values = new Map<string, string>();
    lang.values.forEach((v, i) => {
      if (v !== undefined) values.set(snapshot.keys[i]!, v);
    });
    content.set(lang.code, values);
  }
  return content;
}

function latestPublished(db: Db, project: ProjectRow): ReleaseRow | undefined {
  return db
    .select()
    .from(releases)
    .where(and(eq(releases.projectId, project.id), eq(releases.status, "published")))
    .orderBy(desc(releases.publishedAt), desc(releases.id))
    .limit(1)
    .get();
}

function keysOf(content: Content): Set<string> {
  const keys = new Set<string>();
  for (const values of content.values()) for (const key of values.keys()) keys.add(key);
  return keys;
}

/**
 * Compares two sides in one pass over each, with hash maps (linear in the values, never a query per
 * key): `added`/`removed` are keys on one side only; `changed` each (key, language) of a key on
 * both sides, in a language on both sides, whose value differs (`null` where a side has none).
 * Lists stop at DIFF_LIST_MAX entries each; the counts are whole.
 */
export function compareContents(before: Content, after: Content): ReleaseDiff {
  const beforeKeys = keysOf(before);
  const afterKeys = keysOf(after);
  const added = [...afterKeys].filter((k) => !beforeKeys.has(k)).sort(compareCodePoints);
  const removed = [...beforeKeys].filter((k) => !afterKeys.has(k)).sort(compareCodePoints);
  const languages = [...after.keys()].filter((c) => before.has(c)).sort(compareCodePoints);
  const both = [...afterKeys].filter((k) => beforeKeys.has(k)).sort(compareCodePoints);
  const changed: ReleaseDiff["changed"] = [];
  let changedCount = 0;
  for (const key of both) {
    for (const code of languages) {
      const b = before.get(code)!.get(key) ?? null;
      const a = after.get(code)!.get(key) ?? null;
      if (a === b) continue;
      changedCount++;
      if (changed.length < DIFF_LIST_MAX) changed.push({ key, language_code: code, before: b, after: a });
    }
  }
  const truncated = added.length > DIFF_LIST_MAX || removed.length > DIFF_LIST_MAX || changedCount > DIFF_LIST_MAX;
  return {
    added: added.slice(0, DIFF_LIST_MAX),
    removed: removed.slice(0, DIFF_LIST_MAX),
    changed,
    languages_added: [...after.keys()].filter((c) => !before.has(c)).sort(compareCodePoints),
    languages_removed: [...before.keys()].filter((c) => !after.has(c)).sort(compareCodePoints),
    truncated,
    counts: { added: added.length, removed: removed.length, changed: changedCount },
  };
}

/**
 * `GET /projects/:pid/releases/:rid/diff?against=latest|<rid>` (docs/releases.md "Diff"): `:rid`
 * is the after side (a draft: what publishing now would ship); `against` a published release, or
 * `latest` (the default; with nothing published, everything is added).
 */
export async function diffRelease(db: Db, dataDir: string, project: ProjectRow, releasePublicId: string, against = "latest"): Promise<ReleaseDiff> {
  const release = findRelease(db, project, releasePublicId);
  let base: ReleaseRow | undefined;
  if (against === "latest") base = latestPublished(db, project);
  else {
    base = findRelease(db, project, against);
    if (base.status !== "published") throw conflict("a diff compares against a published release (or latest); this one is a draft");
  }
  const after = release.status === "published" ? await publishedContent(db, dataDir, release) : draftContent(db, project);
  const before = base ? await publishedContent(db, dataDir, base) : EMPTY;
  return compareContents(before, after);
}

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

/**
 * One side of a diff: its languages, and each language's values by key, loaded one language at a
 * time so that two sides of a large project (100,000 keys in 50 languages) are never all in
 * memory at once.
 */
export interface Side {
  languages: string[];
  values(code: string): Promise<Map<string, string>>;
}

const EMPTY: Side = { languages: [], values: async () => new Map() };

/**
 * A published release's side, from the JSON file of each language it shipped: the JSON bundle is
 * a flat mapping of key to value, exactly what was published (docs/product.md §3), so a diff never
 * depends on how translations changed since.
 */
function publishedSide(db: Db, dataDir: string, release: ReleaseRow): Side {
  const languages = db.select({ code: releaseLanguages.code }).from(releaseLanguages).where(eq(releaseLanguages.releaseId, release.id)).all().map((l) => l.code);
  return {
    languages,
    async values(code) {
      const parsed = JSON.parse(await readFile(bundlePath(dataDir, release.publicId, code, "json"), "utf8")) as Record<string, string>;
      return new Map(Object.entries(parsed));
    },
  };
}

/** A draft's side: what publishing it now would ship (the snapshot a publish takes). */
function draftSide(db: Db, project: ProjectRow): Side {
  const snapshot = takeSnapshot(db, project.id);
  const byCode = new Map(snapshot.languages.map((l) => [l.code, l]));
  return {
    languages: snapshot.languages.map((l) => l.code),
    async values(code) {
      const values = new Map<string, string>();
      byCode.get(code)!.values.forEach((v, i) => {
        if (v !== undefined) values.set(snapshot.keys[i]!, v);
      });
      return values;
    },
  };
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

/** Every key a side has a value for, in any language. */
async function keysOf(side: Side): Promise<Set<string>> {
  const keys = new Set<string>();
  for (const code of side.languages) for (const key of (await side.values(code)).keys()) keys.add(key);
  return keys;
}

type Change = ReleaseDiff["changed"][number];
const byKeyThenLanguage = (a: Change, b: Change) => compareCodePoints(a.key, b.key) || compareCodePoints(a.language_code, b.language_code);

/**
 * Compares two sides with hash maps, linear in the values and never a query per key, one language
 * at a time: a first pass finds each side's keys, a second compares the languages both sides have.
 * `added`/`removed` are keys on one side only; `changed` each (key, language) of a key on both
 * sides, in a language on both sides, whose value differs (`null` where a side has none), in key
 * then language order. Lists stop at DIFF_LIST_MAX entries each (only the first ones in that order
 * are kept while comparing); the counts are whole.
 */
export async function compareSides(before: Side, after: Side): Promise<ReleaseDiff> {
  const beforeKeys = await keysOf(before);
  const afterKeys = await keysOf(after);
  const added = [...afterKeys].filter((k) => !beforeKeys.has(k)).sort(compareCodePoints);
  const removed = [...beforeKeys].filter((k) => !afterKeys.has(k)).sort(compareCodePoints);
  const beforeLanguages = new Set(before.languages);
  const afterLanguages = new Set(after.languages);
  let changed: Change[] = [];
  let changedCount = 0;
  for (const code of after.languages.filter((c) => beforeLanguages.has(c))) {
    const [b, a] = [await before.values(code), await after.values(code)];
    const found: Change[] = [];
    const look = (key: string) => {
      if (!beforeKeys.has(key) || !afterKeys.has(key)) return;
      const was = b.get(key) ?? null;
      const now = a.get(key) ?? null;
      if (was === now) return;
      changedCount++;
      found.push({ key, language_code: code, before: was, after: now });
    };
    for (const key of a.keys()) look(key);
    for (const key of b.keys()) if (!a.has(key)) look(key);
    // Keep only the first DIFF_LIST_MAX in key then language order across the languages so far.
    changed = changed.concat(found).sort(byKeyThenLanguage).slice(0, DIFF_LIST_MAX);
  }
  return {
    added: added.slice(0, DIFF_LIST_MAX),
    removed: removed.slice(0, DIFF_LIST_MAX),
    changed,
    languages_added: after.languages.filter((c) => !beforeLanguages.has(c)).sort(compareCodePoints),
    languages_removed: before.languages.filter((c) => !afterLanguages.has(c)).sort(compareCodePoints),
    truncated: added.length > DIFF_LIST_MAX || removed.length > DIFF_LIST_MAX || changedCount > DIFF_LIST_MAX,
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
  const after = release.status === "published" ? publishedSide(db, dataDir, release) : draftSide(db, project);
  const before = base ? publishedSide(db, dataDir, base) : EMPTY;
  return compareSides(before, after);
}

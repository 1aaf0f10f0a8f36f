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

/** One language's values by key: a JSON file as parsed, so a key is looked up as an own property. */
export type Values = Record<string, string>;

const valueOf = (values: Values, key: string): string | null => (Object.hasOwn(values, key) ? values[key]! : null);

/**
 * One side of a diff: its languages, and each language's values, loaded one language at a time
 * so that two sides of a large project (100,000 keys in 50 languages) are never all in memory at
 * once.
 */
export interface Side {
  languages: string[];
  values(code: string): Promise<Values>;
}

const EMPTY: Side = { languages: [], values: async () => ({}) };

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
      return JSON.parse(await readFile(bundlePath(dataDir, release.publicId, code, "json"), "utf8")) as Values;
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
      const values: Values = Object.create(null);
      byCode.get(code)!.values.forEach((v, i) => {
        if (v !== undefined) values[snapshot.keys[i]!] = v;
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

type Change = ReleaseDiff["changed"][number];
const byKey = (a: Change, b: Change) => compareCodePoints(a.key, b.key);
const byKeyThenLanguage = (a: Change, b: Change) => compareCodePoints(a.key, b.key) || compareCodePoints(a.language_code, b.language_code);

/**
 * Compares two sides in one pass over their languages, reading each language of each side once,
 * with hash lookups (linear in the values; never a query per key). Each side's keys are gathered
 * on the way; the values that differ in a language both sides have are kept as candidates, and at
 * the end those of keys present on both sides are the changes. So memory holds one language of
 * each side at a time, plus the differing values.
 *
 * `added`/`removed` are keys on one side only; `changed` each (key, language) of a key on both
 * sides, in a language on both sides, whose value differs (`null` where a side has none), in key
 * then language order. Lists stop at DIFF_LIST_MAX entries each; the counts are whole.
 */
export async function compareSides(before: Side, after: Side): Promise<ReleaseDiff> {
  const beforeKeys = new Set<string>();
  const afterKeys = new Set<string>();
  const beforeLanguages = new Set(before.languages);
  const afterLanguages = new Set(after.languages);
  const candidates: Change[][] = [];
  for (const code of new Set([...before.languages, ...after.languages])) {
    const b = beforeLanguages.has(code) ? await before.values(code) : undefined;
    const a = afterLanguages.has(code) ? await after.values(code) : undefined;
    if (b) for (const key in b) beforeKeys.add(key);
    if (a) for (const key in a) afterKeys.add(key);
    if (!a || !b) continue;
    const found: Change[] = [];
    for (const key in a) {
      const was = valueOf(b, key);
      if (was !== a[key]) found.push({ key, language_code: code, before: was, after: a[key]! });
    }
    for (const key in b) if (!Object.hasOwn(a, key)) found.push({ key, language_code: code, before: b[key]!, after: null });
    candidates.push(found);
  }
  const added = [...afterKeys].filter((k) => !beforeKeys.has(k)).sort(compareCodePoints);
  const removed = [...beforeKeys].filter((k) => !afterKeys.has(k)).sort(compareCodePoints);
  let changedCount = 0;
  let first: Change[] = [];
  for (const found of candidates) {
    const real = found.filter((c) => beforeKeys.has(c.key) && afterKeys.has(c.key));
    changedCount += real.length;
    // The first DIFF_LIST_MAX of each language, then of all of them.
    first = first.concat(real.sort(byKey).slice(0, DIFF_LIST_MAX));
  }
  return {
    added: added.slice(0, DIFF_LIST_MAX),
    removed: removed.slice(0, DIFF_LIST_MAX),
    changed: first.sort(byKeyThenLanguage).slice(0, DIFF_LIST_MAX),
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

import { compareCodePoints } from "../common/text.ts";
import type { BundleKeys, BundleLanguage } from "../formats/format.ts";
import { languageHasForm, pluralFormIn } from "../messages/plural-forms.ts";
import { PluralCatalog } from "../messages/plurals.ts";
import type { MessageSyntax } from "../messages/read.ts";
import { beginReading, openReadOnly, type Db } from "../storage/db.ts";
import { prepareSnapshotQueries } from "./queries.ts";

/**
 * Publishing snapshots, at that moment, every language of the project and every key's current
 * translation (docs/product.md §3). Read in one synchronous pass, so no edit can land half-way (the
 * server's JavaScript runs one request at a time between awaits).
 */
export interface SnapshotLanguage extends BundleLanguage {
  name: string;
  isBase: boolean;
}

/** Keys in code-point order; each language's values aligned with them. */
export interface Snapshot extends BundleKeys {
  /** The keys' public ids, aligned with `keys` (problems name the key they are in). */
  keyIds: string[];
  languages: SnapshotLanguage[];
  /** The project's message syntax at that moment (docs/product.md §7). */
  syntax: MessageSyntax;
}

/**
 * Each language's file carries the i18next plural forms that language has (docs/messages.md
 * "i18next plural forms"): a value for a form it does not use (`items_many` in English) is left out.
 */
function unusedFormsLeaver(keys: string[]): (lang: { code: string; values: (string | undefined)[] }) => void {
  const names = new Set(keys);
  const forms = keys.flatMap((k, i) => {
    const form = pluralFormIn(k, names);
    return form ? [{ i, form }] : [];
  });
  const catalog = new PluralCatalog();
  return (lang) => {
    const plurals = catalog.of(lang.code);
    for (const { i, form } of forms) if (!languageHasForm(form, plurals)) lang.values[i] = undefined;
  };
}

/** What every snapshot says of the project's keys, in key order (the files' order). */
function keysOf(
  keyRows: { key: string; publicId: string; context: string | null; arbMetadata: string | null; translatable: number }[],
  project: { syntax: MessageSyntax; arbAttributes: string | null },
) {
  return {
    keys: keyRows.map((k) => k.key),
    keyIds: keyRows.map((k) => k.publicId),
    syntax: project.syntax,
    contexts: new Map(keyRows.map((k) => [k.key, k.context])),
    arbMetadata: new Map(keyRows.filter((k) => k.arbMetadata !== null).map((k) => [k.key, k.arbMetadata!])),
    arbAttributes: project.arbAttributes,
    notTranslatable: new Set(keyRows.filter((k) => !k.translatable).map((k) => k.key)),
  };
}

export function takeSnapshot(db: Db, projectId: number): Snapshot {
  const q = prepareSnapshotQueries(db);
  const project = q.project.get(projectId);
  if (!project) throw new Error(`project ${projectId} vanished`);
  const keyRows = q.keys.all(projectId).sort((a, b) => compareCodePoints(a.key, b.key));
  const position = new Map<number, number>();
  keyRows.forEach((k, i) => position.set(k.id, i));
  const languages = q.languages.all(projectId).map((l) => {
    const values = new Array<string | undefined>(keyRows.length);
    const isBase = l.code === project.base;
    // docs/releases.md "Reviewed strings only": every language but the base ships approved values.
    const source = project.approvedOnly && !isBase ? q.approvedValues : q.values;
    for (const [keyId, value] of source.values(l.id) as [number, string][]) {
      const at = position.get(keyId);
      if (at !== undefined) values[at] = value;
    }
    return { code: l.code, name: l.name, isBase, values };
  });
  if (project.syntax === "i18next") languages.forEach(unusedFormsLeaver(keyRows.map((k) => k.key)));
  return { ...keysOf(keyRows, project), languages };
}

/**
 * A snapshot read one language at a time (docs/publishing.md §7: a publish of 5 million values within
 * 600 MB): the keys and languages are read when it opens, each language's values when asked for,
 * all inside one read transaction on a connection of its own. WAL keeps that transaction's view
 * of the database for as long as it is open, so every language is read as it was at the moment
 * the snapshot was opened, whatever is written meanwhile, while the server's own connection goes
 * on writing. Close it when done (a long-open reader holds back the WAL checkpoint).
 */
export interface SnapshotSource extends BundleKeys {
  keyIds: string[];
  syntax: MessageSyntax;
  languages: { code: string; name: string; isBase: boolean }[];
  /** One language's values, aligned with `keys`; undefined where a key has none. */
  valuesOf(code: string): (string | undefined)[];
  close(): void;
}

/**
 * What a publish itself needs of its snapshot when threads read the values (compile-threads.ts):
 * the languages shipped, the number of keys, and the message syntax.
 */
export interface SnapshotView {
  languages: { code: string; name: string; isBase: boolean }[];
  keyCount: number;
  syntax: MessageSyntax;
}

/** The view as `db` reads it now; inside a read (or the write lock) it is of that moment. */
export function readSnapshotView(db: Db, projectId: number): SnapshotView {
  const q = prepareSnapshotQueries(db);
  const project = q.project.get(projectId);
  if (!project) throw new Error(`project ${projectId} vanished`);
  const keyCount = q.keyCount.get(projectId)?.n ?? 0;
  return { languages: q.languages.all(projectId).map((l) => ({ code: l.code, name: l.name, isBase: l.code === project.base })), keyCount, syntax: project.syntax };
}

export function openSnapshot(db: Db, projectId: number): SnapshotSource {
  return openSnapshotOf(db.$client.filename, projectId);
}

/**
 * The same snapshot, of the database file at `path`: a publish's compiling threads open one each
 * (compile-threads.ts). `opened` is called once the read transaction holds its view of the
 * database, before the keys are read.
 */
export function openSnapshotOf(path: string, projectId: number, opened?: () => void): SnapshotSource {
  const reader = openReadOnly(path);
  try {
    beginReading(reader);
    const q = prepareSnapshotQueries(reader);
    // The first read starts the transaction's view (SQLite's BEGIN is deferred).
    const project = q.project.get(projectId);
    opened?.();
    if (!project) throw new Error(`project ${projectId} vanished`);
    const keyRows = q.keys.all(projectId).sort((a, b) => compareCodePoints(a.key, b.key));
    const position = new Map<number, number>();
    keyRows.forEach((k, i) => position.set(k.id, i));
    const languageRows = q.languages.all(projectId);
    const ids = new Map(languageRows.map((l) => [l.code, l.id]));
    const leaveOutUnusedForms = project.syntax === "i18next" ? unusedFormsLeaver(keyRows.map((k) => k.key)) : undefined;
    return {
      ...keysOf(keyRows, project),
      languages: languageRows.map((l) => ({ code: l.code, name: l.name, isBase: l.code === project.base })),
      valuesOf(code) {
        const values = new Array<string | undefined>(keyRows.length);
        // docs/releases.md "Reviewed strings only": every language but the base ships approved values.
        const source = project.approvedOnly && code !== project.base ? q.approvedValues : q.values;
        for (const [keyId, value] of source.values(ids.get(code)!) as [number, string][]) {
          const at = position.get(keyId);
          if (at !== undefined) values[at] = value;
        }
        leaveOutUnusedForms?.({ code, values });
        return values;
      },
      close() {
        reader.$client.close();
      },
    };
  } catch (err) {
    reader.$client.close();
    throw err;
  }
}

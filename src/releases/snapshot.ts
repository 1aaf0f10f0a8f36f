import { compareCodePoints } from "../common/text.ts";
import type { BundleKeys, BundleLanguage } from "../formats/format.ts";
import { languageHasForm, pluralFormIn } from "../messages/plural-forms.ts";
import { PluralCatalog } from "../messages/plurals.ts";
import type { MessageSyntax } from "../messages/read.ts";
import type { Db } from "../storage/db.ts";
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
function leaveOutUnusedForms(keys: string[], languages: { code: string; values: (string | undefined)[] }[]): void {
  const names = new Set(keys);
  const forms = keys.flatMap((k, i) => {
    const form = pluralFormIn(k, names);
    return form ? [{ i, form }] : [];
  });
  const catalog = new PluralCatalog();
  for (const lang of languages) {
    const plurals = catalog.of(lang.code);
    for (const { i, form } of forms) if (!languageHasForm(form, plurals)) lang.values[i] = undefined;
  }
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
    for (const [keyId, value] of q.values.values(l.id) as [number, string][]) {
      const at = position.get(keyId);
      if (at !== undefined) values[at] = value;
    }
    return { code: l.code, name: l.name, isBase: l.code === project.base, values };
  });
  if (project.syntax === "i18next") leaveOutUnusedForms(keyRows.map((k) => k.key), languages);
  return {
    keys: keyRows.map((k) => k.key),
    keyIds: keyRows.map((k) => k.publicId),
    syntax: project.syntax,
    contexts: new Map(keyRows.map((k) => [k.key, k.context])),
    arbMetadata: new Map(keyRows.filter((k) => k.arbMetadata !== null).map((k) => [k.key, k.arbMetadata!])),
    arbAttributes: project.arbAttributes,
    languages,
  };
}

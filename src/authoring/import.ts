import { eq } from "drizzle-orm";
import type { Actor } from "../changes/actor.ts";
import { badRequest, HttpError } from "../common/errors.ts";
import { newId } from "../common/ids.ts";
import type { ServiceDeps } from "../deps.ts";
import { arbNames } from "../formats/arb-names.ts";
import { parseImport, type ImportEntry, type ImportFormat } from "../formats/parse.ts";
import { translationKeys, translations, type ProjectRow } from "../storage/schema.ts";
import { checkValue, cleanContext, cleanKey } from "./keys.ts";
import { findLanguage } from "./languages.ts";
import { prepareImportQueries } from "./queries.ts";

export interface ImportResult {
  created_keys: number;
  updated_translations: number;
}

/** Re-words a field error from the key helpers so it names the entry of the file at fault. */
function checked<T>(key: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof HttpError && err.status === 400) throw badRequest(`invalid field "content": entry "${key}": ${err.message.replace(/^invalid field /, "")}`);
    throw err;
  }
}

/**
 * An ARB message name is matched to the project key that derives it (so a file this service
 * compiled imports back onto the same keys); a name no key derives becomes a key of its own.
 */
function arbKeyMap(existingKeys: string[]): Map<string, string> {
  const byName = new Map<string, string>();
  for (const [key, name] of arbNames(existingKeys)) byName.set(name, key);
  return byName;
}

/**
 * Import (docs/product.md §4): creates missing keys and sets this language's translations, each a
 * history entry by `actor` (via "import"), emitting the same
 * events the authoring routes do (key_created, key_updated for a changed ARB description,
 * translation_created, translation_updated). Every entry is checked before anything is written and
 * all writes share one transaction: a bad file changes nothing.
 */
export function importTranslations(
  { db, clock, changes }: ServiceDeps,
  project: ProjectRow,
  input: { language_code: string; format: ImportFormat; content: string },
  actor: Actor,
): ImportResult {
  let language;
  try {
    language = findLanguage(db, project, input.language_code);
  } catch {
    throw badRequest(`invalid field "language_code": ${input.language_code} is not a language of this project`);
  }
  const parsed = parseImport(input.format, input.content);
  if (parsed.locale !== undefined && parsed.locale.replace(/_/g, "-").toLowerCase() !== language.code.toLowerCase()) {
    throw badRequest(`invalid field "content": its @@locale "${parsed.locale}" is not ${language.code}`);
  }
  const existing = new Map(
    db
      .select({ id: translationKeys.id, key: translationKeys.key, context: translationKeys.context })
      .from(translationKeys)
      .where(eq(translationKeys.projectId, project.id))
      .all()
      .map((k) => [k.key, k]),
  );
  const nameToKey = input.format === "arb" ? arbKeyMap([...existing.keys()]) : null;
  const entries = new Map<string, ImportEntry>();
  for (const entry of parsed.entries) {
    const key = nameToKey?.get(entry.key) ?? entry.key;
    checked(entry.key, () => {
      cleanKey(key);
      checkValue(entry.value);
      cleanContext(entry.description);
    });
    entries.set(key, { ...entry, key });
  }
  const current = new Map(
    db
      .select({ keyId: translations.keyId, value: translations.value })
      .from(translations)
      .where(eq(translations.languageId, language.id))
      .all()
      .map((t) => [t.keyId, t.value]),
  );

  const { insertKey, updateContext, insertValue, updateValue, insertHistory } = prepareImportQueries(db);
  const result: ImportResult = { created_keys: 0, updated_translations: 0 };
  db.transaction(() => {
    const now = clock.now();
    for (const { key, value, description } of entries.values()) {
      const context = cleanContext(description);
      let row = existing.get(key);
      if (!row) {
        row = { id: insertKey.get(newId("key"), project.id, key, context, now, now)!.id, key, context };
        existing.set(key, row);
        changes.event(project, "key_created", { key, context });
        result.created_keys++;
      } else if (context !== null && context !== row.context) {
        updateContext.run(context, now, row.id);
        changes.event(project, "key_updated", { key, context });
      }
      const before = current.get(row.id);
      if (before === value) continue;
      if (before === undefined) insertValue.run(row.id, language.id, value, now);
      else updateValue.run(value, now, row.id, language.id);
      insertHistory.run(row.id, language.id, value, before ?? null, actor.kind, actor.publicId, actor.name, now);
      changes.event(project, before === undefined ? "translation_created" : "translation_updated", {
        key,
        language_code: language.code,
        value,
        status: "translated",
      });
      result.updated_translations++;
    }
  });
  changes.notify(project.id);
  return result;
}

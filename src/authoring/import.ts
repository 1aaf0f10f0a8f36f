import type { Actor } from "../changes/actor.ts";
import { badRequest, HttpError } from "../common/errors.ts";
import { newId } from "../common/ids.ts";
import type { ServiceDeps } from "../deps.ts";
import { arbNames } from "../formats/arb-names.ts";
import type { Entry as ImportEntry } from "../formats/format.ts";
import { splitPlural } from "../formats/plural-forms.ts";
import { checkImportSize } from "../formats/read.ts";
import { formatNamed, isMultiLanguage, readFile, type FormatName } from "../formats/registry.ts";
import { readMessage } from "../messages/read.ts";
import { HINT_SAMPLE, syntaxHint, type ErroredValue, type SyntaxHint } from "../messages/hint.ts";
import type { LanguageRow, ProjectRow } from "../storage/schema.ts";
import { checkValue, cleanContext, cleanKey } from "./keys.ts";
import { clipped } from "../common/text.ts";
import { findLanguage } from "./languages.ts";
import type { ImportInput } from "./model.ts";

export type { ImportInput };
import { ProjectChecks, type Findings } from "./checks.ts";
import { ProjectPluralForms } from "./plural-forms.ts";
import { prepareImportQueries } from "./queries.ts";
import { HISTORY_KEPT_PER_CELL } from "./limits.ts";


export type ChangeKind = "created" | "updated" | "deleted";

export interface ImportResult {
  /** Keys the file added to the project. */
  created_keys: number;
  /** Translations in this language written: new ones (of new keys too) and changed ones. */
  updated_translations: number;
  /** Keys the project had whose value in this language, context or "do not translate" mark the file changed. */
  updated_keys: number;
  /** Entries that changed nothing: created_keys + updated_keys + unchanged is the file's entries. */
  unchanged: number;
  /** Keys deleted because the file lacks them (`delete_missing`). */
  deleted_keys: number;
  /** The file's values that the message checks found a problem in, as stored after the import. */
  problems: number;
  /** Error findings among the file's values (a CI gate: `phrasebook push --fail-on-errors`). */
  errors: number;
  /** The file's findings one by one, in key order: the first IMPORT_PROBLEMS_LISTED. */
  problem_items: { key: string; language_code: string; code: string; severity: "error" | "warning"; message: string }[];
  /** One line per key that changed: created, updated (its value or its context) or deleted. */
  changes: { key: string; change: ChangeKind }[];
  changes_truncated?: true;
  /** The languages the file set, when it holds several (XLIFF, `.xcstrings`; docs/formats.md "Languages"). */
  languages?: string[];
  /**
   * Strings not written because the file's source text (a PO `msgid`, an XLIFF `<source>`)
   * differs from the stored base string (docs/formats.md "Languages"): the translation, and the
   * XLIFF source itself; listed like `changes`.
   */
  source_differs?: { key: string; language_code: string; file_source: string; base_value: string }[];
  /** When most of the file's errors look like another message syntax: which, and how to set it (docs/messages.md "Hints"). */
  syntax_hint?: SyntaxHint;
}

/** At most this many `changes` are listed (docs/product.md §6). */
export const IMPORT_CHANGES_LISTED = 1000;
/** At most this many findings are listed in `problem_items`; `problems` and `errors` count them all. */
export const IMPORT_PROBLEMS_LISTED = 100;

/** Re-words a field error from the key helpers so it names the entry of the file at fault. */
function checked<T>(key: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof HttpError && err.status === 400) throw badRequest(`invalid field "content": entry "${clipped(key)}": ${err.message.replace(/^invalid field /, "")}`);
    throw err;
  }
}

/**
 * The checks that need no file content: the language when the request names one (a file that
 * names its own languages needs none: docs/formats.md "Languages"), `delete_missing` only for the
 * base language, and the file's size. Cheap, so a caller runs them before queueing the import.
 */
export function checkImportRequest(deps: Pick<ServiceDeps, "db">, project: ProjectRow, input: ImportInput): LanguageRow | null {
  const language = input.language_code === undefined ? null : requestedLanguage(deps, project, input.language_code);
  if (input.delete_missing && language && language.code !== project.baseLanguageCode) {
    throw badRequest(`invalid field "delete_missing": only an import of the base language (${project.baseLanguageCode}) may delete keys`);
  }
  if (input.base !== undefined && !input.dry_run) {
    throw badRequest(`invalid field "base": only a dry run takes the base language's file (an import of it is its own request)`);
  }
  checkImportSize(input.content);
  if (input.base !== undefined) checkImportSize(input.base.content);
  return language;
}

/** The `base` of a dry run as an import of the base language (docs/automation.md "Checking a pull request"). */
function baseImport(project: ProjectRow, base: NonNullable<ImportInput["base"]>): ImportInput {
  return { format: base.format, content: base.content, language_code: project.baseLanguageCode, dry_run: true };
}

function requestedLanguage(deps: Pick<ServiceDeps, "db">, project: ProjectRow, code: string): LanguageRow {
  try {
    return findLanguage(deps.db, project, code);
  } catch {
    throw badRequest(`invalid field "language_code": ${code} is not a language of this project`);
  }
}

/** The language of the project a file's locale names (`pt_BR` names `pt-BR`), or a 400 naming it. */
function languageOfLocale(deps: Pick<ServiceDeps, "db">, project: ProjectRow, locale: string): LanguageRow {
  try {
    return findLanguage(deps.db, project, locale.replace(/_/g, "-"));
  } catch {
    throw badRequest(`invalid field "content": the file holds ${locale}, which is not a language of this project (add it first, or import one language with language_code)`);
  }
}

/** One language's entries of a file, to be set in `language`. */
interface LanguageEntries {
  language: LanguageRow;
  entries: ImportEntry[];
}

interface ReadFile {
  sets: LanguageEntries[];
  /** The file's own attributes (ARB `@@` entries other than `@@locale` and `@@last_modified`). */
  attributes: Readonly<Record<string, unknown>> | undefined;
}

/** The placeholder types gen-l10n takes for a plural's and a select's argument (docs/formats.md "What gen-l10n accepts"). */
const TYPES_OF_KIND: Partial<Record<string, readonly string[]>> = { plural: ["num", "int"], selectordinal: ["num", "int"], select: ["String"] };

/**
 * A template that declares a plural's placeholder as anything but `num` or `int` (or a select's as
 * anything but `String`) is refused, as gen-l10n refuses to build it. Read in the project's
 * syntax (ICU for `text` and `i18next`, whose values have no plurals of their own).
 */
function checkPlaceholderKinds(entry: ImportEntry, syntax: ProjectRow["messageSyntax"]): void {
  const placeholders = entry.attributes?.placeholders as Record<string, { type?: unknown }> | undefined;
  if (!placeholders) return;
  const read = readMessage(entry.value, syntax === "flutter" ? "flutter" : "icu");
  for (const arg of read.arguments) {
    const allowed = TYPES_OF_KIND[arg.kind];
    const type = placeholders[arg.name]?.type;
    if (allowed && typeof type === "string" && !allowed.includes(type)) {
      throw badRequest(`invalid field "content": "@${entry.key}".placeholders.${arg.name}.type is "${type}", but {${arg.name}} is a ${arg.kind}, which gen-l10n takes only as ${allowed.join(" or ")}`);
    }
  }
}

/**
 * The file's entries by language, every one checked (key rules of the key editor, value length)
 * before anything is read from the database: a bad file changes nothing. A one-language file sets
 * the request's `language_code` (or the language it names); a file of several languages sets
 * each (the source language first), or only `language_code` when the request names one.
 */
async function readEntries(deps: Pick<ServiceDeps, "db">, project: ProjectRow, input: ImportInput, requested: LanguageRow | null): Promise<ReadFile> {
  const parsed = await readFile(input.format, input.content);
  const sets: LanguageEntries[] = [];
  if (!isMultiLanguage(input.format)) {
    const only = parsed.languages[0]!;
    if (requested && only.locale !== undefined && only.locale.replace(/_/g, "-").toLowerCase() !== requested.code.toLowerCase()) {
      throw badRequest(`invalid field "content": its ${input.format === "arb" ? "@@locale" : "language"} "${only.locale}" is not ${requested.code}`);
    }
    const language = requested ?? (only.locale !== undefined ? languageOfLocale(deps, project, only.locale) : null);
    if (!language) throw badRequest(`invalid field "language_code": the file names no language, so say which language it is`);
    sets.push({ language, entries: only.entries });
  } else {
    // The source language first: a target's source text is compared with the base as it will be.
    const ordered = [...parsed.languages].sort((a, b) => Number(b.locale === parsed.source) - Number(a.locale === parsed.source));
    // A file whose source language is not the base states no base strings to compare with.
    const sourceIsBase = parsed.source === undefined || parsed.source.replace(/_/g, "-").toLowerCase() === project.baseLanguageCode.toLowerCase();
    for (const fileLanguage of ordered) {
      const language = languageOfLocale(deps, project, fileLanguage.locale ?? "");
      if (!sourceIsBase) fileLanguage.entries = fileLanguage.entries.map(({ source: _, ...entry }) => entry);
      if (requested && language.id !== requested.id) continue;
      sets.push({ language, entries: fileLanguage.entries });
    }
    if (requested && sets.length === 0) {
      throw badRequest(`invalid field "language_code": the file holds ${parsed.languages.map((l) => l.locale).join(", ")}, not ${requested.code}`);
    }
  }
  for (const set of sets) {
    const base = set.language.code === project.baseLanguageCode;
    const template = input.format === "arb" && base;
    // An entry without a value: a PO msgstr left empty (the base language takes its msgid), a
    // string marked not to translate in another language. Neither is a translation. (An ARB
    // translation file repeats the `@` entries, ours in every language: its mark is the template's
    // and says nothing of the translation beside it; docs/formats.md "Not translatable".)
    const marksValues = input.format !== "arb";
    set.entries = set.entries
      .map((e) => (e.value === "" && e.source !== undefined ? (base ? { ...e, value: e.source } : null) : e))
      .filter((e): e is ImportEntry => e !== null && (base || !marksValues || e.translatable !== false));
    for (const entry of set.entries) {
      checked(entry.key, () => {
        cleanKey(entry.key);
        checkValue(entry.value);
        cleanContext(entry.description);
      });
      if (template && entry.attributes) checkPlaceholderKinds(entry, project.messageSyntax);
    }
  }
  if (input.delete_missing) {
    const baseSet = sets.find((s) => s.language.code === project.baseLanguageCode);
    if (!baseSet) throw badRequest(`invalid field "delete_missing": only an import of the base language (${project.baseLanguageCode}) may delete keys, and the file does not hold it`);
    if (baseSet.entries.length === 0) {
      throw badRequest(`invalid field "delete_missing": the file has no entries, so every key would be deleted; delete keys in the dashboard instead`);
    }
  }
  return { sets, attributes: parsed.attributes };
}

/**
 * Whether a file's source text is the stored base string: equal, or for a plural the forms the
 * file gives (a PO `msgid`/`msgid_plural` are one/other) equal to the stored ones.
 */
function sameSource(fileSource: string, stored: string): boolean {
  if (fileSource === stored) return true;
  const a = splitPlural(fileSource, "#");
  const b = splitPlural(stored, "#");
  if (!a || !b) return false;
  for (const [selector, text] of a.forms) if (b.forms.get(selector) !== text) return false;
  return true;
}

/**
 * An ARB message name is matched to the project key that derives it (so a file this service
 * compiled imports back onto the same keys); a name no key derives becomes a key of its own.
 */
function arbKeyMap(existingKeys: Iterable<string>): Map<string, string> {
  const byName = new Map<string, string>();
  for (const [key, name] of arbNames([...existingKeys])) byName.set(name, key);
  return byName;
}

/** Thrown to roll a dry run back once its result is known. */
class DryRun {
  constructor(readonly result: ImportResult) {}
}

/**
 * Import as sync (docs/product.md §4, §6; docs/publishing.md §6): creates missing keys and sets
 * this language's translations, each a history entry by `actor` (via "import"); with
 * `delete_missing` deletes the keys the file lacks. Emits the events the authoring routes do
 * (key_created, key_updated for a changed ARB description, translation_created,
 * translation_updated, key_deleted).
 *
 * The file is parsed and checked first. Then one immediate write transaction reads the project's
 * keys, compares and writes, so nothing another writer did in between is lost or duplicated, and
 * a bad file or a crash changes nothing. A dry run does all of it, including what other checks
 * write, reads the result, and rolls back: it reports exactly what the import would do, and its
 * events never reach the outbox.
 *
 * The caller decides the thread (import-runner.ts runs a large file in a worker). Reading the file
 * is asynchronous (a format's parser loads on first use); everything after it is one synchronous
 * transaction.
 */
export async function importTranslations(deps: ServiceDeps, project: ProjectRow, input: ImportInput, actor: Actor): Promise<ImportResult> {
  const requested = checkImportRequest(deps, project, input);
  const file = await readEntries(deps, project, input, requested);
  // A dry run's base file is read and checked like any import, its faults named as the base's.
  const baseInput = input.base === undefined ? undefined : baseImport(project, input.base);
  const baseFile = baseInput === undefined ? undefined : await asBase(() => readEntries(deps, project, baseInput, findLanguage(deps.db, project, project.baseLanguageCode)));
  const apply = (): ImportResult => {
    if (baseInput && baseFile) applyImport(deps, project, baseInput, baseFile, actor);
    const result = applyImport(deps, project, input, file, actor);
    if (input.dry_run) throw new DryRun(result);
    return result;
  };
  let result: ImportResult;
  try {
    result = deps.db.transaction(apply, { behavior: "immediate" });
  } catch (err) {
    if (err instanceof DryRun) return err.result;
    throw err;
  }
  if (result.changes.length > 0) deps.changes.notify(project.id);
  return result;
}

/** Re-words a 400 of the base file so it names the field it came in. */
async function asBase<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof HttpError && err.status === 400) throw badRequest(err.message.replace(/^invalid field "(content|language_code)"/, 'invalid field "base.$1"'));
    throw err;
  }
}

/**
 * One file's writes and what they found, inside the caller's transaction: creates missing keys,
 * sets the file's translations, deletes with `delete_missing`.
 */
function applyImport({ db, clock, changes }: ServiceDeps, project: ProjectRow, input: ImportInput, file: ReadFile, actor: Actor): ImportResult {
  const { sets: fileSets, attributes: fileAttributes } = file;
  // The base language's ARB is the gen-l10n template: its metadata is kept; other languages' never change it.
  const keepsArbMetadata = input.format === "arb" && fileSets[0]?.language.code === project.baseLanguageCode;
  // A base file in a format with a "do not translate" mark is the truth about it: it sets the flag and clears it (docs/formats.md "Not translatable").
  const marksTranslatable = formatNamed(input.format).marksTranslatable === true;
  const q = prepareImportQueries(db);
  const result: ImportResult = { created_keys: 0, updated_translations: 0, updated_keys: 0, unchanged: 0, deleted_keys: 0, problems: 0, errors: 0, problem_items: [], changes: [] };
  const differs: NonNullable<ImportResult["source_differs"]> = [];
  const now = clock.now();
  const checks = new ProjectChecks(db, project);
  const existing = new Map(q.projectKeys.all(project.id).map((k) => [k.key, k]));
  const nameToKey = input.format === "arb" ? arbKeyMap(existing.keys()) : null;
  /** What happened to each key of the file, over all its languages (a key is counted once). */
  const keyChange = new Map<string, ChangeKind | null>();
  const baseLanguage = findLanguage(db, project, project.baseLanguageCode);
  const baseValues = new Map(q.languageValues.all(baseLanguage.id).map((t) => [t.keyId, t.value]));
  const withProblems = new Set<string>();
  const baseKeys = new Set<string>();
  const errored: ErroredValue[] = [];

  if (keepsArbMetadata) {
    const kept = fileAttributes && Object.keys(fileAttributes).length > 0 ? JSON.stringify(fileAttributes) : null;
    if (kept !== project.arbAttributes) q.updateArbAttributes.run(kept, project.id);
  }
  const multi = isMultiLanguage(input.format);

  for (const { language, entries: fileEntries } of fileSets) {
    const isBase = language.id === baseLanguage.id;
    const current = isBase ? baseValues : new Map(q.languageValues.all(language.id).map((t) => [t.keyId, t.value]));
    const entries = new Map<string, ImportEntry>();
    for (const entry of fileEntries) {
      const key = nameToKey?.get(entry.key) ?? entry.key;
      entries.set(key, { ...entry, key });
    }
    const importedKeyIds: number[] = [];

    for (const { key, value, description, source, attributes, translatable: mark } of entries.values()) {
      if (isBase) baseKeys.add(key);
      const context = cleanContext(description);
      let row = existing.get(key);
      // A translation whose source text is not the stored base string is reported, not written.
      const stored = row ? baseValues.get(row.id) : undefined;
      // (A one-language file of the base language, such as en.po, states the base strings themselves.)
      if ((!isBase || multi) && source !== undefined && stored !== undefined && !sameSource(source, stored)) {
        if (differs.length < IMPORT_CHANGES_LISTED) differs.push({ key, language_code: language.code, file_source: source, base_value: stored });
        if (!keyChange.has(key)) keyChange.set(key, null);
        continue;
      }
      let change: ChangeKind | null = null;
      const translatable = isBase && marksTranslatable ? Number(mark !== false) : undefined;
      if (!row) {
        const flag = translatable ?? 1;
        row = { id: q.insertKey.get(newId("key"), project.id, key, context, flag, now, now)!.id, key, context, arbMetadata: null, translatable: flag };
        existing.set(key, row);
        changes.event(project, "key_created", { key, context });
        result.created_keys++;
        change = "created";
      } else if ((context !== null || (keepsArbMetadata && isBase)) && context !== row.context) {
        // The template's description is the key's context: one the template dropped is dropped (docs/formats.md "ARB metadata").
        q.updateContext.run(context, now, row.id);
        row.context = context;
        changes.event(project, "key_updated", { key, context });
        change = "updated";
      }
      if (keepsArbMetadata && isBase && attributes) {
        // Replaced as a whole: an attribute the template no longer has is gone (docs/formats.md "ARB metadata").
        const metadata = JSON.stringify(attributes);
        if (metadata !== row.arbMetadata) {
          q.updateArbMetadata.run(metadata, now, row.id);
          change ??= "updated";
          row.arbMetadata = metadata;
        }
      }
      if (translatable !== undefined && translatable !== row.translatable) {
        q.updateTranslatable.run(translatable, now, row.id);
        row.translatable = translatable;
        change ??= "updated";
      }
      importedKeyIds.push(row.id);
      const before = current.get(row.id);
      if (before !== value) {
        // The value's findings, and for a base value its key's other languages rechecked (docs/product.md §7).
        let findings: Findings;
        const keyId = row.id;
        if (before === undefined) {
          findings = checks.storeNew(keyId, language.id, value, now, (f) => {
            if (f === null) q.insertValue.run(keyId, language.id, value, now);
            else q.insertChecked.run(keyId, language.id, value, now, JSON.stringify(f.problems), f.errors, f.warnings, now);
          });
        } else {
          findings = checks.storeReplacing(keyId, language.id, value, now, before, (f) =>
            q.updateValue.run(value, now, JSON.stringify(f.problems), f.errors, f.warnings, now, keyId, language.id),
          );
        }
        current.set(row.id, value);
        if (findings.errors > 0 && errored.length < HINT_SAMPLE) errored.push({ value, base: checks.baseValue(row.id, language.id) });
        q.insertHistory.run(row.id, language.id, value, before ?? null, actor.kind, actor.publicId, actor.name, now);
        // A new value's cell had no history; a changed one's keeps its newest (authoring/history.ts).
        if (before !== undefined) q.pruneHistory.run(row.id, language.id, HISTORY_KEPT_PER_CELL);
        changes.event(project, before === undefined ? "translation_created" : "translation_updated", {
          key,
          language_code: language.code,
          value,
          status: "translated",
        });
        result.updated_translations++;
        change ??= "updated";
      }
      const had = keyChange.get(key);
      if (had === undefined || had === null || (had === "updated" && change === "created")) keyChange.set(key, change ?? had ?? null);
    }

    // What the message checks stored for the file's values (written with them, above or by the
    // checks themselves), counted after every write of this language.
    const problemKeys = new Set(q.keysWithProblems.all(language.id).map((r) => r.keyId));
    let found = 0;
    for (const id of importedKeyIds) {
      if (!problemKeys.has(id)) continue;
      withProblems.add(`${language.id}:${id}`);
      found++;
    }
    if (found > 0) {
      const imported = new Set(importedKeyIds);
      for (const p of q.languageProblems.all(language.id)) {
        if (!imported.has(p.keyId)) continue;
        if (p.severity === "error") result.errors++;
        if (result.problem_items.length < IMPORT_PROBLEMS_LISTED) {
          result.problem_items.push({ key: p.key, language_code: language.code, code: p.code, severity: p.severity, message: p.message });
        }
      }
    }
  }

  for (const [key, change] of keyChange) {
    if (change === "updated") result.updated_keys++;
    if (change) note(result, key, change);
    else result.unchanged++;
  }

  if (input.delete_missing) {
    // In code-point order, like the files, so a dry run and the import list them alike.
    // An i18next plural form the base language does not use (`items_many` for English) is
    // another language's: not missing from this file (docs/messages.md "i18next plural forms").
    const forms = new ProjectPluralForms(db, project);
    const missing = [...existing.values()].filter((k) => !baseKeys.has(k.key) && !forms.isUnusedIn(k.id, baseLanguage.code)).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    for (const k of missing) {
      q.deleteKey.run(k.id); // its translations and history go with it (foreign keys cascade)
      changes.event(project, "key_deleted", { key: k.key });
      result.deleted_keys++;
      note(result, k.key, "deleted");
    }
  }

  result.problems = withProblems.size;
  const hint = syntaxHint(errored, checks.syntax);
  if (hint) result.syntax_hint = hint;
  if (isMultiLanguage(input.format)) result.languages = fileSets.map((s) => s.language.code);
  if (differs.length > 0) result.source_differs = differs;
  return result;
}

function note(result: ImportResult, key: string, change: ChangeKind): void {
  if (result.changes.length < IMPORT_CHANGES_LISTED) result.changes.push({ key, change });
  else result.changes_truncated = true;
}

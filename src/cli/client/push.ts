import { normalize } from "node:path";
import type { ImportResult } from "../../authoring/import.ts";
import type { LanguageView } from "../../authoring/languages.ts";
import { CliError } from "../../common/errors.ts";
import { ContentError } from "../../formats/read.ts";
import type { FileContent } from "../../formats/format.ts";
import { isMultiLanguage, readFile, readOneLanguage, type FormatName } from "../../formats/registry.ts";
import type { ParsedArgs } from "../args.ts";
import { IMPORT_TIMEOUT_MS, PhrasebookClient } from "./api.ts";
import { connectionFrom, loadConfig, type ClientConfig } from "./config.ts";
import { readTextFile } from "./files.ts";
import { formatFor, parseFormat, PUSH_FORMATS, writtenExtensions } from "./formats.ts";
import { filesMatching, languageFromPath, safeLanguageCode } from "./patterns.ts";
import { problemLines } from "./problems.ts";
import { print } from "../output.ts";
import { megabytes, Progress, progressWanted } from "./progress.ts";
import { tokenProject } from "./project.ts";

/** The scope `push` needs (docs/automation.md "A token for CI"), named when a token lacks it. */
const SCOPE = "write";

/** Files over this size show progress on a terminal (docs/product.md §6). */
const PROGRESS_FROM_BYTES = 1024 * 1024;
/** A dry run sends a translation with its base file while both fit one import body (16 MB, less room for JSON escapes). */
const DRY_RUN_WITH_BASE_MAX_BYTES = 12 * 1024 * 1024;

interface PlannedFile {
  path: string;
  format: FormatName;
  /** Absent for a file of several languages (XLIFF, .xcstrings), which names its own. */
  language?: string;
  content: string;
  bytes: number;
  /** Whether --delete-missing applies: the base language only. */
  deleteMissing: boolean;
  /** Languages the project lacks, added first (--add-languages). */
  newLanguages: string[];
  /** The `source:` file of the set this translation file belongs to. */
  source?: string;
}

/** A file's language as asked for: --language, the ARB @@locale, or a configured pattern. */
interface Wanted {
  path: string;
  format?: FormatName;
  language?: string;
  /** How the language was found, for the error when the project lacks it. */
  from: string;
  /** A file of several languages: import only `language` (--language, or a catalog pushed as a source). */
  only?: boolean;
  /** The `source:` file of the set this translation file belongs to. */
  source?: string;
}

const same = (a: string, b: string) => normalize(a) === normalize(b);

/** Files a pattern names that exist, with the language each names. */
function existingTranslations(pattern: string): { path: string; code: string }[] {
  const found: { path: string; code: string }[] = [];
  for (const path of filesMatching(pattern)) {
    const code = languageFromPath(pattern, path);
    if (code) found.push({ path, code });
  }
  return found.sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** The files of phrasebook.yaml: each source as the base language, and with --translations the rest. */
function configuredFiles(config: ClientConfig, base: string, withTranslations: boolean, languages: LanguageView[], addLanguages: boolean): Wanted[] {
  const codes = new Set(languages.map((l) => l.code.toLowerCase()));
  // A language-only file beside a regional language of the project is the fallback pull writes
  // for gen-l10n (docs/automation.md "Round trip"), not a language of its own to push.
  const isFallback = (code: string) => !addLanguages && !code.includes("-") && !codes.has(code.toLowerCase()) && [...codes].some((c) => c.startsWith(`${code.toLowerCase()}-`));
  const wanted: Wanted[] = [];
  for (const set of config.files) {
    const format = set.format ? { format: set.format } : {};
    if (set.source) wanted.push({ path: set.source, language: base, from: `it is the source of ${config.path}`, ...format });
    // A String Catalog is source and translations in one file: every push sends every language it
    // holds, the base language's strings as the base (docs/automation.md "String Catalogs").
    if (set.catalog) wanted.push({ path: set.catalog, from: `it is a catalog of ${config.path}` });
  }
  if (!withTranslations) return wanted;
  for (const set of config.files) {
    if (!set.translations) continue;
    for (const { path, code } of existingTranslations(set.translations)) {
      if (config.files.some((s) => s.source && same(s.source, path))) continue; // pushed as the source already
      if (isFallback(code)) continue;
      wanted.push({ path, language: code, from: `its name matches ${set.translations}`, ...(set.format ? { format: set.format } : {}), ...(set.source ? { source: set.source } : {}) });
    }
  }
  return wanted;
}

/** A file named on the command line: its language from --language, else found later. */
function namedFile(path: string, language: string | undefined, config: ClientConfig | undefined, base: string): Wanted {
  if (language) return { path, language, from: "--language", only: true };
  for (const set of config?.files ?? []) {
    if (set.source && same(set.source, path)) return { path, language: base, from: `it is the source of ${config!.path}` };
    const code = set.translations ? languageFromPath(set.translations, path) : undefined;
    if (code) return { path, language: code, from: `its name matches ${set.translations}`, ...(set.source ? { source: set.source } : {}) };
  }
  return { path, from: "" };
}

function localError(path: string, err: unknown): never {
  if (err instanceof ContentError) {
    throw new CliError(`${path}${err.line !== undefined ? `:${err.line}:${err.column}` : ""}: ${err.reason}`, 1);
  }
  throw err;
}

/** A language of the project, or, with --add-languages, one it will have: added before the first file is sent. */
function projectLanguage(code: string, languages: LanguageView[], addLanguages: boolean): LanguageView | undefined {
  const found = languages.find((l) => l.code.toLowerCase() === code.toLowerCase());
  if (found || !addLanguages) return found;
  const added = { code: safeLanguageCode(code, 1), is_base_language: false, missing: true } as unknown as LanguageView;
  languages.push(added);
  return added;
}

const isNew = (l: LanguageView | undefined) => Boolean((l as { missing?: boolean } | undefined)?.missing);

/** A file of several languages (XLIFF, .xcstrings): it names its languages; those the project lacks are added or refused here. */
async function planMultiLanguage(w: Wanted, format: FormatName, content: string, languages: LanguageView[], addLanguages: boolean): Promise<Pick<PlannedFile, "language" | "newLanguages">> {
  let file: FileContent;
  try {
    file = await readFile(format, content);
  } catch (err) {
    localError(w.path, err);
  }
  if (w.only && w.language) {
    const only = languages.find((l) => l.code.toLowerCase() === w.language!.toLowerCase());
    if (!only) throw new CliError(`${w.path}: ${w.language} (${w.from}) is not a language of the project`, 1);
    return { language: only.code, newLanguages: [] };
  }
  const source = file.source?.replace(/_/g, "-").toLowerCase();
  const held = file.languages.flatMap((l) => (l.locale ? [l.locale.replace(/_/g, "-")] : [])).filter((c) => c.toLowerCase() !== source);
  const lacking = held.filter((c) => !languages.some((l) => l.code.toLowerCase() === c.toLowerCase()));
  if (lacking.length > 0 && !addLanguages) {
    throw new CliError(`${w.path}: holds ${lacking.join(", ")}, which the project lacks (it has ${languages.map((l) => l.code).join(", ")}); add ${lacking.length === 1 ? "it" : "them"} with "phrasebook languages add ${lacking.join(" ")}", or pass --add-languages`, 1);
  }
  return { newLanguages: lacking.map((c) => projectLanguage(c, languages, true)!.code) };
}

/** Reads and checks one file on this machine, so a broken file is reported with its line before anything is sent. */
async function plan(wanted: Wanted, formatFlag: FormatName | undefined, languages: LanguageView[], base: string, deleteMissing: boolean, addLanguages: boolean): Promise<PlannedFile> {
  const { path } = wanted;
  const format = formatFor(path, formatFlag ?? wanted.format, formatFlag ? "--format" : "format:");
  if (!format) throw new CliError(`${path}: cannot tell the format: name the file ${writtenExtensions(PUSH_FORMATS)}, or pass --format`, 1);
  const content = readTextFile(path);
  const file = { path, format, content, bytes: Buffer.byteLength(content), deleteMissing, ...(wanted.source ? { source: wanted.source } : {}) };
  if (isMultiLanguage(format)) return { ...file, ...(await planMultiLanguage(wanted, format, content, languages, addLanguages)) };
  let locale: string | undefined;
  try {
    locale = (await readOneLanguage(format, content)).locale;
  } catch (err) {
    localError(path, err);
  }
  const asked = wanted.language ?? locale?.replace(/_/g, "-");
  const from = wanted.language ? wanted.from : format === "arb" ? "its @@locale" : "the language it names";
  if (!asked) {
    throw new CliError(`${path}: cannot tell its language: pass --language CODE, give the ARB file an @@locale, or name it by a translations pattern of phrasebook.yaml`, 1);
  }
  const language = projectLanguage(asked, languages, addLanguages);
  if (!language) {
    throw new CliError(`${path}: ${asked} (${from}) is not a language of the project (it has ${languages.map((l) => l.code).join(", ")}); add it with "phrasebook languages add ${asked}", or pass --add-languages`, 1);
  }
  if (locale !== undefined && locale.replace(/_/g, "-").toLowerCase() !== language.code.toLowerCase()) {
    throw new CliError(`${path}: ${format === "arb" ? "its @@locale" : "the language it names"} is ${locale}, not ${language.code} (${from})`, 1);
  }
  if (deleteMissing && language.code !== base) {
    throw new CliError(`${path}: --delete-missing deletes the keys a base-language file lacks, and this file is ${language.code}, not the base language ${base}`, 1);
  }
  return { ...file, language: language.code, newLanguages: isNew(language) ? [language.code] : [] };
}

function summary(path: string, r: ImportResult, dryRun: boolean): string {
  let line = `${path}: ${r.created_keys} created, ${r.updated_keys} updated, ${r.unchanged} unchanged, ${r.deleted_keys} deleted`;
  if (r.problems > 0) line += `; ${r.problems} with message problems (phrasebook status)`;
  if (dryRun) line += " (dry run: nothing was changed)";
  return line;
}

const MARK = { created: "+", updated: "~", deleted: "-" } as const;

interface PushOptions {
  named: string[];
  config: ClientConfig | undefined;
  language: string | undefined;
  formatFlag: FormatName | undefined;
  dryRun: boolean;
  deleteMissing: boolean;
  withTranslations: boolean;
  failOnErrors: boolean;
  addLanguages: boolean;
}

/**
 * The command line, checked before anything is read or sent: a format given for a path of
 * another format's extension is bad usage (docs/automation.md "The format follows the path").
 */
async function pushOptions(args: ParsedArgs): Promise<PushOptions> {
  const named = args.words.slice(1);
  const config = await loadConfig(args);
  const languageFlags = args.lists["--language"] ?? [];
  if (languageFlags.length > 1) throw new CliError("push takes one --language (push the files of each language separately)", 1);
  const formatFlag = parseFormat(args.flags["--format"], PUSH_FORMATS);
  const withTranslations = args.switches.has("--translations");
  if (named.length === 0 && !config) throw new CliError("no FILE given and no phrasebook.yaml here (see phrasebook push --help)", 1);
  if (named.length === 0 && languageFlags.length > 0) throw new CliError("--language is for files named on the command line; phrasebook.yaml says each file's language", 1);
  if (named.length > 0 && withTranslations) throw new CliError("--translations pushes the files of phrasebook.yaml; give no FILE with it", 1);
  const paths = named.length > 0 ? named : config!.files.flatMap((f) => [f.source, f.translations, f.catalog].filter((p): p is string => p !== undefined));
  for (const path of paths) formatFor(path, formatFlag);
  return {
    named,
    config,
    language: languageFlags[0],
    formatFlag,
    dryRun: args.switches.has("--dry-run"),
    deleteMissing: args.switches.has("--delete-missing"),
    withTranslations,
    failOnErrors: args.switches.has("--fail-on-errors"),
    addLanguages: args.switches.has("--add-languages"),
  };
}

/** The languages of the files that the project lacks, added before the first file is sent (--add-languages). */
async function addLanguages(client: PhrasebookClient, projectId: string, files: readonly PlannedFile[], dryRun: boolean): Promise<void> {
  for (const code of new Set(files.flatMap((f) => f.newLanguages))) {
    if (dryRun) {
      await print(`+ language ${code} (dry run: not added, so its files are not sent)\n`);
      continue;
    }
    await client.dashboard(`push --add-languages ${code}`, "POST", `/projects/${projectId}/languages`, { json: JSON.stringify({ code }) });
    await print(`added language ${code}\n`);
  }
}

/** What the server answers to one file, as lines: the summary, then changes, problems and the syntax hint. */
function resultLines(file: PlannedFile, result: ImportResult, dryRun: boolean): string[] {
  const lines = [summary(file.path, result, dryRun)];
  if (result.languages) lines[0] += ` (${result.languages.join(", ")})`;
  for (const d of result.source_differs ?? []) lines.push(`! ${d.key} [${d.language_code}]: not written: the file's source text differs from the base string`);
  if (dryRun) {
    for (const { key, change } of result.changes) lines.push(`${MARK[change]} ${key}`);
    if (result.changes_truncated) lines.push(`  ... and more: the server lists the first ${result.changes.length} changes`);
  }
  if (Array.isArray(result.problem_items) && result.problem_items.length > 0) lines.push(...problemLines(result.problem_items, result.problems));
  // When the errors look like another message syntax the server says which (docs/automation.md "The syntax setting").
  const hint = (result as { syntax_hint?: { message?: unknown } }).syntax_hint?.message;
  if (typeof hint === "string") lines.push(`  hint: ${hint.slice(0, 500)}`);
  return lines;
}

/** Sends one file as an import, with progress on a terminal for a large one. */
async function sendFile(client: PhrasebookClient, projectId: string, file: PlannedFile, dryRun: boolean, withBase: { base?: { format: FormatName; content: string } }): Promise<ImportResult> {
  const progress = new Progress(file.path, progressWanted() && file.bytes > PROGRESS_FROM_BYTES);
  let ticker: ReturnType<typeof setInterval> | undefined;
  return client
    .dashboard<ImportResult>(`push ${file.path}`, "POST", `/projects/${projectId}/import`, {
      json: JSON.stringify({ ...(file.language ? { language_code: file.language } : {}), format: file.format, content: file.content, dry_run: dryRun, delete_missing: file.deleteMissing, ...withBase }),
      timeoutMs: IMPORT_TIMEOUT_MS,
      onUpload: (sent, total) => {
        if (sent < total) return progress.update(`uploading ${Math.floor((sent / total) * 100)}% of ${megabytes(total)}`);
        progress.update(`importing on the server (${progress.seconds()})`, true);
        ticker ??= setInterval(() => progress.update(`importing on the server (${progress.seconds()})`), 250);
      },
    })
    .finally(() => {
      clearInterval(ticker);
      progress.done();
    });
}

/** `phrasebook push` (docs/product.md §6). */
export async function runPush(args: ParsedArgs): Promise<number> {
  const o = await pushOptions(args);
  const client = new PhrasebookClient(connectionFrom(args, o.config), SCOPE);
  const project = await tokenProject(client, "push");
  const base = project.base_language_code;
  const languages = (await client.dashboard<{ items: LanguageView[] }>("push", "GET", `/projects/${project.id}/languages`)).items;

  const wanted = o.named.length > 0 ? o.named.map((path) => namedFile(path, o.language, o.config, base)) : configuredFiles(o.config!, base, o.withTranslations, languages, o.addLanguages);
  // Every file is read and checked before the first is sent: a broken one stops the push whole.
  const files: PlannedFile[] = [];
  for (const w of wanted) files.push(await plan(w, o.formatFlag, languages, base, o.deleteMissing && (o.named.length > 0 || w.language === base), o.addLanguages));
  const deleting = files.filter((f) => f.deleteMissing).length;
  if (deleting > 1) throw new CliError(`--delete-missing with ${deleting} files of the base language would delete each file's keys with the next: push one file`, 1);
  await addLanguages(client, project.id, files, o.dryRun);

  let errors = 0;
  const unchangedBases = new Set<PlannedFile>();
  for (const file of files) {
    if (o.dryRun && file.newLanguages.length > 0) continue;
    // A dry run changes nothing, so a translation would be checked against the server's base
    // strings, not the ones this push brings: its set's source goes along (docs/automation.md
    // "Checking a pull request"). A base file whose own dry run (sent first) changed nothing
    // holds what the server holds: not sent again.
    const baseFile = o.dryRun && file.language !== base && file.source ? files.find((f) => f.language === base && same(f.path, file.source!) && !unchangedBases.has(f)) : undefined;
    const withBase = baseFile && baseFile.bytes + file.bytes <= DRY_RUN_WITH_BASE_MAX_BYTES ? { base: { format: baseFile.format, content: baseFile.content } } : {};
    if (baseFile && !("base" in withBase)) await print(`${file.path}: checked against the server's base strings (with ${baseFile.path} it is over ${megabytes(DRY_RUN_WITH_BASE_MAX_BYTES)} for one request)\n`);
    const result = await sendFile(client, project.id, file, o.dryRun, withBase);
    await print(resultLines(file, result, o.dryRun).join("\n") + "\n");
    if (o.dryRun && file.language === base && result.created_keys + result.updated_keys + result.updated_translations + result.deleted_keys === 0) unchangedBases.add(file);
    errors += typeof result.errors === "number" ? result.errors : 0;
    if (o.failOnErrors && typeof result.errors !== "number") throw new CliError("push --fail-on-errors: the server does not report message errors of an import", 2);
  }
  if (o.failOnErrors && errors > 0) {
    throw new CliError(`push --fail-on-errors: ${errors} message error${errors === 1 ? "" : "s"} in the pushed files${o.dryRun ? " (dry run: nothing was changed)" : ""}`, 3);
  }
  return 0;
}

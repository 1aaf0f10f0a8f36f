import { existsSync, writeFileSync } from "node:fs";
import { normalize } from "node:path";
import { CliError } from "../../common/errors.ts";
import { formatOfPath, isBundleFormat, isMultiLanguage, type BundleFormat, type FormatName } from "../../formats/registry.ts";
import { PAGE_SIZE_MAX } from "../../public-api/limits.ts";
import type { ParsedArgs } from "../args.ts";
import { print } from "../output.ts";
import { PhrasebookClient } from "./api.ts";
import { connectionFrom, loadConfig, type ClientConfig } from "./config.ts";
import { PendingFile, readTextFile } from "./files.ts";
import { formatFor, parseFormat, parseXliffVersion, PULL_FORMATS, writtenExtensions } from "./formats.ts";
import { RELEASE_LANGUAGES_MAX, RELEASE_PAGES_MAX } from "./limits.ts";
import { downloadAll, type Planned } from "./pull-download.ts";
import { downloadText, pullNative, type ReleaseLanguage } from "./pull-native.ts";
import { settle, type Output, type Settlement } from "./pull-write.ts";
import { filesMatching, fillPattern, hasPlaceholder, languageFromPath, safeLanguageCode } from "./patterns.ts";
import { isNested, teamArb } from "./shape.ts";

/** The scope `pull` needs (docs/automation.md "A token for CI"), named when a token lacks it. */
const SCOPE = "read";

/** The parts of the public API's answers pull reads (docs/interface.md §2.2, §2.3). */
interface ReleaseSummary {
  id: string;
  tag: string;
  name: string;
}
interface ReleaseDetail extends ReleaseSummary {
  languages: { code: string; is_base_language?: boolean; download_urls: Partial<Record<BundleFormat, string>> }[];
}

interface Target {
  pattern: string;
  format: FormatName;
  /** The configured source of this pattern: its shape is the shape JSON is pulled in, its key order new keys'. */
  source?: string;
  structure?: "nested" | "flat";
  /**
   * Files pull never writes, normalized: every `source:` and `catalog:` of phrasebook.yaml, which
   * push sends, also when `--out` names the pattern (docs/automation.md "pull").
   */
  protect: string[];
  /** A String Catalog of phrasebook.yaml: source and translations at once, written into. */
  catalog?: boolean;
  /**
   * With several sets in phrasebook.yaml, a translation file holds the keys of its own source
   * only, not those the other sets' sources brought into the project (docs/automation.md "Pull
   * keeps the repository's shape").
   */
  ownKeys?: boolean;
}

const RELEASE_ID = /^rel_[0-9A-Za-z]{20}$/;

/** The release `which` names: latest, an id, or a tag (exactly, among the published ones). */
async function findRelease(client: PhrasebookClient, which: string): Promise<ReleaseSummary> {
  if (which === "latest") {
    const { items } = await client.publicApi<{ items: ReleaseSummary[] }>("pull", "/releases?sort=published_at&order=desc&page_size=1");
    if (!Array.isArray(items) || !items[0]) throw new CliError("pull: the project has no published release yet (phrasebook publish makes one)", 2);
    return items[0];
  }
  if (RELEASE_ID.test(which)) return client.publicApi<ReleaseSummary>(`pull --release ${which}`, `/releases/${which}`);
  // A server may claim any number of pages: the client reads at most RELEASE_PAGES_MAX (./limits.ts).
  for (let page = 1; page <= RELEASE_PAGES_MAX; page++) {
    const list = await client.publicApi<{ items: ReleaseSummary[]; page_info: { total_pages: number } }>(
      `pull --release ${which}`,
      `/releases?search=${encodeURIComponent(which)}&page_size=${PAGE_SIZE_MAX}&page=${page}`,
    );
    if (!Array.isArray(list.items)) throw new CliError(`pull --release ${which}: the server's release list has no items`, 2);
    const found = list.items.find((r) => r.tag === which);
    if (found) return found;
    if (list.items.length === 0 || !(page < Number(list.page_info?.total_pages))) throw new CliError(`pull: no published release has the tag ${which}`, 2);
  }
  throw new CliError(`pull --release ${which}: not found in the first ${RELEASE_PAGES_MAX} pages of releases the server lists; give the release's id instead`, 2);
}

/** A pattern's format: its extension's, which a --format or format: must match (docs/automation.md). */
function formatOf(pattern: string, given: FormatName | undefined): FormatName {
  const format = formatFor(pattern, given);
  if (!format) throw new CliError(`cannot tell the format of "${pattern}": end it in ${writtenExtensions(PULL_FORMATS)}, or pass --format`, 1);
  return format;
}

function targetsFrom(args: ParsedArgs, config: ClientConfig | undefined, only: string[], formatFlag: FormatName | undefined): Target[] {
  const sets = config?.files ?? [];
  const protect = sets.flatMap((f) => [f.source, f.catalog].filter((p): p is string => p !== undefined).map((p) => normalize(p)));
  const out = args.flags["--out"];
  if (out !== undefined) {
    const format = formatOf(out, formatFlag);
    // A format of several languages (XLIFF, .xcstrings) writes them all into one file (docs/formats.md "Export").
    if (!hasPlaceholder(out) && only.length !== 1 && !isMultiLanguage(format)) {
      throw new CliError(`--out "${out}" has neither {language} nor {locale}, so every language would be written to one file (or pull exactly one --language)`, 1);
    }
    return [{ pattern: out, format, protect, catalog: sets.some((f) => f.catalog !== undefined && normalize(f.catalog) === normalize(out)) }];
  }
  if (!config) throw new CliError("no --out given and no phrasebook.yaml here (see phrasebook pull --help)", 1);
  const several = sets.filter((f) => f.source !== undefined || f.catalog !== undefined).length > 1;
  const targets = sets.flatMap((f): Target[] => {
    if (f.catalog) return [{ pattern: f.catalog, format: formatOf(f.catalog, formatFlag), protect, catalog: true }];
    if (!f.translations) return [];
    return [{ pattern: f.translations, format: formatOf(f.translations, formatFlag ?? f.format), source: f.source, structure: f.structure, protect, ownKeys: several && f.source !== undefined }];
  });
  if (targets.length === 0) throw new CliError(`${config.path} names no translations: pattern or catalog: to pull into`, 1);
  return targets;
}

/** The release's languages, as far as the client believes them (./limits.ts bounds their number). */
function languagesOf(detail: ReleaseDetail): ReleaseLanguage[] {
  if (!Array.isArray(detail.languages)) throw new CliError(`pull ${detail.tag}: the server's release has no language list`, 2);
  if (detail.languages.length > RELEASE_LANGUAGES_MAX) {
    throw new CliError(`pull ${detail.tag}: the server lists ${detail.languages.length} languages, more than the ${RELEASE_LANGUAGES_MAX} the client accepts; nothing was written`, 2);
  }
  // Whether a language is the base one: PO and XLIFF write its strings as the source (pull-native.ts).
  return detail.languages.map((l) => ({ code: safeLanguageCode(String(l?.code)), is_base_language: l?.is_base_language === true, download_urls: l?.download_urls ?? {} }));
}

/** Whether the team's JSON is nested: the structure: setting, else the source file, else the file replaced. */
function wantsNested(target: Target, path: string): boolean {
  if (target.structure) return target.structure === "nested";
  const sample = target.source && formatOfPath(target.source, PULL_FORMATS) === "json" ? target.source : path;
  if (!existsSync(sample)) return false;
  try {
    return isNested(JSON.parse(readTextFile(sample)));
  } catch {
    return false; // a file that does not parse says nothing about its shape
  }
}

/**
 * Regional languages without their language-only sibling, which gen-l10n needs as a fallback
 * (docs/product.md §9 "ARB"): of several regional variants the first in code order.
 */
function fallbacksFor(available: { code: string }[], wanted: { code: string }[]): Map<string, string> {
  const have = new Set(available.map((l) => l.code.toLowerCase()));
  const out = new Map<string, string>();
  for (const { code } of [...wanted].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0))) {
    const language = code.split("-")[0]!;
    if (language === code || have.has(language.toLowerCase()) || out.has(language)) continue;
    out.set(language, code);
  }
  return out;
}

/** What one pull is about: the release, its languages, and what the command line asked for. */
interface Pull {
  client: PhrasebookClient;
  tag: string;
  available: ReleaseLanguage[];
  wanted: ReleaseLanguage[];
  base: ReleaseLanguage;
  fallbackFiles: boolean;
  xliffVersion: "1.2" | "2.0";
  /** Lines said before the files': sources kept, files skipped. */
  said: string[];
}

/** The file whose key order new keys follow: the set's source, or the base language's file of the pattern. */
function orderSource(target: Target, pull: Pull, path: string): string | undefined {
  if (target.source) return target.source;
  if (!hasPlaceholder(target.pattern)) return undefined;
  const base = fillPattern(target.pattern, pull.base.code, pull.base.code);
  return normalize(base) === normalize(path) ? undefined : base;
}

/** The CDN files of a target in a bundle format, planned: one per wanted language and fallback. */
function planBundle(target: Target, format: BundleFormat, pull: Pull): Planned[] {
  const fallbacks = format === "arb" && pull.fallbackFiles ? fallbacksFor(pull.available, pull.wanted) : new Map<string, string>();
  const items = pull.wanted.map((l) => ({ code: l.code, language: l, fallback: false }));
  for (const [code, from] of fallbacks) items.push({ code, language: pull.wanted.find((l) => l.code === from)!, fallback: true });
  const planned: Planned[] = [];
  for (const { code, language, fallback } of items) {
    const path = fillPattern(target.pattern, code, pull.base.code);
    if (target.protect.includes(normalize(path))) {
      pull.said.push(`kept ${path}: it is the source file, which push sends and pull never overwrites`);
      continue;
    }
    const url = language.download_urls[format];
    if (typeof url !== "string") throw new CliError(`pull: the release has no ${format} file for ${language.code}`, 2);
    const jsonUrl = format === "arb" ? language.download_urls.json : undefined;
    if (format === "arb" && typeof jsonUrl !== "string") throw new CliError(`pull: the release has no json file for ${language.code}, which an ARB pull reads for the keys as authored`, 2);
    // Every URL is judged before anything is fetched or written (docs/automation.md "What the client trusts").
    pull.client.allowedUrl(`pull ${path}`, url);
    if (jsonUrl !== undefined) pull.client.allowedUrl(`pull ${path}`, jsonUrl);
    planned.push({ path, code, from: language.code, url, format, jsonUrl, fallback, nested: format === "json" && wantsNested(target, path) });
  }
  return planned;
}

/** The outputs of the bundle-format targets: downloaded, each in its temporary file. */
async function bundleOutputs(targets: readonly Target[], pull: Pull): Promise<Output[]> {
  const planned: { target: Target; item: Planned }[] = [];
  for (const target of targets) {
    if (isBundleFormat(target.format)) for (const item of planBundle(target, target.format, pull)) planned.push({ target, item });
  }
  const downloads = await downloadAll(
    pull.client,
    planned.map((p) => p.item),
  );
  return downloads.map((d, i) => ({
    path: d.path,
    format: d.format,
    codes: [d.from],
    label: d.fallback ? `${d.code}, gen-l10n's fallback for ${d.from}, ${pull.tag}` : `${d.code}, ${pull.tag}`,
    file: d.file,
    ...(d.flatBecause ? { note: `flat ${d.path}: not nested as the source is, because ${d.flatBecause}` } : {}),
    orderFrom: orderSource(planned[i]!.target, pull, d.path),
    ...(planned[i]!.target.ownKeys ? { keysOf: planned[i]!.target.source } : {}),
  }));
}

/** The outputs of the other targets: built on this machine from the release's files (./pull-native.ts). */
async function nativeOutputs(targets: readonly Target[], pull: Pull, done: Output[]): Promise<void> {
  for (const target of targets) {
    if (isBundleFormat(target.format)) continue;
    const built = await pullNative(pull.client, pull.tag, pull.available, pull.wanted, target.format, target.pattern, target.protect, pull.xliffVersion, target.catalog);
    for (const path of built.kept) pull.said.push(`kept ${path}: it is the source file, which push sends and pull never overwrites`);
    for (const w of built.writes) {
      const file = new PendingFile(w.path);
      const from = { orderFrom: orderSource(target, pull, w.path), ...(target.ownKeys ? { keysOf: target.source } : {}), ...(target.catalog ? { catalog: { addKeys: false } } : {}) };
      done.push({ path: w.path, format: target.format, codes: w.codes, label: `${w.codes.join(", ")}, ${pull.tag}`, file, values: built.values, ...from });
      writeFileSync(file.descriptor, w.text);
      file.close();
    }
  }
}

/** The keys the release has (the base language's), as `format` names them: ARB by message name. Read once, when a file may lose some. */
function releaseKeysOf(pull: Pull): (format: FormatName) => Promise<ReadonlySet<string>> {
  let json: Promise<Record<string, unknown>> | undefined;
  let names: Promise<Set<string>> | undefined;
  const near = `.phrasebook-pull`;
  const read = (format: "json" | "arb") => downloadText(pull.client, `pull ${pull.tag} ${pull.base.code}`, pull.base.download_urls[format], format, near).then((t) => JSON.parse(t) as Record<string, unknown>);
  return async (format) => {
    json ??= read("json");
    if (format !== "arb") return new Set(Object.keys(await json));
    names ??= Promise.all([read("arb"), json]).then(([arb, keys]) => new Set(Object.keys(teamArb(`pull ${pull.tag}`, arb, keys)).filter((k) => !k.startsWith("@"))));
    return names;
  };
}

/** Local files a pattern names for languages the release does not have: each said, none touched. */
function skipped(targets: readonly Target[], pull: Pull): void {
  const codes = new Set(pull.available.map((l) => l.code.toLowerCase()));
  for (const target of targets) {
    if (!hasPlaceholder(target.pattern)) continue;
    for (const path of filesMatching(target.pattern)) {
      const code = languageFromPath(target.pattern, path);
      if (code && !codes.has(code.toLowerCase()) && !target.protect.includes(normalize(path))) pull.said.push(`skipped ${path}: release ${pull.tag} has no ${code}`);
    }
  }
}

/** `phrasebook pull` (docs/product.md §6). */
export async function runPull(args: ParsedArgs): Promise<number> {
  if (args.words.length > 1) throw new CliError(`pull takes no FILE (got "${args.words[1]}"); use --out PATTERN`, 1);
  const formatFlag = parseFormat(args.flags["--format"], PULL_FORMATS);
  const only = args.lists["--language"] ?? [];
  const config = await loadConfig(args);
  const targets = targetsFrom(args, config, only, formatFlag);
  const xliffVersion = parseXliffVersion(args.flags["--xliff-version"]);
  const client = new PhrasebookClient(connectionFrom(args, config), SCOPE);

  const release = await findRelease(client, args.flags["--release"] ?? "latest");
  const detail = await client.publicApi<ReleaseDetail>(`pull ${release.tag}`, `/releases/${encodeURIComponent(release.id)}`);
  const available = languagesOf(detail);
  const wanted = only.length === 0 ? available : only.map((code) => {
    const found = available.find((l) => l.code.toLowerCase() === code.toLowerCase());
    if (!found) throw new CliError(`release ${detail.tag} has no language ${code} (it has ${available.map((l) => l.code).join(", ")})`, 1);
    return found;
  });
  const base = available.find((l) => l.is_base_language) ?? available[0]!;
  const pull: Pull = { client, tag: detail.tag, available, wanted, base, fallbackFiles: !args.switches.has("--no-fallback-files"), xliffVersion, said: [] };
  if (only.length === 0) skipped(targets, pull);

  // Everything is downloaded and built before the first file is replaced: a failed download, or a
  // file that would lose translations, writes nothing.
  const outputs = await bundleOutputs(targets, pull);
  try {
    await nativeOutputs(targets, pull, outputs);
  } catch (err) {
    for (const o of outputs) o.file.discard();
    throw err;
  }
  const done = await settle(outputs, { tag: detail.tag, force: args.switches.has("--force"), releaseKeys: releaseKeysOf(pull), before: pull.said });
  if (done.wrote === 0) await print(`${nothingWritten(done, pull)}\n`);
  return 0;
}

/** Why a pull wrote nothing (docs/automation.md "pull"): one line, with what it did with each file. */
function nothingWritten(done: Settlement, pull: Pull): string {
  const kept = pull.said.filter((l) => l.startsWith("kept ")).length;
  const skippedFiles = done.skipped + pull.said.filter((l) => l.startsWith("skipped ")).length;
  const why = done.unchanged > 0 ? `every file already holds what release ${pull.tag} has` : `release ${pull.tag} gives no file to write here`;
  const counts = [`${done.unchanged} unchanged`, ...(kept > 0 ? [`${kept} source file${kept === 1 ? "" : "s"} kept`] : []), ...(skippedFiles > 0 ? [`${skippedFiles} skipped`] : [])];
  return `nothing written: ${why} (${counts.join(", ")})`;
}

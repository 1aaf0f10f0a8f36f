import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { normalize } from "node:path";
import { CliError } from "../../common/errors.ts";
import { ContentError, parseJsonObject } from "../../formats/read.ts";
import { formatOfPath, isBundleFormat, isMultiLanguage, readFile, type BundleFormat, type FormatName } from "../../formats/registry.ts";
import { PAGE_SIZE_MAX } from "../../public-api/limits.ts";
import type { ParsedArgs } from "../args.ts";
import { PhrasebookClient, type TextShape } from "./api.ts";
import { connectionFrom, loadConfig, type ClientConfig } from "./config.ts";
import { PendingFile, readTextFile, writeAtomically } from "./files.ts";
import { isNested, nest, teamArb } from "./shape.ts";
import { RELEASE_LANGUAGES_MAX, RELEASE_PAGES_MAX } from "./limits.ts";
import { parseFormat, parseXliffVersion, PULL_FORMATS, writtenExtensions } from "./formats.ts";
import { pullNative, type NativeWrite } from "./pull-native.ts";
import { fillPattern, hasPlaceholder, safeLanguageCode } from "./patterns.ts";
import { print } from "../output.ts";
import { megabytes } from "./progress.ts";

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
  /** The configured source of this pattern: its shape is the shape JSON is pulled in. */
  source?: string;
  structure?: "nested" | "flat";
  /**
   * Files pull never writes, normalized: every `source:` of phrasebook.yaml, which push sends, also
   * when `--out` names the pattern (docs/automation.md "pull").
   */
  protect: string[];
}

const RELEASE_ID = /^rel_[0-9A-Za-z]{20}$/;

/** Downloads at once: enough to keep a 2-core server compressing, few enough to be a polite client. */
export const PULL_CONCURRENT_DOWNLOADS = 4;

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

function targetsFrom(args: ParsedArgs, config: ClientConfig | undefined, only: string[], formatFlag: FormatName | undefined): Target[] {
  const protect = (config?.files ?? []).flatMap((f) => (f.source ? [normalize(f.source)] : []));
  const out = args.flags["--out"];
  if (out !== undefined) {
    // A format of several languages (XLIFF, .xcstrings) writes them all into one file (docs/formats.md "Export").
    const format = formatFlag ?? formatOfPath(out, PULL_FORMATS);
    if (!hasPlaceholder(out) && only.length !== 1 && !(format && isMultiLanguage(format))) {
      throw new CliError(`--out "${out}" has neither {language} nor {locale}, so every language would be written to one file (or pull exactly one --language)`, 1);
    }
    return [{ pattern: out, protect }];
  }
  if (!config) throw new CliError("no --out given and no phrasebook.yaml here (see phrasebook pull --help)", 1);
  const targets = config.files.filter((f) => f.translations).map((f) => ({ pattern: f.translations!, source: f.source, structure: f.structure, protect }));
  if (targets.length === 0) throw new CliError(`${config.path} names no translations: pattern to pull into`, 1);
  return targets;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * A downloaded file must read back whole with the parser push uses: a connection cut short in a
 * chunked answer has no length to betray it, only a document that ends too soon.
 */
async function checkWhole(path: string, url: string, format: BundleFormat, bytes: Uint8Array): Promise<void> {
  try {
    const text = utf8.decode(bytes);
    // JSON and ARB end with the top object's brace, so parsing them proves them whole; reading
    // them as push does would build every entry too, twice the time for an 8 MB file
    // (bench/RESULTS.md "Scale": pull).
    if (format === "json" || format === "arb") await parseJsonObject(text, format === "json" ? "JSON" : "ARB");
    else await readFile(format, text);
  } catch (err) {
    const why = err instanceof ContentError ? `${err.line !== undefined ? `line ${err.line}, column ${err.column}: ` : ""}${err.reason}` : "not UTF-8 text";
    throw new CliError(`pull ${path}: the download of ${url.slice(0, 200)} is not a whole ${format} file (${why})`, 2);
  }
}

/** UTF-8 text, and for JSON and ARB one object from its first brace to its last. */
function shapedAs(format: BundleFormat, shape: TextShape): boolean {
  if (!shape.utf8) return false;
  return format === "yaml" || (shape.first === 0x7b && shape.last === 0x7d);
}

/** The release's languages, as far as the client believes them (./limits.ts bounds their number). */
function languagesOf(detail: ReleaseDetail): ReleaseDetail["languages"] {
  if (!Array.isArray(detail.languages)) throw new CliError(`pull ${detail.tag}: the server's release has no language list`, 2);
  if (detail.languages.length > RELEASE_LANGUAGES_MAX) {
    throw new CliError(`pull ${detail.tag}: the server lists ${detail.languages.length} languages, more than the ${RELEASE_LANGUAGES_MAX} the client accepts; nothing was written`, 2);
  }
  // Whether a language is the base one: PO and XLIFF write its strings as the source (pull-native.ts).
  return detail.languages.map((l) => ({ code: safeLanguageCode(String(l?.code)), is_base_language: l?.is_base_language === true, download_urls: l?.download_urls ?? {} }));
}

interface Planned {
  path: string;
  /** The language written (a fallback file's is the language alone). */
  code: string;
  /** The release language it comes from. */
  from: string;
  url: string;
  format: BundleFormat;
  /** ARB: the same language's JSON, for the keys as authored (docs/formats.md "ARB metadata"). */
  jsonUrl?: string;
  /** JSON: nested objects, when the team's file is nested. */
  nested?: boolean;
  fallback?: boolean;
}

interface Download extends Planned {
  file: PendingFile;
  bytes: number;
  /** Why a JSON file meant to be nested was written flat. */
  flatBecause?: string;
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

/** Reads a downloaded temporary file as JSON (checked whole already). */
const readJson = (path: string): Record<string, unknown> => JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;

/** Shapes a downloaded file as the team's own (./shape.ts), in its temporary file. */
async function shape(client: PhrasebookClient, d: Download): Promise<void> {
  if (d.format === "arb" && d.jsonUrl) {
    const json = new PendingFile(d.path);
    try {
      await client.download(`pull ${d.path}`, d.jsonUrl, json.descriptor);
      json.close();
      await checkWhole(d.path, d.jsonUrl, "json", readFileSync(json.temp));
      const out = teamArb(`pull ${d.path}`, readJson(d.file.temp), readJson(json.temp), d.fallback ? d.code.replace(/-/g, "_") : undefined);
      writeFileSync(d.file.temp, `${JSON.stringify(out, null, 2)}\n`);
    } finally {
      json.discard();
    }
  } else if (d.format === "json" && d.nested) {
    const result = nest(readJson(d.file.temp));
    if ("why" in result) d.flatBecause = result.why;
    else writeFileSync(d.file.temp, `${JSON.stringify(result.nested, null, 2)}\n`);
  }
}

/** Whether the file at `path` exists and holds what `temp` holds: sizes first, bytes only when they agree. */
function sameBytes(path: string, temp: string): boolean {
  if (!existsSync(path) || statSync(path).size !== statSync(temp).size) return false;
  return readFileSync(path).equals(readFileSync(temp));
}

/** `phrasebook pull` (docs/product.md §6). */
export async function runPull(args: ParsedArgs): Promise<number> {
  if (args.words.length > 1) throw new CliError(`pull takes no FILE (got "${args.words[1]}"); use --out PATTERN`, 1);
  const formatFlag = parseFormat(args.flags["--format"], PULL_FORMATS);
  const only = args.lists["--language"] ?? [];
  const config = await loadConfig(args);
  const targets = targetsFrom(args, config, only, formatFlag);
  const xliffVersion = parseXliffVersion(args.flags["--xliff-version"]);
  const formats = targets.map((t) => {
    const format = formatFlag ?? formatOfPath(t.pattern, PULL_FORMATS);
    if (!format) throw new CliError(`cannot tell the format of "${t.pattern}": end it in ${writtenExtensions(PULL_FORMATS)}, or pass --format`, 1);
    return format;
  });
  const client = new PhrasebookClient(connectionFrom(args, config));

  const release = await findRelease(client, args.flags["--release"] ?? "latest");
  const detail = await client.publicApi<ReleaseDetail>(`pull ${release.tag}`, `/releases/${encodeURIComponent(release.id)}`);
  const available = languagesOf(detail);
  const wanted = only.length === 0 ? available : only.map((code) => {
    const found = available.find((l) => l.code.toLowerCase() === code.toLowerCase());
    if (!found) throw new CliError(`release ${detail.tag} has no language ${code} (it has ${available.map((l) => l.code).join(", ")})`, 1);
    return found;
  });

  // Everything is downloaded before the first file is replaced: a failed download writes nothing.
  // Each download streams into a temporary file beside its target, so the client holds no more
  // than the files it is checking (at most PULL_CONCURRENT_DOWNLOADS), whatever a server sends.
  const fallbackFiles = !args.switches.has("--no-fallback-files");
  const planned: Planned[] = [];
  const kept: string[] = [];
  const natives: NativeWrite[] = [];
  for (const [i, target] of targets.entries()) {
    if (!isBundleFormat(formats[i]!)) {
      // A format the CDN does not serve is built here from the release's files (pull-native.ts).
      natives.push(...(await pullNative(client, detail.tag, available, wanted, formats[i]!, target.pattern, target.protect, xliffVersion)));
      continue;
    }
    const format = formats[i] as BundleFormat;
    const fallbacks = format === "arb" && fallbackFiles ? fallbacksFor(available, wanted) : new Map<string, string>();
    const items = [...wanted.map((l) => ({ code: l.code, language: l, fallback: false }))];
    for (const [code, from] of fallbacks) items.push({ code, language: wanted.find((l) => l.code === from)!, fallback: true });
    for (const { code, language, fallback } of items) {
      const path = fillPattern(target.pattern, code);
      if (target.protect.includes(normalize(path))) {
        kept.push(path);
        continue;
      }
      const url = language.download_urls[format];
      if (typeof url !== "string") throw new CliError(`pull: the release has no ${format} file for ${language.code}`, 2);
      const jsonUrl = format === "arb" ? language.download_urls.json : undefined;
      if (format === "arb" && typeof jsonUrl !== "string") throw new CliError(`pull: the release has no json file for ${language.code}, which an ARB pull reads for the keys as authored`, 2);
      // Every URL is judged before anything is fetched or written (docs/automation.md "What the client trusts").
      client.allowedUrl(`pull ${path}`, url);
      if (jsonUrl !== undefined) client.allowedUrl(`pull ${path}`, jsonUrl);
      planned.push({ path, code, from: language.code, url, format, jsonUrl, fallback, nested: format === "json" && wantsNested(target, path) });
    }
  }
  // A few downloads at a time (docs/automation.md "pull"): the server compresses a file on its
  // first request, off its main thread, so 50 languages one after the other wait for 50
  // compressions in a row. Kept in the order of the plan whatever order they finish in.
  const downloads: Download[] = [];
  let next = 0;
  let failure: { err: unknown } | undefined;
  const worker = async () => {
    while (next < planned.length && !failure) {
      const at = next++;
      const item = planned[at]!;
      const file = new PendingFile(item.path);
      const d: Download = { ...item, file, bytes: 0 };
      downloads[at] = d;
      try {
        const got = await client.download(`pull ${item.path}`, item.url, file.descriptor);
        file.close();
        // Proven whole by its content tag and shaped as its format, a file is not read back
        // (docs/automation.md "pull"); anything else is parsed, and refused with its fault.
        if (!(got.provenWhole && shapedAs(item.format, got.shape))) await checkWhole(item.path, item.url, item.format, readFileSync(file.temp));
        await shape(client, d);
        d.bytes = statSync(file.temp).size;
      } catch (err) {
        failure ??= { err };
      }
    }
  };
  // Every worker ends before anything is discarded or written, so no download is left writing.
  await Promise.all(Array.from({ length: Math.min(PULL_CONCURRENT_DOWNLOADS, planned.length) }, worker));
  if (failure) {
    for (const d of downloads) d?.file.discard();
    throw failure.err;
  }
  for (const path of kept) await print(`kept ${path}: it is the source file, which push sends and pull never overwrites\n`);
  const saidFlat = new Set<string>();
  for (const d of downloads) {
    if (d.flatBecause && !saidFlat.has(d.flatBecause)) {
      saidFlat.add(d.flatBecause);
      await print(`flat ${d.path}: not nested as the source is, because ${d.flatBecause}\n`);
    }
    const what = d.fallback ? `${d.code}, gen-l10n's fallback for ${d.from}, ${detail.tag}` : `${d.code}, ${detail.tag}`;
    if (sameBytes(d.path, d.file.temp)) {
      d.file.discard();
      await print(`unchanged ${d.path} (${what})\n`);
      continue;
    }
    d.file.commit();
    await print(`wrote ${d.path} (${what}, ${megabytes(d.bytes)})\n`);
  }
  for (const { path, bytes, code } of natives) {
    if (existsSync(path) && readFileSync(path).equals(bytes)) {
      await print(`unchanged ${path} (${code}, ${detail.tag})\n`);
      continue;
    }
    writeAtomically(path, bytes);
    await print(`wrote ${path} (${code}, ${detail.tag}, ${megabytes(bytes.byteLength)})\n`);
  }
  return 0;
}

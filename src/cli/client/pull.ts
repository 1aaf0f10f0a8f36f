import { existsSync, readFileSync } from "node:fs";
import { normalize } from "node:path";
import { CliError } from "../../common/errors.ts";
import { ContentError } from "../../formats/read.ts";
import { formatOfPath, isBundleFormat, isMultiLanguage, readFile, type BundleFormat, type FormatName } from "../../formats/registry.ts";
import { PAGE_SIZE_MAX } from "../../public-api/limits.ts";
import type { ParsedArgs } from "../args.ts";
import { PhrasebookClient } from "./api.ts";
import { connectionFrom, loadConfig, type ClientConfig } from "./config.ts";
import { writeAtomically } from "./files.ts";
import { parseFormat, parseXliffVersion, PULL_FORMATS, writtenExtensions } from "./formats.ts";
import { pullNative } from "./pull-native.ts";
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
  /** A file pull never writes: the configured source, which push sends. */
  source?: string;
}

const RELEASE_ID = /^rel_[0-9A-Za-z]{20}$/;

/** The release `which` names: latest, an id, or a tag (exactly, among the published ones). */
async function findRelease(client: PhrasebookClient, which: string): Promise<ReleaseSummary> {
  if (which === "latest") {
    const { items } = await client.publicApi<{ items: ReleaseSummary[] }>("pull", "/releases?sort=published_at&order=desc&page_size=1");
    if (!items[0]) throw new CliError("pull: the project has no published release yet (phrasebook publish makes one)", 2);
    return items[0];
  }
  if (RELEASE_ID.test(which)) return client.publicApi<ReleaseSummary>(`pull --release ${which}`, `/releases/${which}`);
  for (let page = 1; ; page++) {
    const list = await client.publicApi<{ items: ReleaseSummary[]; page_info: { total_pages: number } }>(
      `pull --release ${which}`,
      `/releases?search=${encodeURIComponent(which)}&page_size=${PAGE_SIZE_MAX}&page=${page}`,
    );
    const found = list.items.find((r) => r.tag === which);
    if (found) return found;
    if (page >= list.page_info.total_pages) break;
  }
  throw new CliError(`pull: no published release has the tag ${which}`, 2);
}

function targetsFrom(args: ParsedArgs, config: ClientConfig | undefined, only: string[], formatFlag: FormatName | undefined): Target[] {
  const out = args.flags["--out"];
  if (out !== undefined) {
    // A format of several languages (XLIFF, .xcstrings) writes them all into one file (docs/formats.md "Export").
    const format = formatFlag ?? formatOfPath(out, PULL_FORMATS);
    if (!hasPlaceholder(out) && only.length !== 1 && !(format && isMultiLanguage(format))) {
      throw new CliError(`--out "${out}" has neither {language} nor {locale}, so every language would be written to one file (or pull exactly one --language)`, 1);
    }
    return [{ pattern: out }];
  }
  if (!config) throw new CliError("no --out given and no phrasebook.yaml here (see phrasebook pull --help)", 1);
  const targets = config.files.filter((f) => f.translations).map((f) => ({ pattern: f.translations!, source: f.source }));
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
    await readFile(format, utf8.decode(bytes));
  } catch (err) {
    const why = err instanceof ContentError ? `${err.line !== undefined ? `line ${err.line}, column ${err.column}: ` : ""}${err.reason}` : "not UTF-8 text";
    throw new CliError(`pull ${path}: the download of ${url} is not a whole ${format} file (${why})`, 2);
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
  const formats = targets.map((t) => {
    const format = formatFlag ?? formatOfPath(t.pattern, PULL_FORMATS);
    if (!format) throw new CliError(`cannot tell the format of "${t.pattern}": end it in ${writtenExtensions(PULL_FORMATS)}, or pass --format`, 1);
    return format;
  });
  const client = new PhrasebookClient(connectionFrom(args, config));

  const release = await findRelease(client, args.flags["--release"] ?? "latest");
  const detail = await client.publicApi<ReleaseDetail>(`pull ${release.tag}`, `/releases/${encodeURIComponent(release.id)}`);
  const available = detail.languages.map((l) => ({ ...l, code: safeLanguageCode(l.code) }));
  const wanted = only.length === 0 ? available : only.map((code) => {
    const found = available.find((l) => l.code.toLowerCase() === code.toLowerCase());
    if (!found) throw new CliError(`release ${detail.tag} has no language ${code} (it has ${available.map((l) => l.code).join(", ")})`, 1);
    return found;
  });

  // Everything is downloaded before the first file is written: a failed download writes nothing.
  const writes: { path: string; bytes: Uint8Array; code: string }[] = [];
  const kept: string[] = [];
  for (const [i, target] of targets.entries()) {
    if (!isBundleFormat(formats[i]!)) {
      writes.push(...(await pullNative(client, detail.tag, available, wanted, formats[i]!, target.pattern, target.source, xliffVersion)));
      continue;
    }
    for (const language of wanted) {
      const path = fillPattern(target.pattern, language.code);
      if (target.source && normalize(target.source) === normalize(path)) {
        kept.push(path);
        continue;
      }
      const url = language.download_urls[formats[i] as BundleFormat];
      if (typeof url !== "string") throw new CliError(`pull: the release has no ${formats[i]} file for ${language.code}`, 2);
      const bytes = await client.download(`pull ${path}`, url);
      await checkWhole(path, url, formats[i] as BundleFormat, bytes);
      writes.push({ path, code: language.code, bytes });
    }
  }
  for (const path of kept) await print(`kept ${path}: it is the source file, which push sends and pull never overwrites\n`);
  for (const { path, bytes, code } of writes) {
    if (existsSync(path) && Buffer.from(readFileSync(path)).equals(bytes)) {
      await print(`unchanged ${path} (${code}, ${detail.tag})\n`);
      continue;
    }
    writeAtomically(path, bytes);
    await print(`wrote ${path} (${code}, ${detail.tag}, ${megabytes(bytes.byteLength)})\n`);
  }
  return 0;
}

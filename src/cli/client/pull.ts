import { existsSync, readFileSync } from "node:fs";
import { normalize } from "node:path";
import { CliError } from "../../common/errors.ts";
import { ContentError } from "../../formats/read.ts";
import { formatOfPath, readFile, type BundleFormat } from "../../formats/registry.ts";
import { PAGE_SIZE_MAX } from "../../public-api/limits.ts";
import type { ParsedArgs } from "../args.ts";
import { PhrasebookClient } from "./api.ts";
import { connectionFrom, loadConfig, type ClientConfig } from "./config.ts";
import { PendingFile } from "./files.ts";
import { RELEASE_LANGUAGES_MAX, RELEASE_PAGES_MAX } from "./limits.ts";
import { parseFormat, PULL_FORMATS, writtenExtensions } from "./formats.ts";
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
  languages: { code: string; download_urls: Partial<Record<BundleFormat, string>> }[];
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

function targetsFrom(args: ParsedArgs, config: ClientConfig | undefined, only: string[]): Target[] {
  const out = args.flags["--out"];
  if (out !== undefined) {
    if (!hasPlaceholder(out) && only.length !== 1) {
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
    throw new CliError(`pull ${path}: the download of ${url.slice(0, 200)} is not a whole ${format} file (${why})`, 2);
  }
}

/** The release's languages, as far as the client believes them (./limits.ts bounds their number). */
function languagesOf(detail: ReleaseDetail): ReleaseDetail["languages"] {
  if (!Array.isArray(detail.languages)) throw new CliError(`pull ${detail.tag}: the server's release has no language list`, 2);
  if (detail.languages.length > RELEASE_LANGUAGES_MAX) {
    throw new CliError(`pull ${detail.tag}: the server lists ${detail.languages.length} languages, more than the ${RELEASE_LANGUAGES_MAX} the client accepts; nothing was written`, 2);
  }
  return detail.languages.map((l) => ({ code: safeLanguageCode(String(l?.code)), download_urls: l?.download_urls ?? {} }));
}

interface Download {
  file: PendingFile;
  code: string;
  bytes: number;
}

/** `phrasebook pull` (docs/product.md §6). */
export async function runPull(args: ParsedArgs): Promise<number> {
  if (args.words.length > 1) throw new CliError(`pull takes no FILE (got "${args.words[1]}"); use --out PATTERN`, 1);
  const formatFlag = parseFormat(args.flags["--format"], PULL_FORMATS);
  const only = args.lists["--language"] ?? [];
  const config = await loadConfig(args);
  const targets = targetsFrom(args, config, only);
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
  // than one file at a time (the one it checks), whatever a server sends.
  const planned: { path: string; code: string; url: string; format: BundleFormat }[] = [];
  const kept: string[] = [];
  for (const [i, target] of targets.entries()) {
    for (const language of wanted) {
      const path = fillPattern(target.pattern, language.code);
      if (target.source && normalize(target.source) === normalize(path)) {
        kept.push(path);
        continue;
      }
      const url = language.download_urls[formats[i]!];
      if (typeof url !== "string") throw new CliError(`pull: the release has no ${formats[i]} file for ${language.code}`, 2);
      // Every URL is judged before anything is fetched or written (docs/automation.md "What the client trusts").
      client.allowedUrl(`pull ${path}`, url);
      planned.push({ path, code: language.code, url, format: formats[i]! });
    }
  }
  const downloads: Download[] = [];
  try {
    for (const { path, code, url, format } of planned) {
      const file = new PendingFile(path);
      downloads.push({ file, code, bytes: 0 });
      downloads.at(-1)!.bytes = await client.download(`pull ${path}`, url, file.descriptor);
      file.close();
      await checkWhole(path, url, format, readFileSync(file.temp));
    }
  } catch (err) {
    for (const d of downloads) d.file.discard();
    throw err;
  }
  for (const path of kept) await print(`kept ${path}: it is the source file, which push sends and pull never overwrites\n`);
  for (const { file, code, bytes } of downloads) {
    if (existsSync(file.path) && readFileSync(file.path).equals(readFileSync(file.temp))) {
      file.discard();
      await print(`unchanged ${file.path} (${code}, ${detail.tag})\n`);
      continue;
    }
    file.commit();
    await print(`wrote ${file.path} (${code}, ${detail.tag}, ${megabytes(bytes)})\n`);
  }
  return 0;
}

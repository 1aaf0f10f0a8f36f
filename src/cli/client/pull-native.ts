import { existsSync, readFileSync } from "node:fs";
import { normalize } from "node:path";
import { CliError } from "../../common/errors.ts";
import { exportBuilder } from "../../formats/export.ts";
import { ContentError } from "../../formats/read.ts";
import { isMultiLanguage, readFile, type FormatName } from "../../formats/registry.ts";
import type { PhrasebookClient } from "./api.ts";
import { PendingFile } from "./files.ts";
import { fillPattern, hasPlaceholder } from "./patterns.ts";

/**
 * `pull --format` of a format the CDN does not serve (XLIFF, PO, Android, Apple; docs/formats.md
 * "Export", docs/automation.md): the file is built on this machine with the format's `write` from
 * the release's CDN files, the JSON of each language (keys as authored, values) and the base
 * language's ARB (the keys' contexts, its `description`s). So pull needs only the read scope.
 */

export interface ReleaseLanguage {
  code: string;
  is_base_language?: boolean;
  download_urls: Record<string, string | undefined>;
}

export interface NativeWrite {
  path: string;
  /** The release languages the file holds. */
  codes: string[];
  text: string;
}

/** What a native pull built: its files, and what the release has (for the check that nothing is lost, ./lost.ts). */
export interface NativePull {
  writes: NativeWrite[];
  /** Each language's strings in the release, from its JSON: what a local file is compared with. */
  values: Map<string, Map<string, string>>;
  /** The release's keys: the base language's. */
  releaseKeys: Set<string>;
  /** Paths the pattern names that are source files, which pull never writes. */
  kept: string[];
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** A CDN file of the release, read whole and checked; streamed into a temporary file beside `near` first. */
export async function downloadText(client: PhrasebookClient, what: string, url: string | undefined, format: "json" | "arb", near: string): Promise<string> {
  if (typeof url !== "string") throw new CliError(`${what}: the release has no ${format} file to build from`, 2);
  const file = new PendingFile(near);
  let text: string;
  try {
    await client.download(what, url, file.descriptor);
    file.close();
    text = utf8.decode(readFileSync(file.temp));
    await readFile(format, text);
  } catch (err) {
    if (err instanceof CliError) throw err;
    const why = err instanceof ContentError ? err.reason : "not UTF-8 text";
    throw new CliError(`${what}: the download of ${url} is not a whole ${format} file (${why})`, 2);
  } finally {
    file.discard();
  }
  return text;
}

/** A UTF-16 file stays UTF-16 (`.strings` files often are); everything else is written UTF-8. */
export function encode(path: string, text: string): Uint8Array {
  const old = existsSync(path) ? readFileSync(path).subarray(0, 2) : undefined;
  if (old && old[0] === 0xff && old[1] === 0xfe) return new Uint8Array(Buffer.from(`\ufeff${text}`, "utf16le"));
  if (old && old[0] === 0xfe && old[1] === 0xff) return new Uint8Array(Buffer.from(`\ufeff${text}`, "utf16le").swap16());
  return new TextEncoder().encode(text);
}

/** Builds the files of `format` for `wanted` (and the base language, which PO and XLIFF write as the source). */
export async function pullNative(
  client: PhrasebookClient,
  tag: string,
  all: readonly ReleaseLanguage[],
  wanted: readonly ReleaseLanguage[],
  format: FormatName,
  pattern: string,
  /** Files never written (normalized): the configured sources, which push sends. */
  protect: readonly string[],
  xliffVersion: "1.2" | "2.0",
  /** A String Catalog that is source and translations at once: written into, though it is a source (docs/automation.md "String Catalogs"). */
  catalog = false,
): Promise<NativePull> {
  const isSource = (path: string) => protect.includes(normalize(path));
  const base = all.find((l) => l.is_base_language) ?? wanted[0]!;
  const needed = [base, ...wanted.filter((l) => l.code !== base.code)];
  const json = new Map<string, Record<string, unknown>>();
  const near = hasPlaceholder(pattern) ? fillPattern(pattern, base.code, base.code) : pattern;
  for (const l of needed) json.set(l.code, JSON.parse(await downloadText(client, `pull ${tag} ${l.code}`, l.download_urls.json, "json", near)) as Record<string, unknown>);
  const baseArb = JSON.parse(await downloadText(client, `pull ${tag} ${base.code}`, base.download_urls.arb, "arb", near)) as Record<string, unknown>;
  const builder = exportBuilder({ base: base.code, json, baseArb });
  const write = (codes: string[]) => builder.write(format, codes, { xliffVersion });
  const values = new Map([...json].map(([code, v]) => [code, new Map(Object.keys(v).flatMap((k) => (typeof v[k] === "string" && v[k] !== "" ? [[k, v[k] as string] as const] : [])))]));
  const kept: string[] = [];
  const pulled = (writes: NativeWrite[]): NativePull => ({ writes, values, releaseKeys: new Set(Object.keys(json.get(base.code) ?? {})), kept });

  const out: NativeWrite[] = [];
  if (!hasPlaceholder(pattern)) {
    if (!isMultiLanguage(format) && wanted.length !== 1) {
      throw new CliError(`--out "${pattern}" has no {language}, {locale} or {android}, and a ${format} file holds one language: pull exactly one --language`, 1);
    }
    const targets = wanted.filter((l) => l.code !== base.code || wanted.length === 1 || format !== "xliff").map((l) => l.code);
    if (format === "xliff" && xliffVersion === "2.0" && targets.length > 1) {
      throw new CliError(`an XLIFF 2.0 file holds one target language: put {language} in --out, or pull one --language`, 1);
    }
    if (!isSource(pattern) || catalog) out.push({ path: pattern, codes: targets, text: write(targets) });
    else kept.push(pattern);
    return pulled(out);
  }
  for (const l of wanted) {
    const path = fillPattern(pattern, l.code, base.code);
    if (isSource(path)) {
      kept.push(path);
      continue;
    }
    out.push({ path, codes: [l.code], text: write([l.code]) });
  }
  return pulled(out);
}

import { readFileSync, writeFileSync } from "node:fs";
import { CliError } from "../../common/errors.ts";
import { ContentError, parseJsonObject } from "../../formats/read.ts";
import { readFile, type BundleFormat } from "../../formats/registry.ts";
import type { PhrasebookClient, TextShape } from "./api.ts";
import { PendingFile } from "./files.ts";
import { nest, teamArb } from "./shape.ts";

/**
 * The CDN files `pull` downloads (docs/automation.md "pull"): a few at a time, each streamed into
 * a temporary file beside its target and proven whole before anything is written, then given the
 * team's shape of that format (./shape.ts: ARB names as authored, nested JSON).
 */

/** Downloads at once: enough to keep a 2-core server compressing, few enough to be a polite client. */
export const PULL_CONCURRENT_DOWNLOADS = 4;

export interface Planned {
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

export interface Download extends Planned {
  file: PendingFile;
  /** Why a JSON file meant to be nested was written flat. */
  flatBecause?: string;
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

async function downloadOne(client: PhrasebookClient, d: Download): Promise<void> {
  const got = await client.download(`pull ${d.path}`, d.url, d.file.descriptor);
  d.file.close();
  // Proven whole by its content tag and shaped as its format, a file is not read back
  // (docs/automation.md "pull"); anything else is parsed, and refused with its fault.
  if (!(got.provenWhole && shapedAs(d.format, got.shape))) await checkWhole(d.path, d.url, d.format, readFileSync(d.file.temp));
  await shape(client, d);
}

/**
 * Every planned file, downloaded and shaped in its temporary file, in the order of the plan
 * whatever order they finish in. The server compresses a file on its first request, off its main
 * thread, so 50 languages one after the other would wait for 50 compressions in a row. A failure
 * stops the rest, and every temporary file is removed before it is thrown.
 */
export async function downloadAll(client: PhrasebookClient, planned: readonly Planned[]): Promise<Download[]> {
  const downloads: Download[] = [];
  let next = 0;
  let failure: { err: unknown } | undefined;
  const worker = async () => {
    while (next < planned.length && !failure) {
      const at = next++;
      try {
        const d: Download = { ...planned[at]!, file: new PendingFile(planned[at]!.path) };
        downloads[at] = d;
        await downloadOne(client, d);
      } catch (err) {
        failure ??= { err };
      }
    }
  };
  // Every worker ends before anything is discarded, so no download is left writing.
  await Promise.all(Array.from({ length: Math.min(PULL_CONCURRENT_DOWNLOADS, planned.length) }, worker));
  if (failure) {
    for (const d of downloads) d?.file.discard();
    throw failure.err;
  }
  return downloads;
}

import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { writeAtomic } from "../bundles/files.ts";
import { bundleFileName, bundlePath, releaseDir } from "../bundles/layout.ts";
import { compareCodePoints } from "../common/text.ts";
import type { FileFormat } from "../formats/format.ts";
import { formatNamed, shippedFormats, type BundleFormat } from "../formats/registry.ts";
import { keyTexts } from "../formats/texts.ts";
import type { MessageSyntax } from "../messages/read.ts";
import type { ReleaseRow } from "../storage/schema.ts";
import { placeholdersOf, type BuildMessages, type BuildRecord, type Placeholders } from "./builds.ts";
import { bunHashes } from "./hashes.ts";
import type { FileDigest, ManifestBasis } from "./manifest.ts";
import { BUILD_SEGMENT } from "./protocol/manifest.ts";

/**
 * A release's files filtered for an app build (docs/delivery.md "App builds"): made from the
 * release's own files (the publish's snapshot), on the first request, and kept beside them in
 * `releases/<release>/b/<build>/`. A language whose files lose nothing is served from the
 * release's own files. What a build leaves out is decided on the base language: a key the build
 * lacks, or whose placeholders (names, and for a build's ARB files their types) differ from the
 * build's; a translation's placeholders match its base message (the publish's checks refuse one
 * that does not).
 */

/** One key of a release's language: its value and its message name in the ARB file. */
interface LanguageFile {
  keys: string[];
  values: Map<string, string>;
  arbNames: Map<string, string>;
  /** The ARB file's entries in order (attributes, messages, their `@` entries). */
  arb: [string, unknown][];
}

/** Reads a language's JSON and ARB files, pairing each key with its ARB message name (same keys, same order). */
async function readLanguage(dataDir: string, releaseId: string, code: string): Promise<LanguageFile> {
  const json = JSON.parse(await readFile(bundlePath(dataDir, releaseId, code, "json"), "utf8")) as Record<string, string>;
  const keys = Object.keys(json).sort(compareCodePoints);
  const arbObject = JSON.parse(await readFile(bundlePath(dataDir, releaseId, code, "arb"), "utf8")) as Record<string, unknown>;
  const arb = Object.entries(arbObject);
  const names = arb.map(([k]) => k).filter((k) => !k.startsWith("@"));
  if (names.length !== keys.length) throw new Error(`release ${releaseId}: ${code}.arb and ${code}.json name different messages`);
  return { keys, values: new Map(keys.map((k) => [k, json[k]!])), arbNames: new Map(keys.map((k, i) => [k, names[i]!])), arb };
}

/** What a release's base language says of each key: its ARB name and its placeholders with their ARB types. */
export interface ReleaseSignature {
  keys: string[];
  arbNames: Map<string, string>;
  placeholders: Map<string, Placeholders>;
}

export async function releaseSignatureOf(dataDir: string, release: ReleaseRow, baseCode: string, syntax: MessageSyntax): Promise<ReleaseSignature> {
  const base = await readLanguage(dataDir, release.publicId, baseCode);
  const meta = new Map(base.arb.filter(([k]) => k.startsWith("@") && !k.startsWith("@@")).map(([k, v]) => [k.slice(1), v as Record<string, unknown>]));
  const placeholders = new Map<string, Placeholders>();
  for (const key of base.keys) placeholders.set(key, placeholdersOf(base.values.get(key)!, syntax, meta.get(base.arbNames.get(key)!) ?? {}));
  return { keys: base.keys, arbNames: base.arbNames, placeholders };
}

/** The build's entry for a key: by the key, or by its ARB message name (a build made of ARB files). */
function entryFor(messages: BuildMessages, key: string, arbName: string | undefined): Placeholders | undefined {
  if (Object.hasOwn(messages, key)) return messages[key];
  return arbName !== undefined && Object.hasOwn(messages, arbName) ? messages[arbName] : undefined;
}

/** Same names; and where the build states types (its ARB files), the same types. */
function samePlaceholders(release: Placeholders, build: Placeholders): boolean {
  const names = Object.keys(build);
  if (names.length !== Object.keys(release).length) return false;
  for (const name of names) {
    if (!Object.hasOwn(release, name)) return false;
    const type = build[name];
    if (type !== null && type !== release[name]) return false;
  }
  return true;
}

/** The base keys a build's files leave out: absent from the build, or with other placeholders. */
export function leftOutKeys(signature: ReleaseSignature, messages: BuildMessages): Set<string> {
  const out = new Set<string>();
  for (const key of signature.keys) {
    const entry = entryFor(messages, key, signature.arbNames.get(key));
    if (entry === undefined || !samePlaceholders(signature.placeholders.get(key)!, entry)) out.add(key);
  }
  return out;
}

/** A build's language: where each format's file is and its digest. */
export interface BuildLanguage {
  files: Record<string, FileDigest & { path: string }>;
}

/** The ARB file with only `kept` messages, in the layout the publish writes (docs/formats.md "ARB"). */
function filteredArb(file: LanguageFile, kept: (key: string) => boolean): string {
  const droppedNames = new Set<string>();
  for (const key of file.keys) if (!kept(key)) droppedNames.add(file.arbNames.get(key)!);
  const parts: string[] = [];
  for (const [k, v] of file.arb) {
    const name = k.startsWith("@") && !k.startsWith("@@") ? k.slice(1) : k;
    if (droppedNames.has(name)) continue;
    parts.push(`${JSON.stringify(k)}: ${JSON.stringify(v)}`);
  }
  return `{\n  ${parts.join(",\n  ")}\n}\n`;
}

/** A flat file (JSON, YAML) of the kept keys, written by the format's own writer. */
function filteredFlat(format: FileFormat, code: string, keys: string[], values: Map<string, string>): string {
  return format.write({ keys: keyTexts({ keys, contexts: new Map() }), languages: [{ code, values: keys.map((k) => values.get(k)) }], argumentsOf: () => [] });
}

/**
 * Makes (or finds made) one language of a build: the filtered files written beside the release's,
 * or, when the build leaves nothing of it out, the release's own files.
 */
export async function makeBuildLanguage(
  dataDir: string,
  release: ReleaseRow,
  basis: ManifestBasis,
  build: BuildRecord,
  leftOut: Set<string>,
  code: string,
): Promise<BuildLanguage> {
  const formats = shippedFormats(release.formats);
  const own = (format: BundleFormat) => ({ path: bundlePath(dataDir, release.publicId, code, format), ...basis.files[code]![format]! });
  const file = await readLanguage(dataDir, release.publicId, code);
  const kept = (key: string) => !leftOut.has(key) && entryFor(build.messages, key, file.arbNames.get(key)) !== undefined;
  const keys = file.keys.filter(kept);
  if (keys.length === file.keys.length) return { files: Object.fromEntries(formats.map((f) => [f, own(f)])) };
  const dir = join(releaseDir(dataDir, release.publicId), BUILD_SEGMENT, build.buildId);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const files: BuildLanguage["files"] = {};
  for (const format of formats) {
    const text = format === "arb" ? filteredArb(file, kept) : filteredFlat(formatNamed(format), code, keys, file.values);
    const bytes = new TextEncoder().encode(text);
    const name = bundleFileName(code, format);
    const path = join(dir, name);
    await writeAtomic(path, dir, name, bytes);
    files[format] = { path, sha256: bunHashes.sha256Hex(bytes), bytes: bytes.length };
  }
  return { files };
}

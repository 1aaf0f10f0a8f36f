import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { writeAtomic } from "../bundles/files.ts";
import { bundleFileName, bundlePath, releaseDir } from "../bundles/layout.ts";
import { compareCodePoints } from "../common/text.ts";
import type { FileFormat } from "../formats/format.ts";
import { formatNamed, shippedFormats, type BundleFormat } from "../formats/registry.ts";
import { keyTexts } from "../formats/texts.ts";
import { pluralSuffix } from "../messages/plural-forms.ts";
import type { MessageSyntax } from "../messages/read.ts";
import { isPlainObject } from "../formats/read.ts";
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

/** A release's language as its JSON file has it, and, when read, its ARB file's message names and entries. */
interface LanguageFile {
  /** In code-point order, the files' order. */
  keys: string[];
  values: Record<string, string>;
  /** Each key's message name in the ARB file (same keys, same order). */
  arbNames?: Map<string, string>;
  /** The ARB file as parsed: attributes, messages, their `@` entries, in order. */
  arb?: Record<string, unknown>;
}

/** The keys of a parsed JSON file in the file's order: JSON.parse puts integer-like keys first. */
function inFileOrder(object: Record<string, unknown>): string[] {
  const keys = Object.keys(object);
  for (let i = 1; i < keys.length; i++) if (compareCodePoints(keys[i - 1]!, keys[i]!) > 0) return keys.sort(compareCodePoints);
  return keys;
}

/** Reads a language's JSON file and, with `arb`, its ARB file, pairing each key with its message name. */
async function readLanguage(dataDir: string, releaseId: string, code: string, arb: boolean): Promise<LanguageFile> {
  const values = JSON.parse(await readFile(bundlePath(dataDir, releaseId, code, "json"), "utf8")) as Record<string, string>;
  const keys = inFileOrder(values);
  if (!arb) return { keys, values };
  const arbObject = JSON.parse(await readFile(bundlePath(dataDir, releaseId, code, "arb"), "utf8")) as Record<string, unknown>;
  const arbNames = new Map<string, string>();
  let i = 0;
  for (const name in arbObject) {
    if (name.charCodeAt(0) === 64 /* @ */) continue;
    const key = keys[i++];
    if (key === undefined) break;
    arbNames.set(key, name);
  }
  if (i !== keys.length || arbNames.size !== keys.length) throw new Error(`release ${releaseId}: ${code}.arb and ${code}.json name different messages`);
  return { keys, values, arbNames, arb: arbObject };
}

/** What a release's base language says of each key: its ARB name and its placeholders with their ARB types. */
export interface ReleaseSignature {
  keys: string[];
  arbNames: Map<string, string>;
  placeholders: Map<string, Placeholders>;
  /** The project's syntax: in `i18next`, a language's plural forms go with their group (`makeBuildFile`). */
  syntax: MessageSyntax;
}

const NO_PLACEHOLDERS: Placeholders = Object.freeze({}) as Placeholders;

export async function releaseSignatureOf(dataDir: string, release: ReleaseRow, baseCode: string, syntax: MessageSyntax): Promise<ReleaseSignature> {
  const base = await readLanguage(dataDir, release.publicId, baseCode, true);
  const placeholders = new Map<string, Placeholders>();
  for (const key of base.keys) {
    const value = base.values[key]!;
    // Most messages have no placeholder: no braces, nothing to read (every syntax's placeholders are braced or %-native).
    if (value.indexOf("{") < 0 && value.indexOf("%") < 0) {
      placeholders.set(key, NO_PLACEHOLDERS);
      continue;
    }
    const meta = base.arb![`@${base.arbNames!.get(key)!}`];
    placeholders.set(key, placeholdersOf(value, syntax, isPlainObject(meta) ? meta : {}));
  }
  return { keys: base.keys, arbNames: base.arbNames!, placeholders, syntax };
}

/** The build's messages as a Map, made once per build. */
const messageMaps = new WeakMap<BuildMessages, Map<string, Placeholders>>();
function messageMap(messages: BuildMessages): Map<string, Placeholders> {
  let map = messageMaps.get(messages);
  if (!map) messageMaps.set(messages, (map = new Map(Object.entries(messages))));
  return map;
}

/** The build's entry for a key: by the key, or by its ARB message name (a build made of ARB files). */
function entryFor(messages: Map<string, Placeholders>, key: string, arbName: string | undefined): Placeholders | undefined {
  return messages.get(key) ?? (arbName === undefined ? undefined : messages.get(arbName));
}

/** Same names; and where the build states types (its ARB files), the same types. */
function samePlaceholders(release: Placeholders, build: Placeholders): boolean {
  let count = 0;
  for (const name in build) {
    count++;
    if (!Object.hasOwn(release, name)) return false;
    const type = build[name];
    if (type !== null && type !== release[name]) return false;
  }
  let releaseCount = 0;
  for (const _ in release) releaseCount++;
  return count === releaseCount;
}

/** The base keys a build's files leave out: absent from the build, or with other placeholders. */
export function leftOutKeys(signature: ReleaseSignature, messages: BuildMessages): Set<string> {
  const map = messageMap(messages);
  const out = new Set<string>();
  for (const key of signature.keys) {
    const entry = entryFor(map, key, signature.arbNames.get(key));
    if (entry === undefined || !samePlaceholders(signature.placeholders.get(key)!, entry)) out.add(key);
  }
  return out;
}

/** A build's file: where it is (the release's own file, when the build loses nothing of it) and its digest. */
export type BuildFile = FileDigest & { path: string };

/** The ARB file with only `kept` messages, in the layout the publish writes (docs/formats.md "ARB"). */
function filteredArb(file: LanguageFile, kept: (key: string) => boolean): string {
  const droppedNames = new Set<string>();
  for (const key of file.keys) if (!kept(key)) droppedNames.add(file.arbNames!.get(key)!);
  const parts: string[] = [];
  for (const k in file.arb!) {
    const name = k.charCodeAt(0) === 64 && k.charCodeAt(1) !== 64 ? k.slice(1) : k;
    if (droppedNames.has(name)) continue;
    parts.push(`${JSON.stringify(k)}: ${JSON.stringify(file.arb![k])}`);
  }
  return `{\n  ${parts.join(",\n  ")}\n}\n`;
}

/** A flat file (JSON, YAML) of the kept keys, written by the format's own writer. */
function filteredFlat(format: FileFormat, code: string, keys: string[], values: Record<string, string>): string {
  return format.write({ keys: keyTexts({ keys, contexts: new Map() }), languages: [{ code, values: keys.map((k) => values[k]) }], argumentsOf: () => [] });
}

/**
 * Makes one file of a build: the release's file of that language and format less what the build
 * leaves out, written beside the release's; or, when the build leaves nothing of it out, the
 * release's own file. Which keys go is decided on the JSON file (every format has the same keys);
 * a key is matched by its name or its ARB message name, the same in every language of a release.
 */
export async function makeBuildFile(
  dataDir: string,
  release: ReleaseRow,
  basis: ManifestBasis,
  build: BuildRecord,
  signature: ReleaseSignature,
  leftOut: Set<string>,
  code: string,
  format: BundleFormat,
): Promise<BuildFile> {
  const file = await readLanguage(dataDir, release.publicId, code, false);
  const messages = messageMap(build.messages);
  const inBuild = (key: string) => !leftOut.has(key) && entryFor(messages, key, signature.arbNames.get(key)) !== undefined;
  // In i18next, a language's plural forms that the base file lacks (Russian `items_few`, where
  // English has `items_one` and `items_other` only) are kept with their group's `_other` form
  // (docs/messages.md "i18next plural forms").
  const kept = (key: string) => {
    if (inBuild(key)) return true;
    if (signature.syntax !== "i18next" || leftOut.has(key)) return false;
    const form = pluralSuffix(key);
    return form !== null && form.other !== key && inBuild(form.other);
  };
  const keys = file.keys.filter(kept);
  if (keys.length === file.keys.length) return { path: bundlePath(dataDir, release.publicId, code, format), ...basis.files[code]![format]! };
  const text = format === "arb" ? filteredArb(await readLanguage(dataDir, release.publicId, code, true), kept) : filteredFlat(formatNamed(format), code, keys, file.values);
  const dir = join(releaseDir(dataDir, release.publicId), BUILD_SEGMENT, build.buildId);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const bytes = new TextEncoder().encode(text);
  const name = bundleFileName(code, format);
  const path = join(dir, name);
  await writeAtomic(path, dir, name, bytes);
  return { path, sha256: bunHashes.sha256Hex(bytes), bytes: bytes.length };
}

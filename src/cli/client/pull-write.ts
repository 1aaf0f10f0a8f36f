import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { ContentError } from "../../formats/read.ts";
import { formatOfPath, readFile, type FormatName } from "../../formats/registry.ts";
import { print } from "../output.ts";
import { PendingFile, readTextFile } from "./files.ts";
import { keepShape } from "./keep/index.ts";
import { DOWNLOAD_MAX_BYTES } from "./limits.ts";
import { lostKeys, refusal, type Loss } from "./lost.ts";
import { encode } from "./pull-native.ts";
import { megabytes } from "./progress.ts";

/**
 * The last step of `pull` (docs/automation.md "pull"): each file the release gives, already
 * downloaded or built into a temporary file beside its target, is compared with the local file.
 * Where there is none it is written as it is; where there is one it is written in that file's
 * shape (./keep/), unless that would drop a translation the file holds and the release lacks
 * (./lost.ts), which stops the whole pull before anything is written. Then each file is renamed
 * into place, or left alone when its bytes would not change, one line each.
 */
export interface Output {
  path: string;
  format: FormatName;
  /** The release languages the file holds. */
  codes: string[];
  /** What the line says of it: "de, v1.4.0". */
  label: string;
  /** The file as the release gives it, UTF-8. */
  file: PendingFile;
  /** Said on a line of its own before the file's. */
  note?: string;
  /**
   * Each language's strings in the release, where the pull built the file from them
   * (./pull-native.ts): a local string equal to its release string is kept as written, whatever
   * the format's writer would make of it (a plural form the file does not have, docs/automation.md "Pull keeps the repository's shape").
   */
  values?: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** A String Catalog written into: the catalog's strings only (its own source), or the release's too. */
  catalog?: { addKeys: boolean };
  /** The file whose key order new keys follow: the source of the set. */
  orderFrom?: string;
  /** The source file whose keys alone the file holds (one of several sets of phrasebook.yaml). */
  keysOf?: string;
}

export interface Settling {
  tag: string;
  force: boolean;
  /** The keys the release has, as `format` names them (ARB by message name): read only when a file may lose some. */
  releaseKeys(format: FormatName): Promise<ReadonlySet<string>>;
  /** Lines said before the files' (sources kept, files skipped), once the pull is sure to go ahead. */
  before: readonly string[];
}

type Strings = Map<string, Map<string, string>>;

/** A file's strings per language (lower-case code, `_` as `-`); a file of one language under `code`. */
async function stringsOf(format: FormatName, text: string, code: string): Promise<Strings> {
  const content = await readFile(format, text);
  const out: Strings = new Map();
  for (const l of content.languages) {
    const at = content.languages.length === 1 && format !== "xcstrings" && format !== "xliff" ? code.toLowerCase() : (l.locale ?? code).replace(/_/g, "-").toLowerCase();
    out.set(at, new Map(l.entries.map((e) => [e.key, e.value])));
  }
  return out;
}

const orders = new Map<string, string[]>();

/** The key order of the set's source file (read once), or none when it cannot be read. */
async function orderOf(path: string | undefined): Promise<string[][]> {
  if (!path || !existsSync(path)) return [];
  let order = orders.get(path);
  if (!order) {
    const format = formatOfPath(path);
    try {
      order = format ? (await readFile(format, readTextFile(path))).languages[0]?.entries.map((e) => e.key) ?? [] : [];
    } catch {
      order = [];
    }
    orders.set(path, order);
  }
  return [order];
}

interface Settled {
  output: Output;
  verb: "wrote" | "unchanged" | "skipped";
  bytes: number;
  why?: string;
}

/** The local file's text and strings, or why it cannot be read as its format (it is then replaced whole). */
async function readLocal(o: Output): Promise<{ text: string; mine: Strings } | { why: string }> {
  try {
    const text = readTextFile(o.path, DOWNLOAD_MAX_BYTES);
    return { text, mine: await stringsOf(o.format, text, o.codes[0]!) };
  } catch (err) {
    const why = err instanceof ContentError ? `${err.line !== undefined ? `line ${err.line}: ` : ""}${err.reason}` : (err as Error).message;
    return { why: `the file there did not read as ${o.format} (${why.slice(0, 200)}), so it was replaced whole` };
  }
}

/**
 * A new file of one of several sets: the release's file without the keys other sets brought
 * (the release's file itself when it has none of those).
 */
async function ownKeysOnly(o: Output, tag: string): Promise<Settled> {
  const keys = new Set((await orderOf(o.keysOf))[0] ?? []);
  const fresh = readFileSync(o.file.temp, "utf8");
  const theirs = (await stringsOf(o.format, fresh, o.codes[0]!)).get(o.codes[0]!.toLowerCase()) ?? new Map<string, string>();
  // A language with none of this set's strings gets no file of it (an app of another set has them).
  if (keys.size > 0 && ![...theirs.keys()].some((k) => keys.has(k))) return { output: o, verb: "skipped", bytes: 0, why: `release ${tag} has no ${o.codes[0]} string of ${o.keysOf}` };
  if (keys.size === 0 || [...theirs.keys()].every((k) => keys.has(k))) return { output: o, verb: "wrote", bytes: statSync(o.file.temp).size };
  const only = await keepShape({ format: o.format, local: fresh, fresh, mine: theirs, theirs, orders: [], only: (key) => keys.has(key) });
  if (only !== undefined) writeFileSync(o.file.temp, only);
  return { output: o, verb: "wrote", bytes: statSync(o.file.temp).size };
}

/** Compares one output with its local file; writes the kept shape into its temporary file. */
async function settleOne(o: Output, s: Settling, losses: Loss[]): Promise<Settled> {
  if (!existsSync(o.path)) return o.keysOf ? ownKeysOnly(o, s.tag) : { output: o, verb: "wrote", bytes: statSync(o.file.temp).size };
  if (statSync(o.path).size === statSync(o.file.temp).size && readFileSync(o.path).equals(readFileSync(o.file.temp))) return { output: o, verb: "unchanged", bytes: 0 };
  const fresh = readFileSync(o.file.temp, "utf8");
  const local = await readLocal(o);
  if ("why" in local) {
    writeFileSync(o.file.temp, encode(o.path, fresh));
    return { output: o, verb: "wrote", bytes: statSync(o.file.temp).size, why: local.why };
  }
  const { text, mine } = local;
  const theirs = await stringsOf(o.format, fresh, o.codes[0]!);
  // A catalog's source language is the catalog's own: pull never writes it (docs/automation.md "String Catalogs").
  const source = o.catalog ? (await readFile(o.format, text)).source?.toLowerCase() : undefined;
  const codes = o.codes.filter((c) => c.toLowerCase() !== source);
  const keep = await untranslated(o, s, mine, theirs, codes, losses);
  const released = (code: string) => (o.values ? [...o.values].find(([c]) => c.toLowerCase() === code.toLowerCase())?.[1] : undefined);
  const same = (key: string, code: string) => {
    const local = mine.get(code.toLowerCase())?.get(key);
    return local !== undefined && (local === theirs.get(code.toLowerCase())?.get(key) || local === released(code)?.get(key));
  };
  const first = codes[0]?.toLowerCase() ?? "";
  const ownKeys = o.keysOf ? new Set((await orderOf(o.keysOf))[0] ?? []) : undefined;
  const kept = await keepShape({
    ...(ownKeys && ownKeys.size > 0 ? { only: (key: string) => ownKeys.has(key) } : {}),
    format: o.format,
    local: text,
    fresh,
    mine: mine.get(first) ?? new Map(),
    theirs: theirs.get(first) ?? new Map(),
    orders: await orderOf(o.orderFrom),
    same: (key: string) => same(key, first),
    keep: (key: string) => keep.has(key),
    ...(o.format === "xcstrings" ? { catalog: { codes, addKeys: o.catalog?.addKeys ?? true, same } } : {}),
  });
  const bytes = encode(o.path, kept ?? fresh);
  if (readFileSync(o.path).equals(bytes)) return { output: o, verb: "unchanged", bytes: 0 };
  writeFileSync(o.file.temp, bytes);
  return { output: o, verb: "wrote", bytes: bytes.byteLength };
}

/**
 * The strings of the file the release does not translate: those of keys the release has are
 * added to `losses` (./lost.ts), unless --force; those of keys it does not have yet but the
 * source does (a key added since the release, translated in the same change) are answered, to be
 * kept as they are. Keys neither has were deleted, and go.
 */
async function untranslated(o: Output, s: Settling, mine: Strings, theirs: Strings, codes: readonly string[], losses: Loss[]): Promise<Set<string>> {
  const keep = new Set<string>();
  let releaseKeys: ReadonlySet<string> | undefined;
  let sourceKeys: ReadonlySet<string> | undefined;
  for (const code of codes) {
    const local = mine.get(code.toLowerCase());
    if (!local) continue;
    const built = o.values && [...o.values].find(([c]) => c.toLowerCase() === code.toLowerCase())?.[1];
    const given = theirs.get(code.toLowerCase());
    const translated = built ? (key: string) => built.has(key) : (key: string) => (given?.get(key) ?? "") !== "";
    const candidates = lostKeys(local, translated, () => true);
    // The release's keys are read only when some string of the file is not among its translations.
    if (candidates.length === 0) continue;
    releaseKeys ??= await s.releaseKeys(o.format);
    sourceKeys ??= new Set((await orderOf(o.orderFrom))[0] ?? []);
    const lost = candidates.filter((key) => releaseKeys!.has(key));
    if (lost.length > 0 && !s.force) losses.push({ path: o.path, code, keys: lost });
    for (const key of candidates) if (!releaseKeys.has(key) && sourceKeys.has(key)) keep.add(key);
  }
  return keep;
}

/** What a pull did with its files: how many it wrote, left unchanged, and skipped. */
export interface Settlement {
  wrote: number;
  unchanged: number;
  skipped: number;
}

/** Settles every output, then writes them (or, when one would lose translations, none). */
export async function settle(outputs: readonly Output[], s: Settling): Promise<Settlement> {
  const losses: Loss[] = [];
  const settled: Settled[] = [];
  try {
    for (const o of outputs) settled.push(await settleOne(o, s, losses));
    if (losses.length > 0) throw refusal(losses, s.tag);
  } catch (err) {
    for (const o of outputs) o.file.discard();
    throw err;
  }
  const done: Settlement = { wrote: 0, unchanged: 0, skipped: 0 };
  for (const line of s.before) await print(`${line}\n`);
  for (const { output: o, verb, bytes, why } of settled) {
    if (o.note) await print(`${o.note}\n`);
    done[verb]++;
    if (verb !== "wrote") {
      o.file.discard();
      await print(verb === "skipped" ? `skipped ${o.path}: ${why}\n` : `unchanged ${o.path} (${o.label})\n`);
      continue;
    }
    o.file.commit();
    await print(`wrote ${o.path} (${o.label}, ${megabytes(bytes)})${why ? `: ${why}` : ""}\n`);
  }
  return done;
}

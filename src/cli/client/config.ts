import { existsSync } from "node:fs";
import { CliError } from "../../common/errors.ts";
import { TOKEN_PREFIX, TOKEN_RANDOM_LENGTH, TOKEN_SHAPE } from "../../tokens/format.ts";
import type { ParsedArgs } from "../args.ts";
import type { Connection } from "./api.ts";
import { hasPlaceholder } from "./patterns.ts";
import type { FormatName } from "../../formats/registry.ts";

/**
 * `phrasebook.yaml` (docs/product.md §6, docs/automation.md): the server (optional; the token always
 * comes from the environment or --token) and the files: each `source` is pushed as the base
 * language, `translations` is where pull writes every language and what push --translations reads.
 */
export const CONFIG_FILE = "phrasebook.yaml";

export interface FileSet {
  /** Paths as the user reads them: relative to the current directory when the config is elsewhere. */
  source?: string;
  translations?: string;
  /**
   * A String Catalog (`.xcstrings`): source and translations in one file, which push sends and
   * pull writes into (docs/automation.md "String Catalogs").
   */
  catalog?: string;
  /** How pull writes JSON: nested objects or flat keys (default: the shape of the source file). */
  structure?: "nested" | "flat";
  /** The format of the set's files, where their extension names none (docs/automation.md "The format follows the path"). */
  format?: FormatName;
}

export interface ClientConfig {
  path: string;
  server?: string;
  /** The CDN's origin when it is on a host of its own (docs/automation.md "What the client trusts"). */
  cdnUrl?: string;
  files: FileSet[];
}

/** An http(s) origin as the user gave it, or one line saying what is wrong with it. */
function originOf(raw: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new CliError(`the ${what} "${raw.slice(0, 100)}" is not a URL; give its public address, e.g. https://i18n.example.com`, 1);
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.search || url.hash || url.username || url.password) {
    throw new CliError(`the ${what} must be an http(s) address without query, fragment or credentials (got "${raw.slice(0, 100)}")`, 1);
  }
  return url;
}

function fail(path: string, why: string, line?: number): never {
  throw new CliError(`${path}${line !== undefined ? `:${line}` : ""}: ${why}`, 1);
}

type PathModule = typeof import("node:path");

/** A path of the config, as seen from the current directory. */
function fromConfig({ dirname, isAbsolute, relative, resolve }: PathModule, configPath: string, path: string): string {
  const absolute = isAbsolute(path) ? path : resolve(dirname(configPath), path);
  const rel = relative(process.cwd(), absolute);
  return rel.startsWith("..") || isAbsolute(rel) ? absolute : rel;
}

/**
 * Reads the config named by --config, or ./phrasebook.yaml when there is one (else undefined).
 * What reading one needs (the YAML parser, node:path) is loaded only when there is one: a command
 * without a config starts without them (docs/architecture.md "Start-up").
 */
export async function loadConfig(args: ParsedArgs): Promise<ClientConfig | undefined> {
  const given = args.flags["--config"];
  const path = given ?? CONFIG_FILE;
  if (given === undefined && !existsSync(path)) return undefined;
  const [{ readTextFile }, { parseDocument }, paths] = await Promise.all([import("./files.ts"), import("yaml"), import("node:path")]);
  const text = readTextFile(path);
  const doc = parseDocument(text, { prettyErrors: true });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    fail(path, `not valid YAML: ${e.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "")}`, e.linePos?.[0].line);
  }
  const data: unknown = doc.toJS({ maxAliasCount: 10 });
  if (data === null || data === undefined) fail(path, "is empty; it needs a files: list (see phrasebook push --help)");
  if (typeof data !== "object" || Array.isArray(data)) fail(path, "must be a mapping with server: and files:");
  const record = data as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (key === "token") fail(path, "holds a token: remove it, and give the token as PHRASEBOOK_TOKEN (a secret of the CI), never in a file of the repository");
    if (key !== "server" && key !== "files" && key !== "cdn_url") fail(path, `unknown setting "${key}" (the settings are server, cdn_url and files)`);
  }
  if (record.server !== undefined && typeof record.server !== "string") fail(path, "server: must be a URL such as https://i18n.example.com");
  if (record.cdn_url !== undefined && typeof record.cdn_url !== "string") fail(path, "cdn_url: must be a URL such as https://cdn.example.com");
  if (!Array.isArray(record.files) || record.files.length === 0) fail(path, "files: must list at least one entry with source: and translations:");
  const files: FileSet[] = [];
  for (const [i, entry] of record.files.entries()) files.push(await fileSet(paths, path, `files[${i}]`, entry));
  return { path, server: record.server as string | undefined, cdnUrl: record.cdn_url as string | undefined, files };
}

const FILE_SETTINGS = ["source", "translations", "catalog", "structure", "format"];

/** One entry of `files:`, checked: its paths as seen from here, its format the paths' (docs/automation.md). */
async function fileSet(paths: PathModule, path: string, where: string, entry: unknown): Promise<FileSet> {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) fail(path, `${where} must be a mapping with source: and translations:`);
  const e = entry as Record<string, unknown>;
  for (const key of Object.keys(e)) {
    if (!FILE_SETTINGS.includes(key)) fail(path, `${where}: unknown setting "${key}" (the settings are ${FILE_SETTINGS.join(", ")})`);
  }
  if (e.structure !== undefined && e.structure !== "nested" && e.structure !== "flat") fail(path, `${where}.structure must be nested or flat`);
  for (const key of ["source", "translations", "catalog", "format"]) {
    if (e[key] !== undefined && (typeof e[key] !== "string" || !e[key])) fail(path, `${where}.${key} must be ${key === "translations" ? "a file pattern" : key === "format" ? "a format's name" : "a file path"}`);
  }
  if (e.catalog !== undefined && (e.source !== undefined || e.translations !== undefined)) {
    fail(path, `${where}: a catalog is source and translations in one file; give it alone, as catalog: ${String(e.catalog)}`);
  }
  if (e.source === undefined && e.translations === undefined && e.catalog === undefined) fail(path, `${where} needs source: and translations:, or catalog:`);
  if (typeof e.translations === "string" && !hasPlaceholder(e.translations)) {
    fail(path, `${where}.translations "${e.translations}" has neither {language} nor {locale}, so every language would be written to one file`);
  }
  const set: FileSet = {
    source: typeof e.source === "string" ? fromConfig(paths, path, e.source) : undefined,
    translations: typeof e.translations === "string" ? fromConfig(paths, path, e.translations) : undefined,
    catalog: typeof e.catalog === "string" ? fromConfig(paths, path, e.catalog) : undefined,
    structure: e.structure as FileSet["structure"],
  };
  // The format follows the path (docs/automation.md): the format table is loaded for a set that
  // names a format or a catalog, not by every command that reads the configuration.
  if (e.format === undefined && e.catalog === undefined && !/\.xcstrings$/i.test(String(e.source ?? ""))) return set;
  const { checkSetFormats } = await import("./formats.ts");
  const format = checkSetFormats(set, typeof e.format === "string" ? e.format : undefined, (why) => fail(path, `${where}: ${why}`));
  return format ? { ...set, format } : set;
}

/** The server and token: flag, then environment, then (server only) the config. Never printed. */
export function connectionFrom(args: ParsedArgs, config: ClientConfig | undefined, env: Record<string, string | undefined> = process.env): Connection {
  const rawServer = args.flags["--server"] ?? (env.PHRASEBOOK_SERVER || undefined) ?? config?.server;
  if (!rawServer) throw new CliError("no server: set PHRASEBOOK_SERVER (or pass --server, or add server: to phrasebook.yaml) to the Phrasebook server's address, e.g. https://i18n.example.com", 1);
  const url = originOf(rawServer, "server");
  const rawCdn = args.flags["--cdn-url"] ?? (env.PHRASEBOOK_CDN_URL || undefined) ?? config?.cdnUrl;
  const cdn = rawCdn ? originOf(rawCdn, "CDN URL").origin : undefined;
  const server = (url.origin + url.pathname).replace(/\/+$/, "");
  const rawToken = args.flags["--token"] ?? env.PHRASEBOOK_TOKEN;
  if (!rawToken) throw new CliError("no token: set PHRASEBOOK_TOKEN (or pass --token) to an API token of the project, made in the dashboard (API tokens)", 1);
  const token = rawToken.trim();
  // The value is never shown: a mistyped secret should not end up in a CI log.
  if (!TOKEN_SHAPE.test(token)) throw new CliError(`the token is not a Phrasebook API token (those are ${TOKEN_PREFIX} and ${TOKEN_RANDOM_LENGTH} letters and digits)`, 1);
  return { server, token, cdn };
}

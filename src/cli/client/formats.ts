import { CliError } from "../../common/errors.ts";
import { FORMAT_NAMES, formatNamed, formatOfPath, isFormatName, type FormatName } from "../../formats/registry.ts";
import type { FileSet } from "./config.ts";

/**
 * The client's formats, from the registry (docs/formats.md): `push` sends a file of any format
 * (every format can be read); `pull` downloads the bundle formats a release shipped and builds
 * the others from them (pull-native.ts), so it writes every format (docs/automation.md).
 */
export const PUSH_FORMATS: readonly FormatName[] = FORMAT_NAMES;
export const PULL_FORMATS: readonly FormatName[] = FORMAT_NAMES;

/** `--xliff-version`: what `pull --format xliff` writes, 1.2 unless 2.0 is asked for (docs/formats.md "XLIFF"). */
export function parseXliffVersion(raw: string | undefined): "1.2" | "2.0" {
  if (raw === undefined || raw === "1.2") return "1.2";
  if (raw === "2.0" || raw === "2") return "2.0";
  throw new CliError(`--xliff-version must be 1.2 or 2.0 (got "${raw}")`, 1);
}

/** "json, yaml or arb" */
export function orList(items: readonly string[]): string {
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`;
}

/** "(.json, .yaml/.yml, .arb)": every extension, grouped by format, for help text. */
export function extensionsHelp(formats: readonly FormatName[]): string {
  return formats.map((name) => formatNamed(name).extensions.map((ext) => `.${ext}`).join("/")).join(", ");
}

/** ".json, .yaml or .arb": the extension each format is written with, for an error. */
export function writtenExtensions(formats: readonly FormatName[]): string {
  return orList(formats.map((name) => `.${formatNamed(name).extensions[0]}`));
}

/** `--format`: a format's name or one of its extensions (`yml`), in any letter case. */
export function parseFormat<N extends FormatName>(raw: string | undefined, formats: readonly N[]): N | undefined {
  if (raw === undefined) return undefined;
  const lower = raw.toLowerCase();
  const found = formats.find((name) => name === lower || formatNamed(name).extensions.includes(lower));
  if (!found) throw new CliError(`--format must be ${orList(formats)} (got "${raw}")`, 1);
  return found;
}

/** ".xml (android)": what a path's extension says, for an error. */
const extensionOf = (path: string, format: FormatName) => `.${formatNamed(format).extensions.find((ext) => path.toLowerCase().endsWith(`.${ext}`)) ?? formatNamed(format).extensions[0]}`;

/**
 * The format of a path (docs/automation.md "The format follows the path"): its extension's, and a
 * format given (`--format`, or `format:` in phrasebook.yaml) must be that one. One that names
 * another is bad usage: nothing is read, sent or written.
 */
export function formatFor(path: string, given: FormatName | undefined, from = "--format"): FormatName | undefined {
  const byPath = formatOfPath(path, FORMAT_NAMES);
  if (given && byPath && given !== byPath) {
    throw new CliError(`${path}: ${from} ${given} is not the format of the path, which ends in ${extensionOf(path, byPath)} (${byPath}); leave ${from} out, or give a path ending in .${formatNamed(given).extensions[0]}`, 1);
  }
  return given ?? byPath;
}

/** Checks the formats of a `files:` entry of phrasebook.yaml; answers its `format:`, when it names one. */
export function checkSetFormats(set: FileSet, format: string | undefined, fail: (why: string) => never): FormatName | undefined {
  if (format !== undefined && !isFormatName(format.toLowerCase())) fail(`format: must be ${orList(FORMAT_NAMES)} (got "${format}")`);
  const given = format?.toLowerCase() as FormatName | undefined;
  if (set.catalog !== undefined && formatOfPath(set.catalog) !== "xcstrings") fail(`catalog: ${set.catalog} is no String Catalog: its name must end in .xcstrings`);
  if (set.source !== undefined && formatOfPath(set.source) === "xcstrings") fail(`a String Catalog is source and translations in one file: list it as catalog: ${set.source}`);
  for (const path of [set.source, set.translations, set.catalog]) {
    if (path === undefined) continue;
    try {
      formatFor(path, given, "format:");
    } catch (err) {
      fail((err as Error).message);
    }
  }
  return given;
}

import { CliError } from "../../common/errors.ts";
import { FORMAT_NAMES, formatNamed, type FormatName } from "../../formats/registry.ts";

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

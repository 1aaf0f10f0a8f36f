import { readdirSync, statSync } from "node:fs";
import { CliError } from "../../common/errors.ts";
import { LANGUAGE_CODE_MAX_LENGTH } from "../../common/limits.ts";

/**
 * File patterns of the client (docs/product.md §6): `{language}` is a language code as the server
 * has it (`pt-BR`), `{locale}` the same with underscores (`pt_BR`, the form of Flutter's gen-l10n
 * file names and of ARB's @@locale).
 */
const PLACEHOLDER = /\{(language|locale|android)\}/g;
/** The same, splitting a string: odd pieces are the placeholders' names. */
const PLACEHOLDER_ONE = /\{(language|locale|android)\}/;
/** What a language code from a server may look like before it becomes part of a path. */
const LANGUAGE_CODE = /^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$/;

export function hasPlaceholder(pattern: string): boolean {
  return /\{(language|locale|android)\}/.test(pattern);
}

/**
 * `{android}`: the resource folder of a language (docs/formats.md "Android"): `values` for the
 * base language, else `values-de`, `values-pt-rBR`, `values-b+sr+Latn`.
 */
export function androidFolder(code: string, base: string | undefined): string {
  if (code === base) return "values";
  const parts = code.split("-");
  if (parts.length === 1) return `values-${parts[0]}`;
  if (parts.length === 2 && /^[A-Za-z]{2}$/.test(parts[1]!)) return `values-${parts[0]}-r${parts[1]!.toUpperCase()}`;
  return `values-b+${parts.join("+")}`;
}

/** The language of an Android resource folder name (`values-pt-rBR` is pt-BR); undefined for `values` itself. */
function languageOfAndroidFolder(folder: string): string | undefined {
  const b = /^values-b\+([A-Za-z0-9]+(?:\+[A-Za-z0-9]+)*)$/.exec(folder);
  if (b) return b[1]!.replace(/\+/g, "-");
  const r = /^values-([A-Za-z]{2,3})(?:-r([A-Za-z]{2}))?$/.exec(folder);
  return r ? (r[2] ? `${r[1]}-${r[2]}` : r[1]) : undefined;
}

/** The code as written into a path; refuses anything but letters, digits and dashes (a path trick). */
export function safeLanguageCode(code: string, exitCode: 1 | 2 = 2): string {
  if (code.length > LANGUAGE_CODE_MAX_LENGTH || !LANGUAGE_CODE.test(code)) throw new CliError(`${exitCode === 2 ? "the server named" : "the file names"} a language "${code.slice(0, 40)}" that is no language code`, exitCode);
  return code;
}

export function fillPattern(pattern: string, code: string, base?: string): string {
  const safe = safeLanguageCode(code);
  return pattern.replace(PLACEHOLDER, (_, which: string) => (which === "locale" ? safe.replace(/-/g, "_") : which === "android" ? androidFolder(safe, base) : safe));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The language code in `path` if it matches `pattern` (`lib/l10n/app_pt_BR.arb` gives `pt-BR`). */
export function languageFromPath(pattern: string, path: string): string | undefined {
  if (!hasPlaceholder(pattern)) return undefined;
  let source = "";
  let last = 0;
  for (const m of pattern.matchAll(PLACEHOLDER)) {
    source +=
      escapeRegExp(pattern.slice(last, m.index)) +
      (m[1] === "locale" ? "([A-Za-z0-9]+(?:_[A-Za-z0-9]+)*)" : m[1] === "android" ? "(values(?:-[A-Za-z0-9+-]+)?)" : "([A-Za-z0-9]+(?:-[A-Za-z0-9]+)*)");
    last = m.index! + m[0].length;
  }
  source += escapeRegExp(pattern.slice(last));
  const match = new RegExp(`^${source}$`).exec(path);
  if (!match) return undefined;
  const codes = new Set(match.slice(1).map((c) => (c.startsWith("values") ? (languageOfAndroidFolder(c) ?? "") : c.replace(/_/g, "-"))));
  if (codes.has("")) return undefined; // `values` is the base language's folder: the source, not a translation
  return codes.size === 1 ? [...codes][0] : undefined; // two parts naming different languages: no match
}

/**
 * The existing files a pattern could name, as paths in the pattern's form (relative stays
 * relative): each part of the path with a placeholder matches the entries of its folder, the
 * others are taken as written. Plain node:fs, so the Node client runs it too (docs/automation.md).
 */
export function filesMatching(pattern: string): string[] {
  const parts = pattern.split("/");
  let paths = [parts[0] === "" ? "/" : ""];
  const start = parts[0] === "" ? 1 : 0;
  for (let i = start; i < parts.length; i++) {
    const part = parts[i]!;
    const last = i === parts.length - 1;
    const next: string[] = [];
    const matcher = hasPlaceholder(part) ? new RegExp(`^${part.split(PLACEHOLDER_ONE).map((piece, j) => (j % 2 === 1 ? "[A-Za-z0-9_+-]+" : escapeRegExp(piece))).join("")}$`) : undefined;
    for (const dir of paths) {
      const join = (name: string) => (dir === "" ? name : dir === "/" ? `/${name}` : `${dir}/${name}`);
      if (!matcher) {
        next.push(join(part));
        continue;
      }
      let names: string[];
      try {
        names = readdirSync(dir === "" ? "." : dir);
      } catch {
        continue;
      }
      for (const name of names.sort()) if (matcher.test(name)) next.push(join(name));
    }
    paths = next;
  }
  return paths.filter((p) => {
    try {
      return statSync(p).isFile();
    } catch {
      return false;
    }
  });
}

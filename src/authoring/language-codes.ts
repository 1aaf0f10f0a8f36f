import { badRequest } from "../common/errors.ts";

/**
 * Language codes are BCP 47 tags (`en`, `pt-BR`, `zh-Hant-TW`, `es-419`). They appear in file
 * names and URLs, so besides being valid tags they may hold only ASCII letters, digits and '-'.
 */
const SAFE_TAG = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/;
/** The one well-formed tag no language may have. */
const RESERVED_CODE = "manifest";

/** A code as stored, canonically cased. Its length is the route schema's to bound (model.ts LANGUAGE_CODE_MAX_LENGTH). */
export function normaliseLanguageCode(raw: string, field = "code"): string {
  const code = raw.trim();
  if (!code || !SAFE_TAG.test(code)) {
    throw badRequest(`invalid field "${field}": "${raw}" is not a language code like en or pt-BR`);
  }
  // A release's `manifest.json` sits beside its language files (docs/delivery.md "Manifests").
  if (code.toLowerCase() === RESERVED_CODE) throw badRequest(`invalid field "${field}": "${raw}" is reserved: manifest.json is a release's manifest`);
  let canonical: string;
  try {
    canonical = Intl.getCanonicalLocales(code)[0]!;
  } catch {
    throw badRequest(`invalid field "${field}": "${raw}" is not a valid BCP 47 language tag`);
  }
  // Take the canonical casing (pt-br -> pt-BR) but never a replacement tag (iw -> he would
  // silently rename a team's language).
  return canonical.toLowerCase() === code.toLowerCase() ? canonical : code;
}

// Made on first use: the first Intl object loads locale data, some milliseconds that no start-up
// needs (bench/RESULTS.md "Start-up").
let displayNames: Intl.DisplayNames | undefined;

export function defaultLanguageName(code: string): string {
  try {
    displayNames ??= new Intl.DisplayNames(["en"], { type: "language", fallback: "code" });
    return displayNames.of(code) ?? code;
  } catch {
    return code;
  }
}

import { invalid, isPlainObject } from "./read.ts";

/**
 * What Flutter's gen-l10n accepts in a template's `@key` entries (docs/formats.md "What gen-l10n
 * accepts"), checked when an ARB file is read so a file gen-l10n would refuse is refused here with
 * the same reason, before anything is stored. The entries themselves are kept as written
 * (docs/formats.md "ARB metadata").
 */

/** DateFormat constructors gen-l10n names by a placeholder's `format` (a `+` joins several). */
export const GEN_L10N_DATE_FORMATS: ReadonlySet<string> = new Set([
  "d", "E", "EEEE", "LLL", "LLLL", "M", "Md", "MEd", "MMM", "MMMd", "MMMEd", "MMMM", "MMMMd", "MMMMEEEEd",
  "QQQ", "QQQQ", "y", "yM", "yMd", "yMEd", "yMMM", "yMMMd", "yMMMEd", "yMMMM", "yMMMMd", "yMMMMEEEEd", "yQQQ", "yQQQQ",
  "H", "Hm", "Hms", "j", "jm", "jms", "jmv", "jmz", "jv", "jz", "m", "ms", "s",
]);

/** NumberFormat constructors gen-l10n names by the `format` of an `int`, `double` or `num` placeholder. */
export const GEN_L10N_NUMBER_FORMATS: ReadonlySet<string> = new Set([
  "compact", "compactCurrency", "compactSimpleCurrency", "compactLong", "currency", "decimalPattern",
  "decimalPatternDigits", "decimalPercentPattern", "percentPattern", "scientificPattern", "simpleCurrency",
]);

const NUMBER_TYPES = new Set(["int", "double", "num"]);

/**
 * The custom attribute (ARB's `x-` prefix) of a `@name` entry that marks a message not to be
 * translated: how a release's ARB files carry the key's flag to exports and `pull`
 * (docs/formats.md "Not translatable"). gen-l10n ignores it.
 */
export const ARB_TRANSLATABLE = "x-translatable";

/**
 * Checks the `@name` entry of message `name` as gen-l10n reads a template's: placeholders is an
 * object of objects; `type`, `format` and `example` are non-empty strings; `isCustomDateFormat` is
 * "true" or "false", as a string or a JSON boolean; `optionalParameters` is an object; a DateTime's format is one of
 * GEN_L10N_DATE_FORMATS (or `+`-joined ones) unless it is a custom one; a number's format is one of
 * GEN_L10N_NUMBER_FORMATS. Throws a ContentError naming the message and the attribute.
 */
export function checkArbMetadata(name: string, meta: Record<string, unknown>): void {
  const at = `"@${name}"`;
  if (meta.description !== undefined && typeof meta.description !== "string") throw invalid(`${at}.description must be a string`);
  if (meta[ARB_TRANSLATABLE] !== undefined && typeof meta[ARB_TRANSLATABLE] !== "boolean") throw invalid(`${at}.${ARB_TRANSLATABLE} must be true or false`);
  const placeholders = meta.placeholders;
  if (placeholders === undefined) return;
  if (!isPlainObject(placeholders)) throw invalid(`${at}.placeholders must be an object of placeholders`);
  for (const p in placeholders) {
    if (!Object.hasOwn(placeholders, p)) continue;
    const attrs = placeholders[p];
    const where = `${at}.placeholders.${p}`;
    if (!isPlainObject(attrs)) throw invalid(`${where} must be an object (such as {"type": "String"})`);
    for (const attr of ["type", "format", "example"] as const) {
      const v = attrs[attr];
      if (v !== undefined && (typeof v !== "string" || v === "")) throw invalid(`${where}.${attr} must be a non-empty string, as gen-l10n requires`);
    }
    // gen-l10n reads the string "true"/"false" and, since it learned to, a JSON boolean too.
    const flag = attrs.isCustomDateFormat;
    if (flag !== undefined && flag !== "true" && flag !== "false" && typeof flag !== "boolean") {
      throw invalid(`${where}.isCustomDateFormat must be "true" or "false" (a string or a JSON boolean), as gen-l10n requires`);
    }
    const custom = flag === true || flag === "true";
    if (attrs.optionalParameters !== undefined && !isPlainObject(attrs.optionalParameters)) throw invalid(`${where}.optionalParameters must be an object`);
    const { type, format } = attrs as { type?: string; format?: string };
    if (format === undefined) continue;
    if (type === "DateTime" && !custom && !format.split("+").every((f) => GEN_L10N_DATE_FORMATS.has(f))) {
      throw invalid(`${where}.format "${format}" is no DateFormat constructor gen-l10n knows (such as yMMMd or jm); a pattern of your own needs "isCustomDateFormat": "true"`);
    }
    if (type !== undefined && NUMBER_TYPES.has(type) && !GEN_L10N_NUMBER_FORMATS.has(format)) {
      throw invalid(`${where}.format "${format}" is no NumberFormat constructor gen-l10n knows (such as compact, currency or decimalPattern)`);
    }
  }
}

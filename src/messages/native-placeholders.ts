import type { WorkCounter } from "../common/work.ts";

/**
 * The placeholders of native formats (docs/formats.md "Placeholders"; docs/messages.md): printf
 * style as Android, iOS and gettext's c-format write them (`%@`, `%d`, `%1$s`, `%lld`, `%.2f`).
 * They are text to an ICU parser, so they are found here and compared with the base string's
 * like ICU arguments. `%%` is a percent sign; `{0}` (Java, .NET) is an ICU argument already.
 * A space is not taken as a flag, so "50% off" holds no placeholder.
 */
const PRINTF = /%(?:(\d+)\$)?[-+0#]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|q|L|z|j|t)?([@dDiuUxXoOfFeEgGcCsSpaA])/y;

/** The native placeholders of a value, once each, in order of first use; linear in its length. */
export function nativePlaceholders(value: string, work?: WorkCounter): string[] {
  let at = value.indexOf("%");
  if (at < 0) return [];
  const seen = new Set<string>();
  for (; at >= 0 && at < value.length; at = value.indexOf("%", at)) {
    if (work) work.steps++;
    if (value.charCodeAt(at + 1) === 37 /* % */) {
      at += 2;
      continue;
    }
    PRINTF.lastIndex = at;
    const m = PRINTF.exec(value);
    if (!m) {
      at++;
      continue;
    }
    seen.add(m[0]);
    at = PRINTF.lastIndex;
  }
  return [...seen];
}

/** The end of the native placeholder that starts at the `%` at `at`, or -1 when none does (`%%`, `50% off`). */
export function nativePlaceholderEnd(value: string, at: number): number {
  if (value.charCodeAt(at) !== 37 /* % */ || value.charCodeAt(at + 1) === 37) return -1;
  PRINTF.lastIndex = at;
  return PRINTF.exec(value) ? PRINTF.lastIndex : -1;
}

import { messageErrors } from "./check.ts";
import type { MessageSyntax } from "./read-types.ts";
import { SYNTAXES } from "./syntaxes.ts";

/**
 * The hint of docs/product.md §9 (docs/messages.md "Hints"): when most values with an error look
 * like another syntax and every one of them would have no error in it, say which one fits and how
 * to set it. A syntax in which any of them stays an error is never named (a `flutter` value the
 * editor once quoted the ICU way reads without error as ICU, but so would the team's other
 * apostrophes not: the errors must all go).
 */
export interface SyntaxHint {
  syntax: MessageSyntax;
  message: string;
}

/** A value that had an error, with its key's base-language value (null for the base itself or none). */
export interface ErroredValue {
  value: string;
  base: string | null;
}

/**
 * The syntaxes tried, in this order: the first that fits most errored values is named. Not
 * `text`: it has no errors at all, so it would "fit" every broken message.
 */
const CANDIDATES: readonly MessageSyntax[] = ["i18next", "flutter", "icu"];

/** At most this many errored values are tried (the first ones: the hint speaks for those). */
export const HINT_SAMPLE = 200;

function errorsIn(syntax: MessageSyntax, item: ErroredValue): number {
  const s = SYNTAXES[syntax];
  const base = item.base === null ? null : s.read(item.base);
  const ctx = { syntax, languageName: "", plurals: null, baseName: "base", base };
  return messageErrors(item.value, s.read(item.value), ctx).length;
}

/** The hint for these errored values of a project in `current`, or null when no syntax fits most of them. */
export function syntaxHint(errored: readonly ErroredValue[], current: MessageSyntax): SyntaxHint | null {
  const sample = errored.slice(0, HINT_SAMPLE);
  if (sample.length === 0) return null;
  for (const name of CANDIDATES) {
    if (name === current) continue;
    const s = SYNTAXES[name];
    let looks = 0;
    let clean = true;
    for (const item of sample) {
      if (errorsIn(name, item) > 0) {
        clean = false;
        break;
      }
      if (s.looksLike(item.value) || (item.base !== null && s.looksLike(item.base))) looks++;
    }
    if (clean && looks * 2 > sample.length) {
      return {
        syntax: name,
        message: `Most of these errors look like ${s.label} (${s.example}), not ${SYNTAXES[current].label}: set the project's message syntax to "${name}" (Settings, or PATCH /dashboard/api/projects/:pid {"message_syntax": "${name}"})`,
      };
    }
  }
  return null;
}

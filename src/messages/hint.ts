import { messageErrors } from "./check.ts";
import type { MessageSyntax } from "./read-types.ts";
import { SYNTAXES } from "./syntaxes.ts";

/**
 * The hint of docs/product.md §9 (docs/messages.md "Hints"): when most values with an error look
 * like another syntax and would have no error in it, say which one fits and how to set it.
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

/** At most this many errored values are tried: a hint needs a majority, not every value. */
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
    let fits = 0;
    for (const item of sample) if ((s.looksLike(item.value) || (item.base !== null && s.looksLike(item.base))) && errorsIn(name, item) === 0) fits++;
    if (fits * 2 > sample.length) {
      return {
        syntax: name,
        message: `Most of these errors look like ${s.label} (${s.example}), not ${SYNTAXES[current].label}: set the project's message syntax to "${name}" (Settings, or PATCH /dashboard/api/projects/:pid {"message_syntax": "${name}"})`,
      };
    }
  }
  return null;
}

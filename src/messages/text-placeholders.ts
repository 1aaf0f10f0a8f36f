import type { WorkCounter } from "../common/work.ts";

/**
 * Placeholders of a project whose `message_syntax` is `text` (docs/product.md §7): i18next's
 * `{{name}}` (also `{{name, format}}` and the unescaped `{{- name}}`) and single-brace `{name}`.
 * Braces around anything but a name are text; nothing can be a syntax error.
 */
const TOKEN = /\{\{([^{}]*)\}\}|\{([^{}]*)\}/g;
/** A name as i18next and most interpolation libraries allow it (`user.name` reads a nested value). */
const NAME = /^[\p{L}\p{N}_.$-]+$/u;

/**
 * The names, once each, in order of first use; linear in the length of the value: no part of
 * TOKEN crosses a brace, so each try reads on to the next brace at most. A `work` counter is
 * charged the value's length for that scan and a step for each token.
 */
export function textPlaceholders(value: string, work?: WorkCounter): string[] {
  if (value.indexOf("{") < 0) return [];
  if (work) work.steps += value.length;
  const seen = new Set<string>();
  for (const match of value.matchAll(TOKEN)) {
    if (work) work.steps++;
    const inner = match[1] ?? match[2] ?? "";
    const comma = inner.indexOf(",");
    const name = (comma < 0 ? inner : inner.slice(0, comma)).trim().replace(/^-\s*/, "");
    if (NAME.test(name)) seen.add(name);
  }
  return [...seen];
}

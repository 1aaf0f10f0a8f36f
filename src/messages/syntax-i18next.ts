import type { WorkCounter } from "../common/work.ts";
import { NOTHING, type MessageArgument, type ReadMessage, type SyntaxFault } from "./read-types.ts";
import type { Syntax } from "./syntax.ts";

/**
 * The `i18next` syntax (docs/product.md §9; docs/messages.md "Syntaxes"): i18next JSON v4 values.
 * `{{name}}`, `{{name, format}}` and the unescaped `{{- name}}` are interpolations (the argument is
 * the name before the comma; `user.name` reads a nested value), `$t(key)` and `$t(key, {...})` nest
 * another key. An unclosed `{{`, an empty `{{}}`, an unclosed `$t(` or one naming no key is a
 * fault (`icu_syntax`). Plural forms are sibling keys (plural-forms.ts), not part of a value, so a
 * value has no plurals. A single brace is text.
 */

function fault(kind: string, start: number, end: number): ReadMessage {
  const f: SyntaxFault = { kind, start, end };
  return { arguments: [], plurals: [], fault: f };
}

/**
 * Reads the interpolations of value[from, to): appends their names to `names` (once each), or
 * answers the fault. Each `{{` is closed by the next `}}`, so the scan is linear.
 */
function interpolations(value: string, from: number, to: number, names: Map<string, MessageArgument>, work: WorkCounter | undefined): ReadMessage | null {
  for (let open = value.indexOf("{{", from); open >= 0 && open < to; ) {
    const close = value.indexOf("}}", open + 2);
    if (close < 0 || close + 2 > to) return fault("I18NEXT_UNCLOSED", open, open + 2);
    const inner = value.slice(open + 2, close);
    const comma = inner.indexOf(",");
    const name = (comma < 0 ? inner : inner.slice(0, comma)).trim().replace(/^-\s*/, "");
    if (name === "") return fault("I18NEXT_EMPTY", open, close + 2);
    if (work) work.steps++;
    if (!names.has(name)) names.set(name, { name, kind: "plain" });
    open = value.indexOf("{{", close + 2);
  }
  return null;
}

/** The end (after `)`) of a `$t(` starting at `at`, parentheses balanced, or -1. */
function nestingEnd(value: string, at: number): number {
  let depth = 0;
  for (let i = at + 2; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 40 /* ( */) depth++;
    else if (c === 41 /* ) */ && --depth === 0) return i + 1;
  }
  return -1;
}

function read(value: string, work?: WorkCounter): ReadMessage {
  if (value.indexOf("{{") < 0 && value.indexOf("$t(") < 0) return NOTHING;
  if (work) work.steps += value.length;
  const names = new Map<string, MessageArgument>();
  let at = 0;
  for (let nest = value.indexOf("$t("); nest >= 0; nest = value.indexOf("$t(", at)) {
    const before = interpolations(value, at, nest, names, work);
    if (before) return before;
    const end = nestingEnd(value, nest);
    if (end < 0) return fault("I18NEXT_NESTING_UNCLOSED", nest, nest + 3);
    const inner = value.slice(nest + 3, end - 1);
    const comma = inner.indexOf(",");
    if ((comma < 0 ? inner : inner.slice(0, comma)).trim() === "") return fault("I18NEXT_NESTING_EMPTY", nest, end);
    // Interpolations in the options (`$t(key, {"count": {{count}}})`) are arguments of this value.
    const inOptions = interpolations(value, nest + 3, end - 1, names, work);
    if (inOptions) return inOptions;
    at = end;
  }
  const rest = interpolations(value, at, value.length, names, work);
  if (rest) return rest;
  return names.size === 0 ? NOTHING : { arguments: [...names.values()], plurals: [], fault: null };
}

export const i18nextSyntax: Syntax = {
  name: "i18next",
  label: "i18next JSON v4",
  example: "{{name}}, {{- html}}, $t(other.key)",
  read,
  unknownSeverity: "error",
  pluralsInMessage: false,
  show: (name) => `\`{{${name}}}\``,
  looksLike: (value) => value.indexOf("{{") >= 0 || value.indexOf("$t(") >= 0,
};

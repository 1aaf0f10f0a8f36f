import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import type { MessageSyntax } from "../messages/read-types.ts";

/**
 * Where a message names its placeholders (docs/translators.md "Translation memory"): the memory
 * counts two base strings that differ only in placeholder names as equal, and a suggestion takes
 * this key's names. ICU (and gen-l10n's reading of it) by its parser, so quoted text and the cases
 * of a select are never taken for a name; `{name}`, `{{name}}` and `{{- name, format}}` in the
 * `text` and `i18next` syntaxes.
 */
export interface NameSpan {
  /** UTF-16 offsets of the name itself, within the text. */
  start: number;
  end: number;
  name: string;
}

const NAMED_TYPES = new Set([TYPE.argument, TYPE.number, TYPE.date, TYPE.time, TYPE.plural, TYPE.select]);

function icuSpans(text: string, flutter: boolean): NameSpan[] | null {
  // gen-l10n reads an apostrophe as itself; doubled, ICU's parser reads it so too
  // (src/messages/syntax-flutter.ts), and the offsets are mapped back below.
  const read = flutter ? text.replaceAll("'", "''") : text;
  let elements: MessageFormatElement[];
  try {
    elements = parse(read, { ignoreTag: true, requiresOtherClause: false, shouldParseSkeletons: false, captureLocation: true });
  } catch {
    return null;
  }
  const found: NameSpan[] = [];
  const walk = (list: MessageFormatElement[]) => {
    for (const el of list) {
      if (NAMED_TYPES.has(el.type) && el.location && "value" in el && typeof el.value === "string") {
        // The name follows the brace and any white space: `{ count, plural, ...}`.
        const at = read.indexOf(el.value, el.location.start.offset + 1);
        if (at >= 0) found.push({ start: at, end: at + el.value.length, name: el.value });
      }
      if (el.type === TYPE.plural || el.type === TYPE.select) for (const option of Object.values(el.options)) walk(option.value);
      if (el.type === TYPE.tag) walk(el.children);
    }
  };
  walk(elements);
  found.sort((a, b) => a.start - b.start);
  if (read === text) return found;
  // Offsets in the doubled text to offsets in `text`, in one pass (a name holds no apostrophe).
  let i = 0;
  let p = 0;
  return found.map((span) => {
    while (p < span.start) p += text.charCodeAt(i++) === 39 /* ' */ ? 2 : 1;
    return { start: i, end: i + span.name.length, name: span.name };
  });
}

/** `{{name}}`, `{{- name}}`, `{{name, format}}` and (not in i18next) `{name}`. */
const TOKEN = /\{\{([^{}]*)\}\}|\{([^{}]*)\}/g;
const NAME = /^[\p{L}\p{N}_.$-]+$/u;

function tokenSpans(text: string, singleBraces: boolean): NameSpan[] {
  const out: NameSpan[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const inner = m[1] ?? m[2];
    if (inner === undefined || (m[2] !== undefined && !singleBraces)) continue;
    const comma = inner.indexOf(",");
    const head = comma < 0 ? inner : inner.slice(0, comma);
    const name = head.trim().replace(/^-\s*/, "");
    if (!NAME.test(name)) continue;
    const open = m[1] !== undefined ? 2 : 1;
    const start = m.index! + open + head.indexOf(name);
    out.push({ start, end: start + name.length, name });
  }
  return out;
}

/** The placeholder names of `text` in the order written, each occurrence once. */
export function nameSpans(text: string, syntax: MessageSyntax): NameSpan[] {
  if (text.indexOf("{") < 0) return [];
  if (syntax === "icu" || syntax === "flutter") return icuSpans(text, syntax === "flutter") ?? tokenSpans(text, true);
  return tokenSpans(text, syntax === "text");
}

/** The private-use character every placeholder name becomes when strings are compared. */
export const ANY_NAME = "\uE000";

/** `text` with every placeholder name replaced by ANY_NAME. */
export function withoutNames(text: string, syntax: MessageSyntax): string {
  const spans = nameSpans(text, syntax);
  if (spans.length === 0) return text;
  let out = "";
  let at = 0;
  for (const s of spans) {
    out += text.slice(at, s.start) + ANY_NAME;
    at = s.end;
  }
  return out + text.slice(at);
}

/**
 * How the names of `from` (a matched base string) map onto those of `to` (this key's), place by
 * place, or null when they do not line up one to one (a different count, or a name that would
 * map to two). Names already equal map to themselves.
 */
export function nameMapping(from: NameSpan[], to: NameSpan[]): Map<string, string> | null {
  if (from.length !== to.length || from.length === 0) return null;
  const forward = new Map<string, string>();
  const backward = new Map<string, string>();
  for (let i = 0; i < from.length; i++) {
    const a = from[i]!.name;
    const b = to[i]!.name;
    if ((forward.get(a) ?? b) !== b || (backward.get(b) ?? a) !== a) return null;
    forward.set(a, b);
    backward.set(b, a);
  }
  return [...forward].some(([a, b]) => a !== b) ? forward : null;
}

/** `text` with its placeholder names renamed by `mapping` (all at once: `{a}`->`{b}` and `{b}`->`{a}` swap). */
export function renamed(text: string, syntax: MessageSyntax, mapping: Map<string, string>): string {
  let out = "";
  let at = 0;
  for (const s of nameSpans(text, syntax)) {
    const to = mapping.get(s.name);
    if (to === undefined) continue;
    out += text.slice(at, s.start) + to;
    at = s.end;
  }
  return out + text.slice(at);
}

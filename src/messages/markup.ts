import type { WorkCounter } from "../common/work.ts";

/**
 * Inline markup in values (docs/messages.md "Tags"; docs/formats.md "Markup in values"): HTML
 * styling (`<b>`, `<i>`, `<a href="…">`), Android's `<xliff:g id="…">…</xliff:g>`, FormatJS rich
 * text (`<link>…</link>`). A tag is an element as XML writes it: a name (with at most one prefix,
 * `xliff:g`), attributes with quoted values, then `>` or `/>`; a closing tag `</name>`. A value
 * stores its tags as tags and a literal `<` that could be read as one as `&lt;`, so text and
 * markup stay apart (docs/formats.md "Markup in values").
 *
 * Anything else that starts with `<` is text (`List<String>`, `a < b`). A tag counts as markup
 * when it is paired (`<b>…</b>`, properly nested), self-closing (`<br/>`), or one of HTML's void
 * elements (`<br>`, which never has a closer); an opening tag that is never closed and a closing
 * tag that closes nothing are `unpaired`: the checks report them where the base text has that tag
 * (check.ts), and the writers of XML write them as text so a file is always well-formed.
 *
 * Pure code with no dependency: the dashboard bundles it to show tags as units (`messageUnits`).
 */

export type TagKind = "open" | "close" | "empty";

export interface TagToken {
  /** Where the tag is in the value: `value.slice(start, end)` is its text. */
  start: number;
  end: number;
  /** The element's name as written (`b`, `xliff:g`). */
  name: string;
  kind: TagKind;
  /** The index (in the list `scanTags` returns) of its partner, -1 for none; an `empty` tag is its own. */
  pair: number;
}

/** HTML's void elements: written without a closer in HTML (`<br>`), so never unpaired. */
const VOID_ELEMENTS = new Set(["br", "hr", "img", "wbr"]);

function isNameStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

function isNameChar(c: number): boolean {
  return isNameStart(c) || (c >= 48 && c <= 57) || c === 45 || c === 46;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** The end of a name starting at `at` (letters, digits, `_ - .`, one `:` prefix), or `at` when none starts there. */
function nameEnd(value: string, at: number): number {
  if (at >= value.length || !isNameStart(value.charCodeAt(at))) return at;
  let i = at + 1;
  while (i < value.length && isNameChar(value.charCodeAt(i))) i++;
  if (value.charCodeAt(i) === 58 /* : */ && isNameStart(value.charCodeAt(i + 1))) {
    i += 2;
    while (i < value.length && isNameChar(value.charCodeAt(i))) i++;
  }
  return i;
}

/**
 * The tag starting at the `<` at `lt`: its end and kind, or the position where reading it stopped
 * (`end < 0`, `stop` the first character that cannot belong to it). Nothing read crosses another
 * `<`, so trying every `<` of a value reads each character at most once.
 */
function tagAt(value: string, lt: number): { end: number; kind: TagKind; name: string } | { end: -1; stop: number } {
  const closing = value.charCodeAt(lt + 1) === 47; /* / */
  const nameStart = lt + (closing ? 2 : 1);
  let i = nameEnd(value, nameStart);
  if (i === nameStart) return { end: -1, stop: nameStart };
  const name = value.slice(nameStart, i);
  for (;;) {
    const spaced = i < value.length && isSpace(value.charCodeAt(i));
    while (i < value.length && isSpace(value.charCodeAt(i))) i++;
    const c = value.charCodeAt(i);
    if (c === 62 /* > */) return { end: i + 1, kind: closing ? "close" : "open", name };
    if (c === 47 /* / */ && !closing && value.charCodeAt(i + 1) === 62) return { end: i + 2, kind: "empty", name };
    if (closing || !spaced) return { end: -1, stop: i };
    // An attribute: name = "value" or 'value', the value without a `<` (XML forbids one there).
    const attrEnd = nameEnd(value, i);
    if (attrEnd === i) return { end: -1, stop: i };
    i = attrEnd;
    while (i < value.length && isSpace(value.charCodeAt(i))) i++;
    if (value.charCodeAt(i) !== 61 /* = */) return { end: -1, stop: i };
    i++;
    while (i < value.length && isSpace(value.charCodeAt(i))) i++;
    const quote = value.charCodeAt(i);
    if (quote !== 34 && quote !== 39) return { end: -1, stop: i };
    let j = i + 1;
    while (j < value.length && value.charCodeAt(j) !== quote && value.charCodeAt(j) !== 60 /* < */) j++;
    if (value.charCodeAt(j) !== quote) return { end: -1, stop: j };
    i = j + 1;
  }
}

/**
 * Every tag of a value, in order, each paired with its partner: a closing tag closes the innermost
 * open tag when it has the same name, and closes nothing otherwise. Linear in the length of the
 * value (a `work` counter is charged the characters read and a step per tag).
 */
export function scanTags(value: string, work?: WorkCounter): TagToken[] {
  const tags: TagToken[] = [];
  let lt = value.indexOf("<");
  if (lt < 0) return tags;
  const open: number[] = [];
  while (lt >= 0) {
    const found = tagAt(value, lt);
    let next: number;
    if (found.end < 0) next = Math.max(lt + 1, (found as { stop: number }).stop);
    else {
      const { end, kind, name } = found as { end: number; kind: TagKind; name: string };
      const index = tags.length;
      const token: TagToken = { start: lt, end, name, kind, pair: -1 };
      if (kind === "empty" || (kind === "open" && VOID_ELEMENTS.has(name.toLowerCase()))) token.pair = index;
      else if (kind === "open") open.push(index);
      else if (open.length > 0 && tags[open[open.length - 1]!]!.name === name) {
        const partner = open.pop()!;
        token.pair = partner;
        tags[partner]!.pair = index;
      }
      tags.push(token);
      next = end;
    }
    lt = value.indexOf("<", next);
  }
  if (work) work.steps += value.length + tags.length;
  return tags;
}

/** A tag as the checks compare it: its text with runs of white space made one space, none before `>`. */
export function tagText(value: string, tag: TagToken): string {
  const text = value.slice(tag.start, tag.end);
  return /\s/.test(text) ? text.replace(/\s+/g, " ").replace(/ (\/?>)$/, "$1") : text;
}

/** What the checks read of a value's markup (docs/messages.md "Tags"). */
export interface ValueTags {
  /** Each distinct tag that is markup: the opening tag of a pair (`<b>`, which stands for `<b>…</b>`), a self-closing or void tag. */
  tags: string[];
  /** Each distinct tag without its partner: an opening tag never closed, a closing tag that closes nothing. */
  unpaired: string[];
}

/** The tags of a value for the checks, or null when it has none (most values: no `<` at all). */
export function valueTags(value: string, work?: WorkCounter): ValueTags | null {
  if (value.indexOf("<") < 0) return null;
  const tokens = scanTags(value, work);
  if (tokens.length === 0) return null;
  const tags = new Set<string>();
  const unpaired = new Set<string>();
  for (const t of tokens) {
    if (t.pair < 0) unpaired.add(tagText(value, t));
    else if (t.kind !== "close") tags.add(tagText(value, t));
  }
  return { tags: [...tags], unpaired: [...unpaired] };
}

/** The element name of a tag's text (`<xliff:g id="n">` -> `xliff:g`, `</b>` -> `b`). */
export function tagName(text: string): string {
  return /^<\/?([^\s/>]+)/.exec(text)?.[1] ?? "";
}

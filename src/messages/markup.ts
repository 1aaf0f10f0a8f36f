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
 * Pure code with no dependency, so the command-line client and the dashboard may bundle it.
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

/**
 * A tag at a `<`: `</name>`, or `<name attr="value" …>` or `…/>`, a name with at most one prefix.
 * Sticky, and no part of it can cross a `<` (an attribute value holds none), so trying it at every
 * `<` of a value reads each character a bounded number of times: linear.
 */
const TAG = /<(\/?)([A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?)((?:\s+[A-Za-z_][\w.:-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>/y;

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
    TAG.lastIndex = lt;
    const m = TAG.exec(value);
    let next = lt + 1;
    if (m && !(m[1] && (m[3] || m[4]))) {
      const name = m[2]!;
      const kind: TagKind = m[1] ? "close" : m[4] ? "empty" : "open";
      const index = tags.length;
      const token: TagToken = { start: lt, end: TAG.lastIndex, name, kind, pair: -1 };
      if (kind === "empty" || (kind === "open" && VOID_ELEMENTS.has(name.toLowerCase()))) token.pair = index;
      else if (kind === "open") open.push(index);
      else if (open.length > 0 && tags[open[open.length - 1]!]!.name === name) {
        const partner = open.pop()!;
        token.pair = partner;
        tags[partner]!.pair = index;
      }
      tags.push(token);
      next = TAG.lastIndex;
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

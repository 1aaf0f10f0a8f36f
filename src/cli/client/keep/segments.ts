import { decodeXml } from "../../../formats/xml.ts";
import type { Unit, Units } from "./units.ts";

/**
 * Cuts a file into its entries for `mergeUnits` (./units.ts): Android `strings.xml`, Apple
 * `.stringsdict` and `.strings`. Each cutter reads only what it must to find where an entry
 * starts and ends and its key; the strings themselves are compared by the format's own reader.
 * Anything a cutter does not expect gives undefined, and the caller writes the release's file as
 * it would without a local one: a file is never half understood.
 */

/** A comment and the white space after it belong to the entry that follows only when no blank line parts them. */
const belongs = (gap: string) => (gap.match(/\n/g)?.length ?? 0) <= 1;

interface Scan {
  text: string;
  at: number;
  end: number;
}

function whiteSpace(s: Scan): string {
  const start = s.at;
  while (s.at < s.end && /\s/.test(s.text[s.at]!)) s.at++;
  return s.text.slice(start, s.at);
}

/** The end of `close` from `s.at`, or -1. */
function through(s: Scan, close: string): number {
  const i = s.text.indexOf(close, s.at);
  return i < 0 || i + close.length > s.end ? -1 : i + close.length;
}

/**
 * Reads units between `s.at` and `s.end`: white space, comments, and what `element` reads (its
 * body's end and key, or undefined for text it does not know). `comment` gives a comment's end
 * (-1: none starts here).
 */
function cut(s: Scan, comment: (s: Scan) => number, element: (s: Scan) => { end: number; key?: string } | undefined): { units: Unit[]; trailing: string } | undefined {
  const units: Unit[] = [];
  let lead = whiteSpace(s);
  for (;;) {
    if (s.at >= s.end) return { units, trailing: lead };
    let note = "";
    let gap = "";
    const commentEnd = comment(s);
    if (commentEnd > 0) {
      const text = s.text.slice(s.at, commentEnd);
      s.at = commentEnd;
      const after = whiteSpace(s);
      if (s.at >= s.end || comment(s) > 0 || !belongs(after)) {
        // A comment of its own: it stays where it is.
        units.push({ lead, comment: "", gap: "", body: text });
        lead = after;
        continue;
      }
      note = text;
      gap = after;
    }
    const found = element(s);
    if (!found) return undefined;
    units.push({ ...(found.key !== undefined ? { key: found.key } : {}), lead, comment: note, gap, body: s.text.slice(s.at, found.end) });
    s.at = found.end;
    lead = whiteSpace(s);
  }
}

const xmlComment = (s: Scan) => (s.text.startsWith("<!--", s.at) ? through(s, "-->") : -1);

/** Android: `<string>` and `<plurals>` are entries (by `name`), any other element stays. */
export function androidUnits(text: string): Units | undefined {
  const open = /<resources\b[^>]*>/.exec(text);
  const close = text.lastIndexOf("</resources>");
  if (!open || open[0].endsWith("/>") || close < open.index) return undefined;
  const s: Scan = { text, at: open.index + open[0].length, end: close };
  const read = cut(s, xmlComment, (s) => {
    const tag = /^<([A-Za-z][\w:.-]*)\b[^>]*?(\/?)>/.exec(s.text.slice(s.at, Math.min(s.end, s.at + 4096)));
    if (!tag) return undefined;
    const end = tag[2] ? s.at + tag[0].length : through(s, `</${tag[1]}>`);
    if (end < 0) return undefined;
    const name = /\bname\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(tag[0]);
    const entry = (tag[1] === "string" || tag[1] === "plurals") && name;
    return { end, ...(entry ? { key: decodeXml(name[1] ?? name[2]!) } : {}) };
  });
  if (!read) return undefined;
  return { head: text.slice(0, open.index + open[0].length), units: read.units, tail: read.trailing + text.slice(close) };
}

/** `.stringsdict`: each `<key>` of the top `<dict>` with the `<dict>` after it is an entry. */
export function stringsdictUnits(text: string): Units | undefined {
  const open = /<plist\b[^>]*>\s*<dict>/.exec(text);
  const close = text.lastIndexOf("</dict>");
  if (!open || close < open.index) return undefined;
  const s: Scan = { text, at: open.index + open[0].length, end: close };
  const read = cut(s, xmlComment, (s) => {
    const key = /^<key>([^<]*)<\/key>\s*/.exec(s.text.slice(s.at, Math.min(s.end, s.at + 4096)));
    if (!key) return undefined;
    let at = s.at + key[0].length;
    if (!s.text.startsWith("<dict>", at)) return undefined;
    // Nested dicts: the entry ends where its own </dict> closes them all.
    for (let depth = 0; at < s.end; ) {
      const next = s.text.indexOf("<", at);
      if (next < 0 || next >= s.end) return undefined;
      if (s.text.startsWith("<dict>", next)) depth++;
      else if (s.text.startsWith("</dict>", next) && --depth === 0) return { end: next + "</dict>".length, key: decodeXml(key[1]!) };
      at = next + 1;
    }
    return undefined;
  });
  if (!read) return undefined;
  return { head: text.slice(0, open.index + open[0].length), units: read.units, tail: read.trailing + text.slice(close) };
}

const stringsComment = (s: Scan) => (s.text.startsWith("/*", s.at) ? through(s, "*/") : s.text.startsWith("//", s.at) ? (s.text.indexOf("\n", s.at) < 0 ? s.end : s.text.indexOf("\n", s.at)) : -1);

/** A quoted or bare word of a `.strings` file: where it ends. */
function stringsWord(text: string, at: number): number {
  if (text[at] === '"') {
    for (let i = at + 1; i < text.length; i++) {
      if (text[i] === "\\") i++;
      else if (text[i] === '"') return i + 1;
    }
    return -1;
  }
  const bare = /[A-Za-z0-9_.\-:/$]+/y;
  bare.lastIndex = at;
  return bare.exec(text) ? bare.lastIndex : -1;
}

/**
 * `.strings`: each `key = value;` is an entry. Its key is the one the format's reader gives at
 * the same place (`keys`, in file order), so escapes are read once, by the reader.
 */
export function stringsUnits(text: string, keys: readonly string[]): Units | undefined {
  const s: Scan = { text, at: 0, end: text.length };
  let n = 0;
  const read = cut(s, stringsComment, (s) => {
    let at = stringsWord(s.text, s.at);
    const skip = () => {
      while (at >= 0 && at < s.end && /\s/.test(s.text[at]!)) at++;
    };
    skip();
    if (at < 0 || s.text[at] !== "=") return undefined;
    at++;
    skip();
    at = stringsWord(s.text, at);
    skip();
    if (at < 0 || s.text[at] !== ";" || n >= keys.length) return undefined;
    return { end: at + 1, key: keys[n++]! };
  });
  if (!read || n !== keys.length) return undefined;
  return { head: "", units: read.units, tail: read.trailing };
}

/**
 * The units of a message's text that a translator inserts whole and never retypes (docs/dashboard.md
 * "Placeholders, tags and native formats"):
 * native placeholders (`%1$s`, `%d`, `%@`, `%lld`, as native-placeholders.ts reads them), an Android
 * `<xliff:g …>…</xliff:g>` span (one unit, its content included: it marks text not to translate),
 * and inline tags (`<b>`, `</b>`, `<a href="…">`, `<br/>`). Everything else is text, where a `<`
 * that opens no tag is a literal one: stored as `&lt;` (so text and markup stay apart), shown as
 * `<`. Pure code: the dashboard bundles it.
 */

export interface Unit {
  kind: "printf" | "xliff" | "tag";
  /** Exactly as written in the value. */
  source: string;
  /** What the unit is called on its chip: the placeholder, the tag (`<b>`, `</a>`), or an xliff:g's example or content. */
  name: string;
}

export type Segment = { kind: "text"; text: string } | { kind: "unit"; unit: Unit };

/** An xliff:g span, a tag, a printf placeholder, or `%%` (a percent sign: text, matched so it is skipped). */
const UNIT =
  /<xliff:g\b[^<>]*>[\s\S]*?<\/xliff:g\s*>|<\/?[A-Za-z][\w:.-]*(?:\s+[^<>]*?)?\s*\/?>|%%|%(?:\d+\$)?[-+0#]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|q|L|z|j|t)?[@dDiuUxXoOfFeEgGcCsSpaA]/g;

function unitOf(source: string): Unit {
  if (source.startsWith("<xliff:g")) {
    const example = /\bexample="([^"]*)"/.exec(source)?.[1];
    const inner = source.replace(/^<xliff:g\b[^<>]*>/, "").replace(/<\/xliff:g\s*>$/, "");
    return { kind: "xliff", source, name: inner || example || "xliff:g" };
  }
  if (source.startsWith("<")) {
    const m = /^<(\/?)([A-Za-z][\w:.-]*)/.exec(source)!;
    return { kind: "tag", source, name: `<${m[1]}${m[2]}${source.endsWith("/>") ? "/" : ""}>` };
  }
  return { kind: "printf", source, name: source };
}

/** The text split into text and units, in order; linear in its length. */
export function splitUnits(text: string): Segment[] {
  if (text.indexOf("<") < 0 && text.indexOf("%") < 0) return text === "" ? [] : [{ kind: "text", text }];
  const out: Segment[] = [];
  let at = 0;
  for (const m of text.matchAll(UNIT)) {
    if (m[0] === "%%") continue;
    if (m.index > at) out.push({ kind: "text", text: text.slice(at, m.index) });
    out.push({ kind: "unit", unit: unitOf(m[0]) });
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push({ kind: "text", text: text.slice(at) });
  return out;
}

/** Stored text as shown: `&lt;` is a literal `<`. */
export function shownText(stored: string): string {
  return stored.indexOf("&lt;") < 0 ? stored : stored.replaceAll("&lt;", "<");
}

/** Text as typed, as stored: a literal `<` is `&lt;`. */
export function storedText(typed: string): string {
  return typed.indexOf("<") < 0 ? typed : typed.replaceAll("<", "&lt;");
}

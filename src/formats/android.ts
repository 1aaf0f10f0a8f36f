import type { WorkCounter } from "../common/work.ts";
import type { Entry, FileFormat, WriteInput } from "./format.ts";
import { categoriesFor, DEFAULT_PLURAL_ARGUMENT, formFor, icuPlural, isCategory, splitPlural, type PluralForms } from "./plural-forms.ts";
import { invalid } from "./read.ts";
import { markupTag, storedText, valueParts } from "./inline.ts";
import { attr, childrenOf, commentText, escapeXmlAttribute, escapeXmlText, lineOf, parseXml, rawText, tagOf, xmlComment, xmlPieces, type XmlNode, type XmlPiece } from "./xml.ts";

/**
 * Android `res/values*\/strings.xml` (docs/formats.md "Android"): an import and export format.
 *
 * Read: each `<string name>` is a message, each `<plurals name>` an ICU plural over `count` (its
 * `<item quantity>`s the cases); a comment just before an element is the key's context;
 * `translatable="false"` marks the entry not to be translated (such strings are the base language's
 * only). Android's escapes (`\'`, `\"`, `\n`, `\t`, `\@`, `\?`, `\uXXXX`, double quotes keeping
 * spaces) are undone; inline markup (`<b>`, `<xliff:g>`) is kept as written, a literal `<` stored
 * as `&lt;` and every other reference decoded (docs/formats.md "Markup in values"). `<string-array>`
 * has no place in a key/value project and is refused by name.
 *
 * Written: the same elements, every value escaped as aapt2 reads it, a context as a comment above,
 * `translatable="false"` on a key marked not to be translated; a plural's forms are the language's
 * categories, but one no number below a million reaches (French `many`) only where the value has it.
 */

/**
 * Undoes Android's escaping of a string resource, as aapt2 does when it compiles one, over the
 * element's content (xml.ts `xmlPieces`): references are decoded already; `\'`, `\"`, `\n`,
 * `\t`, `\uXXXX` and any other backslash escape undone, white space outside double quotes
 * collapsed; tags (`<b>`, `<xliff:g id="n">`) kept as written, their quotes no Android quoting. The
 * result is a stored value (inline.ts): a `<` of the text is `&lt;`.
 */
function unescapeAndroid(pieces: readonly XmlPiece[]): string {
  let out = "";
  let quoted = false;
  // The length of `out` without the unquoted white space at its end, which aapt2 drops.
  let kept = 0;
  for (const piece of pieces) {
    if (!("text" in piece)) {
      out += piece.tag;
      kept = out.length;
      continue;
    }
    const text = piece.text;
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      if (c === "\\" && i + 1 < text.length) {
        const n = text[++i]!;
        if (n === "n") out += "\n";
        else if (n === "t") out += "\t";
        else if (n === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) {
          out += storedText(String.fromCharCode(parseInt(text.slice(i + 1, i + 5), 16)));
          i += 4;
        } else out += storedText(n); // \' \" \@ \? \\ and any other: the character itself
      } else if (c === '"') {
        quoted = !quoted;
        continue;
      } else if (!quoted && /\s/.test(c)) {
        // Outside double quotes, a run of white space is one space, and none at the start or end (aapt2).
        while (i + 1 < text.length && /\s/.test(text[i + 1]!)) i++;
        if (out.length > 0) out += " ";
        continue;
      } else out += c === "<" ? "&lt;" : c;
      kept = out.length;
    }
  }
  return out.slice(0, kept);
}

/** The prefixes an Android strings file declares (the writer's `<resources>`): only `xliff:` (aapt2 refuses an unbound prefix). */
const declared = (name: string) => !name.includes(":") || name.startsWith("xliff:");

/**
 * A stored value as aapt2 reads it back exactly: its markup as elements (inline.ts), the text's
 * characters aapt2 would change escaped (`\`, `'`, `"`, line breaks, tabs), then XML's (`&`, `<`,
 * `>`); a leading `@` or `?` escaped, and the whole in double quotes where spaces would collapse.
 */
export function escapeAndroid(value: string): string {
  let out = "";
  for (const part of valueParts(value, declared)) {
    if (!("text" in part)) {
      out += markupTag(part.tag);
      continue;
    }
    out += escapeXmlText(part.text.replace(/\\/g, "\\\\").replace(/'/g, "\\'").replace(/"/g, '\\"').replace(/\n/g, "\\n").replace(/\t/g, "\\t"));
  }
  // Leading `@` or `?` would make a reference to a resource or a theme attribute.
  if (/^[@?]/.test(out)) out = `\\${out}`;
  // Runs of spaces, and spaces at either end, survive only in double quotes.
  if (/^ | $| {2}/.test(out)) out = `"${out}"`;
  return out;
}

async function read(content: string, work?: WorkCounter) {
  const root = (await parseXml(content, "Android XML", ["resources.string", "resources.plurals.item"], false, work)).find((n) => tagOf(n) === "resources");
  if (!root) throw invalid("an Android strings file must have <resources> at the top", 1, 1);
  const entries: Entry[] = [];
  let comment: string | undefined;
  const seen = new Set<string>();
  for (const node of childrenOf(root)) {
    const tag = tagOf(node);
    if (tag === "#text") continue;
    if (tag === "#comment") {
      comment = commentText(node).trim() || undefined;
      continue;
    }
    const name = attr(node, "name");
    if (tag === "string" || tag === "plurals") {
      if (!name) throw invalid(`a <${tag}> without a name`, lineOf(content, `<${tag}`));
      if (seen.has(name)) throw invalid(`the name "${name}" appears twice`, lineOf(content, `name="${name}"`));
      seen.add(name);
      const value = tag === "string" ? stringValue(node) : pluralValue(node, name, content);
      const entry: Entry = { key: name, value };
      if (comment) entry.description = comment;
      if (attr(node, "translatable") === "false") entry.translatable = false;
      entries.push(entry);
    } else if (tag === "string-array") {
      throw invalid(`<string-array name="${name ?? ""}"> is not imported: give each item a <string> of its own`, lineOf(content, "<string-array"));
    }
    // Other resources (<dimen>, <color>, <bool>) are no translations: left alone.
    comment = undefined;
  }
  return { languages: [{ entries }] };
}

function stringValue(node: XmlNode): string {
  return unescapeAndroid(xmlPieces(rawText(node)));
}

function pluralValue(node: XmlNode, name: string, content: string): string {
  const forms: PluralForms = new Map();
  for (const item of childrenOf(node)) {
    const tag = tagOf(item);
    if (tag === "#text" || tag === "#comment") continue;
    const quantity = attr(item, "quantity") ?? "";
    if (tag !== "item" || !isCategory(quantity)) {
      throw invalid(`<plurals name="${name}"> holds <${tag}${quantity ? ` quantity="${quantity}"` : ""}>: only <item quantity="zero|one|two|few|many|other"> may be in it`, lineOf(content, `name="${name}"`));
    }
    if (forms.has(quantity)) throw invalid(`<plurals name="${name}"> has quantity="${quantity}" twice`, lineOf(content, `name="${name}"`));
    forms.set(quantity, unescapeAndroid(xmlPieces(rawText(item))));
  }
  if (!forms.has("other")) throw invalid(`<plurals name="${name}"> has no quantity="other", which Android needs`, lineOf(content, `name="${name}"`));
  return icuPlural(forms, DEFAULT_PLURAL_ARGUMENT);
}

function write({ keys, languages, work }: WriteInput): string {
  const lang = languages[0]!;
  // The xliff prefix is declared for `<xliff:g>` in a value (aapt2 refuses an unbound prefix).
  const lines = ['<?xml version="1.0" encoding="utf-8"?>', '<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">'];
  for (let i = 0; i < keys.keys.length; i++) {
    const value = lang.values[i];
    if (value === undefined) continue;
    if (work) work.steps++;
    // A key marked not to be translated gets its attribute back (docs/formats.md "Not translatable").
    const name = `name="${escapeXmlAttribute(keys.keys[i]!)}"${keys.translatableOf[i] ? "" : ' translatable="false"'}`;
    const context = keys.contextOf[i];
    if (context) lines.push(`    ${xmlComment(context)}`);
    const plural = splitPlural(value, "%d");
    if (!plural) {
      lines.push(`    <string ${name}>${escapeAndroid(value)}</string>`);
      continue;
    }
    lines.push(`    <plurals ${name}>`);
    for (const category of categoriesFor(lang.code, plural.forms)) lines.push(`        <item quantity="${category}">${escapeAndroid(formFor(plural.forms, category))}</item>`);
    lines.push("    </plurals>");
  }
  lines.push("</resources>", "");
  return lines.join("\n");
}

export const android = {
  name: "android",
  label: "Android strings.xml",
  extensions: ["xml"],
  contentType: "application/xml; charset=utf-8",
  bundle: false,
  marksTranslatable: true,
  read,
  write,
} as const satisfies FileFormat<"android">;

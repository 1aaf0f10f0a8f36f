import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { PLURAL_CATEGORIES, type PluralCatalog } from "../../messages/plurals.ts";
import { MAX_NESTING, type MessageSyntax } from "../../messages/read.ts";
import { shownText, splitUnits, storedText } from "../../messages/units.ts";

/**
 * A message as the editor shows it (docs/dashboard.md "Plural and select forms"): text, with each
 * placeholder an atom (a chip that cannot be mistyped), and each plural or select as its cases, one
 * field per case. Read with the parser the message checks use (src/messages/read.ts), in the
 * project's syntax (docs/dashboard.md "Editing in the project's syntax"): ICU quoting in `icu`
 * only; in `flutter` an apostrophe is text and a brace is syntax, as gen-l10n reads them; `i18next`
 * and `text` never quote. Native placeholders and inline tags in the text are units like
 * placeholders (src/messages/units.ts), and a literal `<` is stored as `&lt;`. No DOM here:
 * test/messages/forms.test.ts round-trips the checks' message table.
 */

/** A placeholder as written: `{name}`, `{n, number, ::percent}`, or a plural's `#`. */
export interface Placeholder {
  kind: "placeholder";
  /** The argument's name; `#` for a plural's number. */
  name: string;
  /** Its exact text, written back as it is. */
  source: string;
}
export interface Text {
  kind: "text";
  text: string;
}
export type Piece = Text | Placeholder;

export interface Case {
  /** `one`, `few`, `=0`, `female`, `other`. */
  selector: string;
  parts: Part[];
  /** Offered by the editor (a category of the language, a case of the base), not in the value: left empty, it is not written. */
  added?: boolean;
}
export interface Choice {
  kind: "choice";
  argument: string;
  type: "plural" | "selectordinal" | "select";
  offset: number;
  cases: Case[];
}
export type Part = Piece | Choice;

/** The parser's options, as the checks read messages (src/messages/read.ts). */
const PARSE_OPTIONS = { ignoreTag: true, requiresOtherClause: true, shouldParseSkeletons: false, captureLocation: true } as const;

/**
 * The parts of an ICU message, or null when it does not parse (the raw text is then edited as it
 * is). A `flutter` value is read as gen-l10n reads it: with every apostrophe doubled, ICU's
 * spelling of a literal one (src/messages/syntax-flutter.ts).
 */
export function readForms(value: string, syntax: MessageSyntax = "icu"): Part[] | null {
  // As deep as the checks read (src/messages/read.ts MAX_NESTING); deeper is edited as raw text.
  let depth = 0;
  for (const c of value) {
    if (c === "{" && ++depth > MAX_NESTING) return null;
    if (c === "}" && depth > 0) depth--;
  }
  const flutter = syntax === "flutter" && value.includes("'");
  const icu = flutter ? value.replaceAll("'", "''") : value;
  let elements: MessageFormatElement[];
  try {
    elements = parse(icu, PARSE_OPTIONS);
  } catch {
    return null;
  }
  return partsOf(elements, icu, flutter);
}

/** Text of the value as pieces: its units (native placeholders, tags) apart, `&lt;` shown as `<`. */
function textPieces(text: string): Piece[] {
  return splitUnits(text).map((s): Piece => (s.kind === "text" ? { kind: "text", text: shownText(s.text) } : { kind: "placeholder", name: s.unit.name, source: s.unit.source }));
}

function partsOf(elements: MessageFormatElement[], source: string, flutter: boolean): Part[] {
  const out: Part[] = [];
  for (const el of elements) {
    if (el.type === TYPE.literal) out.push({ kind: "text", text: el.value });
    else if (el.type === TYPE.pound) out.push({ kind: "placeholder", name: "#", source: "#" });
    else if (el.type === TYPE.plural || el.type === TYPE.select) {
      const type = el.type === TYPE.select ? "select" : el.pluralType === "ordinal" ? "selectordinal" : "plural";
      const offset = el.type === TYPE.plural ? el.offset : 0;
      out.push({ kind: "choice", argument: el.value, type, offset, cases: Object.entries(el.options).map(([selector, o]) => ({ selector, parts: partsOf(o.value, source, flutter) })) });
    } else if (el.type !== TYPE.tag) {
      const written = source.slice(el.location!.start.offset, el.location!.end.offset);
      out.push({ kind: "placeholder", name: el.value, source: flutter ? written.replaceAll("''", "'") : written });
    }
  }
  // Literal text, merged first (the parser may split it at a quote), then cut into its units.
  return merged(merged(out).flatMap((p): Part[] => (p.kind === "text" ? textPieces(p.text) : [p])));
}

/** Adjacent texts as one, empty texts dropped: the form two readings of the same message share. */
export function merged(parts: Part[]): Part[] {
  const out: Part[] = [];
  for (const p of parts) {
    if (p.kind === "text") {
      if (p.text === "") continue;
      const last = out[out.length - 1];
      if (last?.kind === "text") {
        out[out.length - 1] = { kind: "text", text: last.text + p.text };
        continue;
      }
    }
    out.push(p);
  }
  return out;
}

/** A text-syntax message (docs/product.md §7): `{{name}}` and `{name}` tokens are placeholders, nothing else is special. */
export function readText(value: string): Piece[] {
  const out: Piece[] = [];
  let at = 0;
  for (const m of value.matchAll(/\{\{([^{}]*)\}\}|\{([^{}]*)\}/g)) {
    const inner = (m[1] ?? m[2] ?? "").split(",")[0]!.trim().replace(/^-\s*/, "");
    if (!/^[\p{L}\p{N}_.$-]+$/u.test(inner)) continue;
    if (m.index > at) out.push(...textPieces(value.slice(at, m.index)));
    out.push({ kind: "placeholder", name: inner, source: m[0] });
    at = m.index + m[0].length;
  }
  if (at < value.length) out.push(...textPieces(value.slice(at)));
  return merged(out) as Piece[];
}

/** The characters after which an apostrophe opens a quote, so a literal one before them is doubled. */
const QUOTE_OPENERS = new Set(["'", "{", "}", "<", ">"]);

/**
 * Writes parts back as ICU. Braces, and `#` directly in a plural's case, are quoted as text
 * (`'{'`); a quote takes in the syntax characters and apostrophes right after it (`'{}'`, and
 * `'{'''` for a brace and an apostrophe), so it never ends next to another apostrophe. A literal
 * apostrophe elsewhere is doubled only where it would otherwise open a quote (`It's` stays as typed).
 */
function printParts(parts: Part[], inPlural: boolean, followedBy: string): string {
  const special = (c: string | undefined) => c === "{" || c === "}" || (inPlural && c === "#");
  let out = "";
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.kind === "placeholder") out += part.source;
    else if (part.kind === "choice") out += printChoice(part);
    else {
      const after = parts[i + 1];
      const next = after === undefined ? followedBy : after.kind === "placeholder" ? after.source[0]! : after.kind === "choice" ? "{" : "";
      const text = storedText(part.text);
      for (let j = 0; j < text.length; ) {
        const c = text[j]!;
        if (special(c)) {
          out += "'";
          for (; j < text.length && (special(text[j]) || text[j] === "'"); j++) out += text[j] === "'" ? "''" : text[j];
          out += "'";
        } else if (c === "'") {
          // What comes right after it in the output: an apostrophe (a quote opens before a syntax character), or the next character.
          const following = j + 1 < text.length ? (special(text[j + 1]) ? "'" : text[j + 1]!) : next;
          out += QUOTE_OPENERS.has(following) || (inPlural && following === "#") ? "''" : "'";
          j++;
        } else {
          out += c;
          j++;
        }
      }
    }
  }
  return out;
}

function isBlank(parts: Part[]): boolean {
  return parts.every((p) => p.kind === "text" && p.text.trim() === "");
}

/**
 * A case the editor offered and the translator left empty is not written (those numbers fall back
 * to `other`); a case the value had is kept even when empty, and `other` always is.
 */
function printChoice(choice: Choice): string {
  const inPlural = choice.type !== "select";
  const cases = choice.cases.filter((c) => c.selector === "other" || !c.added || !isBlank(c.parts));
  const offset = choice.offset ? `offset:${choice.offset} ` : "";
  return `{${choice.argument}, ${choice.type}, ${offset}${cases.map((c) => `${c.selector} {${printParts(c.parts, inPlural, "}")}}`).join(" ")}}`;
}

/**
 * A `flutter` message as gen-l10n reads it: text as typed (an apostrophe is an apostrophe, and
 * there is no quoting, so a brace typed is a brace of the syntax), choices as in ICU.
 */
function printFlutter(parts: Part[]): string {
  return parts
    .map((p) => {
      if (p.kind === "text") return storedText(p.text);
      if (p.kind === "placeholder") return p.source;
      const cases = p.cases.filter((c) => c.selector === "other" || !c.added || !isBlank(c.parts));
      return `{${p.argument}, ${p.type}, ${p.offset ? `offset:${p.offset} ` : ""}${cases.map((c) => `${c.selector} {${printFlutter(c.parts)}}`).join(" ")}}`;
    })
    .join("");
}

/** The parts as a value in the project's syntax; "" when every field is empty (nothing to save). */
export function printForms(parts: Part[], syntax: MessageSyntax): string {
  if (isEmpty(parts)) return "";
  if (syntax === "text" || syntax === "i18next") return parts.map((p) => (p.kind === "text" ? storedText(p.text) : p.kind === "placeholder" ? p.source : "")).join("");
  if (syntax === "flutter") return printFlutter(parts);
  return printParts(parts, false, "");
}

/** A value typed as source (the grid's field), as stored: each literal `<` outside a tag as `&lt;`. */
export function storedValue(typed: string): string {
  if (typed.indexOf("<") < 0) return typed;
  return splitUnits(typed).map((s) => (s.kind === "text" ? storedText(s.text) : s.unit.source)).join("");
}

/** Whether no field holds anything. */
export function isEmpty(parts: Part[]): boolean {
  return parts.every((p) => (p.kind === "text" ? p.text === "" : p.kind === "choice" ? p.cases.every((c) => isEmpty(c.parts)) : false));
}

export function hasChoice(parts: Part[] | null): boolean {
  return parts?.some((p) => p.kind === "choice") ?? false;
}

/** `{name, plural|select|selectordinal,` somewhere: the one shape a choice starts with. */
const CHOICE_START = /\{\s*[^{}\s,]+\s*,\s*(?:plural|select|selectordinal)\s*,/;

/**
 * Whether an ICU value has a plural or select it can be edited by: a test without the parser
 * first (the grid asks it of every cell it draws), the parser only for values that may.
 */
export function hasChoiceIn(value: string | null, syntax: MessageSyntax = "icu"): boolean {
  return value !== null && CHOICE_START.test(value) && hasChoice(readForms(value, syntax));
}

/** The placeholders a message uses, once each, in order: what a translator may insert from the base. */
export function placeholdersOf(parts: Part[]): Placeholder[] {
  const out: Placeholder[] = [];
  const walk = (list: Part[]) => {
    for (const p of list) {
      if (p.kind === "placeholder" && p.name !== "#" && !out.some((o) => o.source === p.source)) out.push(p);
      else if (p.kind === "choice") for (const c of p.cases) walk(c.parts);
    }
  };
  walk(parts);
  return out;
}

const ORDER: Record<string, number> = Object.fromEntries(PLURAL_CATEGORIES.map((c, i) => [c, i]));

/** Exact cases first by number, then categories in CLDR order, then select's cases as written, `other` last. */
function caseOrder(type: Choice["type"]) {
  return (a: Case, b: Case) => {
    const rank = (c: Case) => (c.selector.startsWith("=") ? -1000 + Number(c.selector.slice(1)) / 1e9 : c.selector === "other" ? 1000 : type === "select" ? 0 : (ORDER[c.selector] ?? 500));
    return rank(a) - rank(b);
  };
}

/** The categories a language's plurals have (`Intl.PluralRules`), or null when the runtime has no data for it. */
function categoriesOf(catalog: PluralCatalog, code: string, type: Choice["type"]): readonly string[] | null {
  const rules = catalog.of(code);
  if (!rules || type === "select") return null;
  return (type === "selectordinal" ? rules.ordinal : rules.cardinal).categories;
}

/** The choice of `base` for the same argument and kind, to take cases and nested structure from. */
function twin(base: Part[] | null, choice: Choice): Choice | undefined {
  return base?.find((p): p is Choice => p.kind === "choice" && p.argument === choice.argument && (p.type === "select") === (choice.type === "select"));
}

/**
 * A translation's empty form, shaped by the base's: each plural gets one case per category of the
 * target language plus the base's `=N` cases, each select the base's cases; text is left for the
 * translator. Nested choices keep their shape (a plural's cases all take the base's `other`).
 */
function skeleton(base: Part[], code: string, catalog: PluralCatalog): Part[] {
  const out: Part[] = [];
  for (const p of base) {
    if (p.kind !== "choice") continue;
    const template = (selector: string) => p.cases.find((c) => c.selector === selector) ?? p.cases.find((c) => c.selector === "other")!;
    const categories = categoriesOf(catalog, code, p.type);
    const selectors =
      p.type === "select" || !categories
        ? p.cases.map((c) => c.selector)
        : [...p.cases.map((c) => c.selector).filter((s) => s.startsWith("=")), ...categories];
    const cases = selectors.map((selector) => ({ selector, parts: skeleton(template(selector).parts, code, catalog), added: true }));
    out.push({ kind: "choice", argument: p.argument, type: p.type, offset: p.offset, cases: cases.sort(caseOrder(p.type)) });
  }
  return out;
}

/**
 * Adds to each choice of a translation the cases it lacks: every plural category of its language,
 * and the `=N` and select cases of the base's same choice, empty. Cases it has are kept, also one
 * its language lacks (the checks warn about it; the translator may empty it).
 */
function complete(parts: Part[], base: Part[] | null, code: string, catalog: PluralCatalog): Part[] {
  return parts.map((p) => {
    if (p.kind !== "choice") return p;
    const same = twin(base, p);
    const have = new Set(p.cases.map((c) => c.selector));
    const wanted = [...(categoriesOf(catalog, code, p.type) ?? []), ...(same?.cases.map((c) => c.selector).filter((s) => p.type === "select" || s.startsWith("=")) ?? [])];
    const cases: Case[] = p.cases.map((c) => ({ selector: c.selector, parts: complete(c.parts, same?.cases.find((b) => b.selector === c.selector)?.parts ?? null, code, catalog) }));
    for (const selector of wanted) {
      if (have.has(selector)) continue;
      have.add(selector);
      const from = same?.cases.find((c) => c.selector === selector) ?? same?.cases.find((c) => c.selector === "other");
      cases.push({ selector, parts: from ? skeleton(from.parts, code, catalog) : [], added: true });
    }
    return { ...p, cases: cases.sort(caseOrder(p.type)) };
  });
}

export interface EditorForm {
  /** The fields to show, or null when the value is edited as raw text (it does not parse). */
  parts: Part[] | null;
  /** What the base offers to insert. */
  placeholders: Placeholder[];
}

/**
 * What the editor shows for `value` in language `code`, given the key's base-language value:
 * the value's own parts when it has any (its plurals completed with the language's categories),
 * or, for an empty value whose base has a plural or select, the base's shape with empty fields.
 */
export function editorForm(value: string, base: string | null, code: string, syntax: MessageSyntax, catalog: PluralCatalog): EditorForm {
  if (syntax === "text" || syntax === "i18next") return { parts: readText(value), placeholders: base === null ? [] : (readText(base).filter((p) => p.kind === "placeholder") as Placeholder[]) };
  const baseParts = base === null ? null : readForms(base, syntax);
  const placeholders = baseParts ? placeholdersOf(baseParts) : [];
  if (value === "") return { parts: baseParts && hasChoice(baseParts) ? skeleton(baseParts, code, catalog) : [], placeholders };
  const own = readForms(value, syntax);
  if (!own) return { parts: null, placeholders };
  return { parts: complete(own, baseParts, code, catalog), placeholders };
}

/** Two ICU values that read the same (spacing, quoting and case order aside). */
export function sameMessage(a: string, b: string, syntax: MessageSyntax = "icu"): boolean {
  if (a === b) return true;
  const pa = readForms(a, syntax);
  const pb = readForms(b, syntax);
  return pa !== null && pb !== null && JSON.stringify(normal(pa)) === JSON.stringify(normal(pb));
}

function normal(parts: Part[]): unknown {
  return parts.map((p) => (p.kind === "choice" ? { ...p, cases: [...p.cases].sort((x, y) => (x.selector < y.selector ? -1 : 1)).map((c) => ({ selector: c.selector, parts: normal(c.parts) })) } : p));
}

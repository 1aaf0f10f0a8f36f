import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import type { MessageSyntax } from "../messages/read-types.ts";
import { MachineError } from "./engine.ts";

/**
 * What of a message an engine may change (docs/translators.md "Machine translation"): only its
 * text. Placeholders, tags, character references, line breaks and ICU syntax become `<x id="N"/>`
 * tokens and are put back as they were; each form of a plural or select is a text of its own, and
 * a plural gets every category of the target language (a form it lacks from `other`). What comes
 * back must hold the tokens it was given, once each, and no markup or braces of its own: else
 * the answer is refused, never repaired.
 */

/** One text for the engine: literal pieces and tokens. */
export interface Piece {
  parts: ({ text: string } | { token: number })[];
}

interface Choice {
  name: string;
  type: "plural" | "selectordinal" | "select";
  offset: number;
  options: [selector: string, piece: Piece][];
}

/** A token stands for its source text as written, or for a plural or select rebuilt after translation. */
type Token = { raw: string } | { choice: Choice };

export interface Protected {
  root: Piece;
  tokens: Token[];
  /** Every piece in order, the one the engine is asked to translate (the same pieces share one text). */
  pieces: Piece[];
}

/** Pieces of literal text no engine may change, whatever the syntax. */
const ALWAYS = [
  /<\/?[A-Za-z][\w:.-]*(?:\s[^<>]*)?\/?>/.source, // a tag
  /&(?:#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z][A-Za-z0-9]*);/.source, // a character reference (`&lt;`)
  /%%|%(?:\d+\$)?[-+0#]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|q|L|z|j|t)?[@dDiuUxXoOfFeEgGcCsSpaA]/.source, // printf
  /\r?\n/.source, // a line break (HTML would fold it into a space)
  /</.source, // any other `<`
];
const BRACES = {
  // A brace in ICU text was quoted (`'{'`): it stays so.
  icu: [/[{}]/.source],
  flutter: [/[{}]/.source],
  i18next: [/\{\{[^{}]*\}\}/.source, /\$t\([^()]*\)/.source],
  text: [/\{\{[^{}]*\}\}/.source, /\{[^{}]*\}/.source],
} as const;

function protectedPattern(syntax: MessageSyntax): RegExp {
  return new RegExp([...(BRACES[syntax] ?? []), ...ALWAYS].join("|"), "g");
}

class Builder {
  readonly tokens: Token[] = [];
  readonly pieces: Piece[] = [];
  constructor(
    private readonly pattern: RegExp,
    private readonly icu: boolean,
  ) {}

  piece(): Piece {
    const p: Piece = { parts: [] };
    this.pieces.push(p);
    return p;
  }

  token(piece: Piece, token: Token): void {
    piece.parts.push({ token: this.tokens.length });
    this.tokens.push(token);
  }

  text(piece: Piece, text: string): void {
    let at = 0;
    for (const m of text.matchAll(this.pattern)) {
      if (m.index! > at) piece.parts.push({ text: text.slice(at, m.index) });
      this.token(piece, { raw: this.icu && (m[0] === "{" || m[0] === "}") ? `'${m[0]}'` : m[0] });
      at = m.index! + m[0].length;
    }
    if (at < text.length) piece.parts.push({ text: text.slice(at) });
  }
}

function pluralCategories(code: string, type: "cardinal" | "ordinal"): string[] {
  try {
    return new Intl.PluralRules(code, { type }).resolvedOptions().pluralCategories as string[];
  } catch {
    return ["other"];
  }
}

function walkIcu(b: Builder, piece: Piece, elements: MessageFormatElement[], source: string, target: string): void {
  for (const el of elements) {
    if (el.type === TYPE.literal) b.text(piece, el.value);
    else if (el.type === TYPE.pound) b.token(piece, { raw: "#" });
    else if (el.type === TYPE.plural || el.type === TYPE.select) {
      const type = el.type === TYPE.select ? "select" : el.pluralType === "ordinal" ? "selectordinal" : "plural";
      const bySelector = new Map<string, Piece>();
      for (const [selector, option] of Object.entries(el.options)) {
        const p = b.piece();
        walkIcu(b, p, option.value, source, target);
        bySelector.set(selector, p);
      }
      let options: [string, Piece][] = [...bySelector];
      if (type !== "select") {
        // The target language's categories, in its order; a form the source lacks is its `other`.
        const exact = options.filter(([s]) => s.startsWith("="));
        const categories = pluralCategories(target, type === "plural" ? "cardinal" : "ordinal");
        options = [...exact, ...categories.map((c): [string, Piece] => [c, bySelector.get(c) ?? bySelector.get("other")!])];
      }
      b.token(piece, { choice: { name: el.value, type, offset: el.type === TYPE.plural ? el.offset : 0, options } });
    } else if (el.location) {
      b.token(piece, { raw: source.slice(el.location.start.offset, el.location.end.offset) });
    } else {
      throw new MachineError("the message could not be read for the engine");
    }
  }
}

/** `value` split into what an engine translates and what it must keep; `target` decides a plural's forms. */
export function protect(value: string, syntax: MessageSyntax, target: string): Protected {
  const b = new Builder(protectedPattern(syntax), syntax === "icu");
  const root = b.piece();
  if (syntax === "icu" || syntax === "flutter") {
    // gen-l10n reads an apostrophe as itself: doubled, ICU reads it so too (src/messages/syntax-flutter.ts).
    const source = syntax === "flutter" ? value.replaceAll("'", "''") : value;
    let elements: MessageFormatElement[];
    try {
      elements = parse(source, { ignoreTag: true, requiresOtherClause: true, shouldParseSkeletons: false, captureLocation: true });
    } catch {
      throw new MachineError("the base text is not a valid ICU message, so it is not sent to the engine");
    }
    walkIcu(b, root, elements, source, target);
  } else {
    b.text(root, value);
  }
  return { root, tokens: b.tokens, pieces: b.pieces };
}

/** What the engine is sent for a piece, and the white space around its text, which engines drop. */
export function engineText(piece: Piece, html: boolean): { text: string; lead: string; trail: string } {
  let text = "";
  for (const part of piece.parts) {
    if ("token" in part) text += `<x id="${part.token}"/>`;
    else text += html ? part.text.replace(/&/g, "&amp;").replace(/>/g, "&gt;") : part.text;
  }
  const lead = /^\s*/.exec(text)![0];
  const trail = text.length > lead.length ? /\s*$/.exec(text)![0] : "";
  return { text: text.slice(lead.length, text.length - trail.length), lead, trail };
}

/** Whether a piece has any text to translate (one of only tokens and white space is kept as it is). */
export function hasText(piece: Piece): boolean {
  return piece.parts.some((p) => "text" in p && p.text.trim() !== "");
}

const TOKEN = /<x\s+id\s*=\s*["']?(\d+)["']?\s*\/?>(?:\s*<\/x>)?/g;
const REFERENCES: Record<string, string> = { amp: "&", gt: ">", quot: '"', apos: "'", "#39": "'", nbsp: "\u00a0" };

/**
 * An engine's text for `piece` read back into parts: its tokens must be the piece's own, once
 * each (a dropped one is left out, and the message checks then say so); any other markup, and any
 * brace, refuses the answer.
 */
export function readBack(piece: Piece, answer: string, html: boolean): Piece {
  const allowed = new Set(piece.parts.flatMap((p) => ("token" in p ? [p.token] : [])));
  const seen = new Set<number>();
  const parts: Piece["parts"] = [];
  let at = 0;
  const text = (raw: string) => {
    const decoded = html ? raw.replace(/&(amp|gt|quot|apos|#39|nbsp);/g, (_, name: string) => REFERENCES[name]!) : raw;
    if (/[<{}]/.test(decoded)) {
      const what = decoded.includes("<") ? "markup" : "braces";
      throw new MachineError(`the engine's answer holds ${what} the source text does not have: ${JSON.stringify(decoded.slice(0, 80))}`);
    }
    if (decoded) parts.push({ text: decoded });
  };
  for (const m of answer.matchAll(TOKEN)) {
    text(answer.slice(at, m.index));
    const id = Number(m[1]);
    if (!allowed.has(id)) throw new MachineError("the engine's answer changed a placeholder (a token it was not given)");
    if (seen.has(id)) throw new MachineError("the engine's answer repeats a placeholder");
    seen.add(id);
    parts.push({ token: id });
    at = m.index! + m[0].length;
  }
  text(answer.slice(at));
  return { parts };
}

/** ICU text: a `#` in a plural quoted, an apostrophe doubled where ICU would read it as a quote. */
const APOSTROPHE = "\uE001";

function printPiece(p: Protected, piece: Piece, inPlural: boolean, syntax: MessageSyntax): string {
  // ICU quotes with apostrophes; gen-l10n's flutter syntax has no quoting: its text is printed as it is.
  const quoting = syntax === "icu";
  let out = "";
  for (const part of piece.parts) {
    if ("text" in part) {
      out += quoting ? part.text.replace(/'/g, APOSTROPHE).replace(/#/g, inPlural ? "'#'" : "#") : part.text;
      continue;
    }
    const token = p.tokens[part.token]!;
    // A flutter token was read from the value with its apostrophes doubled (`protect`): undone here.
    if ("raw" in token) out += syntax === "flutter" ? token.raw.replaceAll("''", "'") : token.raw;
    else {
      const c = token.choice;
      const head = `{${c.name}, ${c.type}, ${c.offset ? `offset:${c.offset} ` : ""}`;
      out += head + c.options.map(([selector, option]) => `${selector} {${printPiece(p, option, c.type !== "select", syntax)}}`).join(" ") + "}";
    }
  }
  return out;
}

/** The message again, with each piece's translation (`translated`, by piece) in its place. */
export function rebuild(p: Protected, translated: Map<Piece, Piece>, syntax: MessageSyntax): string {
  const swap = (piece: Piece): Piece => translated.get(piece) ?? piece;
  const withSwapped: Protected = {
    root: swap(p.root),
    pieces: p.pieces,
    tokens: p.tokens.map((t) => ("choice" in t ? { choice: { ...t.choice, options: t.choice.options.map(([s, o]) => [s, swap(o)] as [string, Piece]) } } : t)),
  };
  const printed = printPiece(withSwapped, withSwapped.root, false, syntax);
  // An apostrophe of the text before `{`, `}`, `#`, `|` or another apostrophe would start ICU quoting: doubled there.
  return printed.replace(new RegExp(`${APOSTROPHE}(?=[{}#|'${APOSTROPHE}])`, "g"), "''").replace(new RegExp(APOSTROPHE, "g"), "'");
}

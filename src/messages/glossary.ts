import type { MessageProblem } from "../storage/schema.ts";

/**
 * The `glossary` check (docs/messages.md "Glossary"): where the base text holds a term of the
 * project's glossary, a translation should hold the term's translation into its language (any
 * letter case, unless the term is case-sensitive; inflected forms that begin with it count), and a
 * term not to be translated should stay as it is. A warning, never an error. Pure code: the
 * dashboard runs it while a value is typed, as the server does when it is saved.
 */
export interface GlossaryTerm {
  term: string;
  /** By language code. */
  translations: Record<string, string>;
  caseSensitive: boolean;
  doNotTranslate: boolean;
}

/** Findings of this check past this many are left out (a base text with dozens of terms stays readable). */
const MAX_FINDINGS = 5;

/** Scripts written without spaces between words: a term of them is found anywhere. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const WORDISH = /[\p{L}\p{N}]/u;
const WORD = /[\p{L}\p{N}]+/gu;

/** Whether a term needs a word boundary at an end: it ends in a letter or digit of a script with spaces. */
function bounded(ch: string | undefined): boolean {
  return ch !== undefined && WORDISH.test(ch) && !UNSPACED.test(ch);
}

/** The character that ends just before `at` (both halves of a surrogate pair). */
function codePointBefore(text: string, at: number): string {
  const low = text.charCodeAt(at - 1);
  return at >= 2 && low >= 0xdc00 && low <= 0xdfff ? text.slice(at - 2, at) : text[at - 1]!;
}

interface Entry {
  term: GlossaryTerm;
  /** Where the word it is found by begins within the term (`.NET` is found by `NET`, 1 in). */
  offset: number;
  boundedStart: boolean;
  boundedEnd: boolean;
}

/**
 * Finds a glossary's terms in a text, as whole words; built once per glossary. Each term is found
 * by its first word (or, in a script without spaces, its first character): the text's words are
 * looked up in a map and only the terms they begin are compared, so a check costs the text's
 * words, not its length times the glossary's size (a pattern of 10,000 alternatives took 3 s on a
 * 100,000-character value; test/adversarial/translator-help.test.ts).
 */
export class GlossaryMatcher {
  private readonly byWord = new Map<string, Entry[]>();
  private readonly byChar = new Map<string, Entry[]>();

  constructor(readonly terms: readonly GlossaryTerm[]) {
    for (const term of terms) {
      const text = term.term;
      if (text.trim() === "") continue;
      const chars = [...text];
      const entry = (offset: number): Entry => ({ term, offset, boundedStart: bounded(chars[0]), boundedEnd: bounded(chars[chars.length - 1]) });
      const first = WORD.exec(text);
      WORD.lastIndex = 0;
      if (first && !UNSPACED.test(first[0][0]!)) {
        const key = first[0].toLowerCase();
        this.byWord.set(key, [...(this.byWord.get(key) ?? []), entry(first.index)]);
      } else {
        // A term of a script without spaces (or with no word at all) is found by its first character.
        const key = chars[0]!.toLowerCase();
        this.byChar.set(key, [...(this.byChar.get(key) ?? []), entry(0)]);
      }
    }
  }

  private at(text: string, start: number, e: Entry): boolean {
    const t = e.term.term;
    if (start < 0 || start + t.length > text.length) return false;
    const slice = text.slice(start, start + t.length);
    if (e.term.caseSensitive ? slice !== t : slice.toLowerCase() !== t.toLowerCase()) return false;
    if (e.boundedStart && start > 0 && WORDISH.test(codePointBefore(text, start))) return false;
    const end = start + t.length;
    if (e.boundedEnd && end < text.length && WORDISH.test(String.fromCodePoint(text.codePointAt(end)!))) return false;
    return true;
  }

  /**
   * Where the terms are in `text`, every occurrence, in order (the translate page marks them). A
   * `work` counter is charged a step per word looked up and per term compared
   * (test/adversarial/translator-help.test.ts holds them to the text's words).
   */
  occurrences(text: string, work?: { steps: number }): { start: number; end: number; term: GlossaryTerm }[] {
    const found: { start: number; end: number; term: GlossaryTerm }[] = [];
    const take = (at: number, e: Entry) => {
      if (work) work.steps++;
      const start = at - e.offset;
      if (this.at(text, start, e)) found.push({ start, end: start + e.term.term.length, term: e.term });
    };
    if (this.byWord.size > 0) {
      for (const m of text.matchAll(WORD)) {
        if (work) work.steps++;
        const entries = this.byWord.get(m[0].toLowerCase());
        if (entries) for (const e of entries) take(m.index!, e);
      }
    }
    if (this.byChar.size > 0) {
      for (let i = 0; i < text.length; i++) {
        if (work) work.steps++;
        const entries = this.byChar.get(text[i]!.toLowerCase());
        if (entries) for (const e of entries) take(i, e);
      }
    }
    return found.sort((a, b) => a.start - b.start || b.end - a.end);
  }

  /** The terms found in `text`, each once, in the order first found. */
  find(text: string, work?: { steps: number }): GlossaryTerm[] {
    const seen = new Set<GlossaryTerm>();
    const out: GlossaryTerm[] = [];
    for (const o of this.occurrences(text, work)) {
      if (seen.has(o.term)) continue;
      seen.add(o.term);
      out.push(o.term);
    }
    return out;
  }
}

/** A term's translation into `code` (matched in any letter case), or null. */
export function translationOf(term: GlossaryTerm, code: string): string | null {
  const wanted = code.toLowerCase();
  for (const [c, text] of Object.entries(term.translations)) if (c.toLowerCase() === wanted && text.trim() !== "") return text;
  return null;
}

function holds(value: string, text: string, caseSensitive: boolean): boolean {
  return caseSensitive ? value.includes(text) : value.toLowerCase().includes(text.toLowerCase());
}

/** The `glossary` warnings of `value`, a translation into `code` of `base`. */
export function glossaryFindings(base: string, value: string, code: string, matcher: GlossaryMatcher): MessageProblem[] {
  const out: MessageProblem[] = [];
  for (const term of matcher.find(base)) {
    if (term.doNotTranslate) {
      if (!value.includes(term.term)) out.push({ code: "glossary", severity: "warning", message: `\`${term.term}\` is not to be translated (glossary); keep it as it is` });
    } else {
      const wanted = translationOf(term, code);
      if (wanted !== null && !holds(value, wanted, term.caseSensitive)) {
        out.push({ code: "glossary", severity: "warning", message: `the glossary translates \`${term.term}\` as \`${wanted}\`, which this translation does not use` });
      }
    }
    if (out.length === MAX_FINDINGS) break;
  }
  return out;
}

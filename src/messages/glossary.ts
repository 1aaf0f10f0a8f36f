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

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** Scripts written without spaces between words: a term of them is found anywhere. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const WORDISH = /[\p{L}\p{N}]/u;

/** Whether a term needs a word boundary at an end: it ends in a letter or digit of a script with spaces. */
function bounded(ch: string): boolean {
  return WORDISH.test(ch) && !UNSPACED.test(ch);
}

/** Finds a glossary's terms in a text, as whole words; built once per glossary. */
export class GlossaryMatcher {
  private readonly patterns: { re: RegExp; byKey: Map<string, GlossaryTerm[]>; fold: boolean }[] = [];

  constructor(readonly terms: readonly GlossaryTerm[]) {
    for (const fold of [false, true]) {
      const group = terms.filter((t) => t.caseSensitive !== fold && t.term.trim() !== "");
      if (group.length === 0) continue;
      const byKey = new Map<string, GlossaryTerm[]>();
      for (const t of group) {
        const k = fold ? t.term.toLowerCase() : t.term;
        byKey.set(k, [...(byKey.get(k) ?? []), t]);
      }
      const alternatives = [...byKey.keys()]
        .sort((a, b) => b.length - a.length)
        .map((k) => {
          const chars = [...k];
          return `${bounded(chars[0]!) ? "(?<![\\p{L}\\p{N}])" : ""}${escape(k)}${bounded(chars[chars.length - 1]!) ? "(?![\\p{L}\\p{N}])" : ""}`;
        });
      this.patterns.push({ re: new RegExp(alternatives.join("|"), fold ? "giu" : "gu"), byKey, fold });
    }
  }

  /** The terms found in `text`, each once, in the order first found. */
  find(text: string): GlossaryTerm[] {
    const out: GlossaryTerm[] = [];
    const seen = new Set<GlossaryTerm>();
    for (const { re, byKey, fold } of this.patterns) {
      for (const m of text.matchAll(re)) {
        for (const t of byKey.get(fold ? m[0].toLowerCase() : m[0]) ?? []) {
          if (!seen.has(t)) {
            seen.add(t);
            out.push(t);
          }
        }
      }
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

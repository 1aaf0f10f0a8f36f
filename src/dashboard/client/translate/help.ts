import type { TermView } from "../../../glossary/glossary.ts";
import { GlossaryMatcher, translationOf } from "../../../messages/glossary.ts";
import { can, get, projectPath } from "../api.ts";
import { h } from "../dom.ts";
import type { Language } from "../layout.ts";

/**
 * What the translate page holds for every key (docs/translators.md "Context while translating"):
 * the project's glossary, read once, and the one more language the person chose to see. Each card
 * adds what is its own: its suggestions, and how a value is put in its editor.
 */
export interface PageHelp {
  glossary: GlossaryMatcher | null;
  reference: Language | null;
  /** Translators and up may comment (docs/dashboard-api.md "Access"). */
  canComment: boolean;
}

export interface CardHelp {
  page: PageHelp;
  /** Puts `value` in the editor as if typed (saved with the next save). */
  use(value: string): void;
  /** The suggestions on screen, in order: Ctrl+Shift+1 uses the first. */
  suggestions: string[];
}

/** The glossary as the checks and the marks read it; none when the project has no term or it cannot be read. */
export async function loadGlossary(pid: string): Promise<GlossaryMatcher | null> {
  try {
    const { items } = await get<{ items: TermView[] }>(projectPath(pid, "glossary"));
    if (items.length === 0) return null;
    return new GlossaryMatcher(items.map((t) => ({ term: t.term, translations: t.translations, caseSensitive: t.case_sensitive, doNotTranslate: t.do_not_translate })));
  } catch {
    return null;
  }
}

export function pageHelp(glossary: GlossaryMatcher | null, reference: Language | null): PageHelp {
  return { glossary, reference, canComment: can("translator") };
}

/** Where the chosen extra language is remembered, per project, for the next visit. */
const referenceKey = (pid: string) => `phrasebook.reference.${pid}`;

/** The extra language: the URL's `ref`, else the one chosen last time; never the base or the target. */
export function referenceLanguage(pid: string, languages: Language[], target: Language, asked: string | null): Language | null {
  let wanted = asked;
  try {
    if (wanted === null) wanted = localStorage.getItem(referenceKey(pid));
    else localStorage.setItem(referenceKey(pid), wanted);
  } catch {
    // storage off: the URL alone decides
  }
  const found = languages.find((l) => l.code.toLowerCase() === wanted?.toLowerCase());
  return found && !found.is_base_language && found.code !== target.code ? found : null;
}

/**
 * The base text with the glossary's terms marked where they stand, each with its translation
 * into `code` as its title (docs/translators.md "Glossary"). Only text is split: placeholders stay.
 */
export function markTerms(root: HTMLElement, glossary: GlossaryMatcher, code: string, languageName: string): void {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) texts.push(node as Text);
  for (const text of texts) {
    if (text.parentElement?.closest(".ph, mark")) continue;
    const found = glossary.occurrences(text.data);
    let at = 0;
    const parts: (string | HTMLElement)[] = [];
    for (const o of found) {
      if (o.start < at) continue;
      const translation = o.term.doNotTranslate ? "keep as it is" : (translationOf(o.term, code) ?? "no translation yet");
      parts.push(text.data.slice(at, o.start), h("mark", { class: "term", title: `${languageName}: ${translation}`, "data-term": o.term.term }, text.data.slice(o.start, o.end)));
      at = o.end;
    }
    if (parts.length === 0) continue;
    parts.push(text.data.slice(at));
    text.replaceWith(...parts);
  }
}

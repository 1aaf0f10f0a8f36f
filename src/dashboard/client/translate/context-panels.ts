import type { MessageSyntax } from "../../../messages/read.ts";
import { h, type Child } from "../dom.ts";
import type { KeyItem } from "../key-grid.ts";
import type { Language } from "../layout.ts";
import { pieces } from "../message-editor.ts";
import { readForms, readText, type Part } from "../message-forms.ts";
import { placeholderNotes } from "../placeholder-notes.ts";
import { badge } from "../ui.ts";
import { commentsPanel } from "./comments-panel.ts";
import { markTerms, type CardHelp } from "./help.ts";
import { glossaryPanel, referencePanel, screenshotsPanel, suggestionsPanel } from "./help-panels.ts";

/**
 * What the translate page shows beside the translation (docs/dashboard.md "Translating one
 * language"): a column of panels, each a function of the key on screen that draws its element or
 * nothing: the base text (its glossary terms marked), the key's context and placeholders, then
 * help for translators (translate/help-panels.ts, comments-panel.ts: glossary terms, the extra
 * language, suggestions, screenshots, comments). A panel that loads something draws its frame at
 * once and fills it when the answer comes.
 */
export interface KeyContext {
  pid: string;
  item: KeyItem;
  base: Language;
  target: Language;
  /** The key's base-language value; null for the base language itself or a key without one. */
  baseValue: string | null;
  syntax: MessageSyntax;
  /** The glossary, the extra language, and how a suggestion is put in the editor (translate/help.ts). */
  help: CardHelp;
}

export type ContextPanel = (key: KeyContext) => Child;

/** The base text as it reads: text with placeholder chips, a plural or select as its cases. */
export function showParts(parts: Part[], lang: string): Child[] {
  return parts.map((p) =>
    p.kind === "choice"
      ? h(
          "dl",
          { class: "cases" },
          p.cases.map((c) => [h("dt", null, h("code", null, c.selector)), h("dd", { lang }, showParts(c.parts, lang))]),
        )
      : pieces([p]),
  );
}

const baseText: ContextPanel = ({ item, base, target, baseValue, syntax, help }) => {
  // As the app will show it in the project's syntax (docs/dashboard.md "Editing in the project's syntax").
  const parts = baseValue === null ? null : syntax === "text" || syntax === "i18next" ? readText(baseValue) : readForms(baseValue, syntax);
  const text = baseValue === null ? null : h("div", { class: "base-text", lang: base.code }, parts ? showParts(parts, base.code) : baseValue);
  // The glossary's terms marked where they stand (docs/translators.md "Glossary").
  if (text && help.page.glossary && !target.is_base_language) markTerms(text, help.page.glossary, target.code, target.name);
  // A form the base language lacks (`items_few` in English) shows the `_other` form it translates.
  const fromForm = text && !target.is_base_language && item.translations[base.code] === undefined && item.base_form ? item.base_form.key : null;
  return [
    h("h3", null, base.name, " ", badge("base", "base")),
    fromForm ? h("p", { class: "muted small" }, `${base.name} has no such plural form: this is its `, h("code", null, fromForm), ".") : null,
    target.is_base_language ? h("p", { class: "muted small" }, "You are editing the base language itself.") : (text ?? h("p", { class: "muted" }, "No base text yet.")),
  ];
};

const keyContext: ContextPanel = ({ item }) => (item.context ? h("div", { class: "context-box" }, h("h3", null, "Context"), h("p", { class: "context" }, item.context)) : null);

const declaredPlaceholders: ContextPanel = ({ item }) => placeholderNotes(item);

/** The panels, top to bottom: the key's own context, then help for translators (docs/translators.md "Context while translating"). */
export const CONTEXT_PANELS: readonly ContextPanel[] = [baseText, keyContext, declaredPlaceholders, glossaryPanel, referencePanel, suggestionsPanel, screenshotsPanel, commentsPanel];

export function contextColumn(key: KeyContext): HTMLElement {
  return h("div", { class: "source" }, CONTEXT_PANELS.map((panel) => panel(key)));
}

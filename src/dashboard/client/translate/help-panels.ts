import type { MemorySuggestion } from "../../../memory/suggestions.ts";
import type { MachineSuggestion } from "../../../memory/service.ts";
import { translationOf } from "../../../messages/glossary.ts";
import type { ScreenshotView } from "../../../screenshots/screenshots.ts";
import { canEdit, get, projectPath } from "../api.ts";
import { fill, h, type Child } from "../dom.ts";
import { problemList } from "../problems.ts";
import { badge, message } from "../ui.ts";
import type { KeyContext } from "./context-panels.ts";

/**
 * The help beside the base text on the translate page (docs/translators.md "Context while
 * translating"), each a panel of translate/context-panels.ts: suggestions from the memory and the
 * machine, the glossary's terms, the extra language, screenshots with the key's box, comments. A
 * panel that loads draws its frame at once and fills it when the answer comes; one with nothing to
 * show goes away.
 */
type Suggestion = MemorySuggestion | MachineSuggestion;

/** A frame with a heading, filled later; removed when `fill` gets nothing. */
export function frame(title: string, className: string): { element: HTMLElement; fill(...children: Child[]): void } {
  const body = h("div", { class: "help-body" }, h("p", { class: "muted small" }, "Loading…"));
  const element = h("section", { class: `help ${className}`, "aria-label": title }, h("h3", null, title), body);
  return {
    element,
    fill(...children) {
      if (children.every((c) => c === null || (Array.isArray(c) && c.length === 0))) element.remove();
      else fill(body, ...children);
    },
  };
}

function origin(s: Suggestion): string {
  if (s.source === "machine") return `machine translation (${s.from.engine})`;
  const where = s.from.memory ? `memory “${s.from.memory.name}”` : `${s.from.key!.key}`;
  return `${where} · ${s.from.project.name}`;
}

function suggestionItem(key: KeyContext, s: Suggestion, n: number): HTMLElement {
  const editable = canEdit(key.target.code);
  const score = s.score === null ? badge("machine", "machine") : badge(`${s.score}%`, s.score === 100 ? "exact" : "fuzzy");
  return h(
    "li",
    { class: "suggestion" },
    h("div", { class: "suggestion-head" }, score, h("span", { class: "muted small" }, origin(s))),
    h("p", { class: "suggestion-value", lang: key.target.code }, s.value),
    problemList(s.problems),
    editable ? h("button", { type: "button", class: "small", onclick: () => key.help.use(s.value) }, "Use", n <= 9 ? h("kbd", null, `Ctrl+Shift+${n}`) : null) : null,
  );
}

export function suggestionsPanel(key: KeyContext): Child {
  if (key.baseValue === null || key.target.is_base_language) return null;
  const f = frame("Suggestions", "suggestions");
  const path = `${projectPath(key.pid, "keys", key.item.id, "suggestions")}?language=${encodeURIComponent(key.target.code)}`;
  get<{ items: Suggestion[]; machine_error?: string }>(path).then(
    ({ items, machine_error }) => {
      key.help.suggestions.splice(0, Infinity, ...items.map((s) => s.value));
      const note = machine_error ? h("p", { class: "muted small" }, `Machine translation: ${machine_error}`) : null;
      f.fill(items.length > 0 ? h("ol", { class: "suggestion-list" }, items.map((s, i) => suggestionItem(key, s, i + 1))) : h("p", { class: "muted small" }, "Nothing like it was translated before."), note);
    },
    (err) => f.fill(h("p", { class: "muted small" }, message(err))),
  );
  return f.element;
}

export function glossaryPanel({ help, baseValue, target }: KeyContext): Child {
  const terms = help.page.glossary && baseValue !== null && !target.is_base_language ? help.page.glossary.find(baseValue) : [];
  if (terms.length === 0) return null;
  return h(
    "section",
    { class: "help glossary", "aria-label": "Glossary" },
    h("h3", null, "Glossary"),
    h(
      "ul",
      { class: "term-list" },
      terms.map((t) => {
        const translation = t.doNotTranslate ? null : translationOf(t, target.code);
        return h("li", null, h("b", null, t.term), " → ", t.doNotTranslate ? badge("keep as it is", "keep") : translation ? h("span", { lang: target.code }, translation) : h("span", { class: "muted" }, "no translation yet"));
      }),
    ),
  );
}

export function referencePanel({ help, item }: KeyContext): Child {
  const ref = help.page.reference;
  if (!ref) return null;
  const cell = item.translations[ref.code];
  return h(
    "section",
    { class: "help reference", "aria-label": `${ref.name} for reference` },
    h("h3", null, ref.name, " ", h("code", { class: "muted small" }, ref.code)),
    cell ? h("p", { class: "reference-value", lang: ref.code }, cell.value) : h("p", { class: "muted small" }, `No ${ref.name} translation yet.`),
  );
}

type KeyShot = Omit<ScreenshotView, "keys"> & { box: { x: number; y: number; width: number; height: number } | null };

function shot(s: KeyShot, keyName: string): HTMLElement {
  const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(3)}%`;
  const box = s.box ? h("div", { class: "shot-box", title: keyName }) : null;
  // Set through the DOM: the page's CSP refuses style attributes (dashboard/shell.ts).
  if (box && s.box) Object.assign(box.style, { left: pct(s.box.x, s.width), top: pct(s.box.y, s.height), width: pct(s.box.width, s.width), height: pct(s.box.height, s.height) });
  return h(
    "figure",
    { class: "shot" },
    h("a", { class: "shot-frame", href: s.url, target: "_blank", rel: "noopener" }, h("img", { src: s.url, alt: `Screenshot “${s.name}”`, width: s.width, height: s.height, loading: "lazy" }), box),
    h("figcaption", { class: "muted small" }, s.name),
  );
}

export function screenshotsPanel(key: KeyContext): Child {
  const f = frame("Screenshots", "screenshots");
  get<{ items: KeyShot[] }>(projectPath(key.pid, "keys", key.item.id, "screenshots")).then(
    ({ items }) => f.fill(items.map((s) => shot(s, key.item.key))),
    () => f.fill(null),
  );
  return f.element;
}

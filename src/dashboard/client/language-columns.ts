import type { EditorPreferencesView } from "../../authoring/editor-preferences.ts";
import { get, projectPath, put } from "./api.ts";
import { h, uid } from "./dom.ts";
import type { Language } from "./layout.ts";

/**
 * Which languages the key grid shows (docs/product.md §8, docs/dashboard.md "Choosing the
 * languages shown"): the base language always, any others by choice. The choice is the user's own
 * per project, kept by the server (`/editor-preferences`), so it follows them to another browser.
 */
export type { EditorPreferencesView };

export function loadShownLanguages(pid: string): Promise<EditorPreferencesView> {
  return get<EditorPreferencesView>(projectPath(pid, "editor-preferences"));
}

export function saveShownLanguages(pid: string, codes: string[]): Promise<EditorPreferencesView> {
  return put<EditorPreferencesView>(projectPath(pid, "editor-preferences"), { languages: codes });
}

/** Past this many languages the list gets a box to find one by code or name. */
const FIND_FROM = 12;

export interface ColumnPicker {
  element: HTMLElement;
  /** The codes shown now, base first, in the project's order. */
  shown(): string[];
}

/**
 * A button that opens the list of the project's languages as checkboxes. Every change is reported
 * at once (the grid redraws); Escape, the button or a click elsewhere closes the list and puts the
 * focus back on the button.
 */
/** The checkboxes of the languages, a box to find one past FIND_FROM, and "All" / "Base only". */
function languageChecks(languages: Language[], chosen: Set<string>, changed: () => void) {
  const boxes = new Map<string, HTMLInputElement>();
  const items = languages.map((l) => {
    const box = h("input", { type: "checkbox", value: l.code, checked: chosen.has(l.code), disabled: l.is_base_language });
    boxes.set(l.code, box);
    box.addEventListener("change", () => {
      if (box.checked) chosen.add(l.code);
      else chosen.delete(l.code);
      changed();
    });
    return h("li", { "data-find": `${l.code} ${l.name}`.toLowerCase() }, h("label", { class: "check" }, box, h("code", null, l.code), " ", h("span", { class: "muted" }, l.name), l.is_base_language ? h("span", { class: "badge base" }, "base") : null));
  });
  const find = languages.length > FIND_FROM ? h("input", { type: "search", class: "find", placeholder: "Find a language", "aria-label": "Find a language" }) : null;
  find?.addEventListener("input", () => {
    const q = find.value.trim().toLowerCase();
    for (const li of items) li.hidden = q !== "" && !li.dataset.find!.includes(q);
  });
  const setAll = (on: boolean) => {
    for (const l of languages) {
      if (l.is_base_language) continue;
      if (on) chosen.add(l.code);
      else chosen.delete(l.code);
      boxes.get(l.code)!.checked = on;
    }
    changed();
  };
  return { items, find, setAll };
}

/**
 * A button that opens the list of the project's languages as checkboxes. Every change is reported
 * at once (the grid redraws); Escape, the button or a click elsewhere closes the list and puts the
 * focus back on the button.
 */
export function columnPicker(languages: Language[], initial: string[], onChange: (codes: string[]) => void): ColumnPicker {
  const chosen = new Set(initial);
  const base = languages.find((l) => l.is_base_language);
  if (base) chosen.add(base.code);
  const panelId = uid("langs");
  const button = h("button", { type: "button", class: "picker-button", "aria-expanded": "false", "aria-controls": panelId });
  const { items, find, setAll } = languageChecks(languages, chosen, () => changed());
  const panel = h(
    "div",
    { class: "picker-panel", id: panelId, hidden: true },
    h(
      "fieldset",
      null,
      h("legend", null, "Languages shown in the grid"),
      find,
      h("ul", { class: "picker-list" }, items),
      h(
        "div",
        { class: "actions" },
        h("button", { type: "button", class: "small", onclick: () => setAll(true) }, "All"),
        h("button", { type: "button", class: "small", onclick: () => setAll(false) }, "Base only"),
        h("button", { type: "button", class: "small primary", onclick: () => close() }, "Done"),
      ),
    ),
  );
  const element = h("div", { class: "picker" }, button, panel);

  const shown = () => languages.filter((l) => chosen.has(l.code)).map((l) => l.code);
  const label = () => {
    button.textContent = `Languages: ${chosen.size} of ${languages.length}`;
  };
  function changed() {
    label();
    onChange(shown());
  }
  const outside = (event: MouseEvent) => {
    if (!element.contains(event.target as Node)) close(false);
  };
  function open() {
    panel.hidden = false;
    button.setAttribute("aria-expanded", "true");
    document.addEventListener("mousedown", outside);
    (find ?? panel.querySelector<HTMLInputElement>("input:not([disabled])"))?.focus();
  }
  function close(refocus = true) {
    if (panel.hidden) return;
    panel.hidden = true;
    button.setAttribute("aria-expanded", "false");
    document.removeEventListener("mousedown", outside);
    if (refocus) button.focus();
  }
  button.addEventListener("click", () => (panel.hidden ? open() : close()));
  panel.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      event.preventDefault();
      close();
    }
  });
  label();
  return { element, shown };
}

import type { KeyCountsView } from "../../authoring/key-counts.ts";
import { get, projectPath } from "./api.ts";
import { h, uid } from "./dom.ts";
import type { Language } from "./layout.ts";

/**
 * The key grid's filters (docs/product.md §8, docs/dashboard.md "Filters"): what state the cells
 * of one language are in (missing, translated and not yet approved, approved, with problems),
 * each with how many keys it would show for the current search.
 */
export type { KeyCountsView };
export type StatusFilter = "" | "missing" | "translated" | "approved" | "problems";

export const STATUS_FILTERS: { value: StatusFilter; label: string; count: keyof KeyCountsView; title: string }[] = [
  { value: "", label: "All", count: "total", title: "every key" },
  { value: "missing", label: "Missing", count: "missing", title: "no value yet in this language" },
  { value: "translated", label: "Translated", count: "translated", title: "translated, not yet approved" },
  { value: "approved", label: "Approved", count: "approved", title: "approved" },
  { value: "problems", label: "Problems", count: "problems", title: "the message checks found an error or a warning" },
];

export function isStatusFilter(value: string | null): value is StatusFilter {
  return STATUS_FILTERS.some((f) => f.value === value);
}

/** "missing in French", for the line above the grid. */
export function describeFilter(status: StatusFilter, language: Language): string {
  switch (status) {
    case "":
      return "";
    case "missing":
      return `missing in ${language.name}`;
    case "translated":
      return `translated in ${language.name}, not yet approved`;
    case "approved":
      return `approved in ${language.name}`;
    case "problems":
      return `with problems in ${language.name}`;
  }
}

export function loadCounts(pid: string, language: string, search: string): Promise<KeyCountsView> {
  const qs = new URLSearchParams({ language });
  if (search) qs.set("search", search);
  return get<KeyCountsView>(`${projectPath(pid, "key-counts")}?${qs}`);
}

export interface FilterBar {
  element: HTMLElement;
  set(status: StatusFilter, language: string): void;
  counts(counts: KeyCountsView | null): void;
}

/** A radio group of the states with their counts, and the language they are about. */
export function filterBar(languages: Language[], status: StatusFilter, language: string, onChange: (status: StatusFilter, language: string) => void): FilterBar {
  const name = uid("status");
  const countEls = new Map<string, HTMLElement>();
  const radios = STATUS_FILTERS.map((f) => {
    const radio = h("input", { type: "radio", name, value: f.value, checked: f.value === status });
    const count = h("span", { class: "count" });
    countEls.set(f.value, count);
    radio.addEventListener("change", () => onChange(f.value, select.value));
    return h("label", { class: `chip-radio ${f.value || "all"}`, title: f.title }, radio, h("span", null, f.label), count);
  });
  const select = h(
    "select",
    { class: "filter-language", "aria-label": "Language of the filter" },
    languages.map((l) => h("option", { value: l.code, selected: l.code === language }, `${l.code} · ${l.name}`)),
  );
  const selectId = uid();
  select.id = selectId;
  select.addEventListener("change", () => onChange(current(), select.value));
  const current = (): StatusFilter => (radios.map((r) => r.querySelector("input")!).find((r) => r.checked)?.value ?? "") as StatusFilter;
  const element = h(
    "div",
    { class: "filters" },
    h("fieldset", { class: "status-filter" }, h("legend", { class: "sr-only" }, "Show keys"), radios),
    h("div", { class: "filter-language-field" }, h("label", { for: selectId }, "in"), select),
  );
  return {
    element,
    set(s, l) {
      for (const r of radios) {
        const input = r.querySelector("input")!;
        input.checked = input.value === s;
      }
      select.value = l;
    },
    counts(c) {
      for (const f of STATUS_FILTERS) countEls.get(f.value)!.textContent = c ? c[f.count].toLocaleString() : "";
    },
  };
}

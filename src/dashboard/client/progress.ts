import type { LanguageProgress, ProjectProgress } from "../../authoring/progress.ts";
import { get, projectPath } from "./api.ts";
import { h, plural } from "./dom.ts";
import { problemCounts } from "./problems.ts";

export type { LanguageProgress };
export type Progress = ProjectProgress;

/** Served by src/authoring/progress.ts: counts over every key, not just the visible page. */
export function loadProgress(pid: string): Promise<Progress> {
  return get<Progress>(projectPath(pid, "progress"));
}

function bar(part: number, total: number, kind: string): HTMLElement {
  const el = h("span", { class: `bar-fill ${kind}` });
  el.style.width = `${total ? (100 * part) / total : 0}%`;
  return el;
}

/**
 * One language's progress: a two-tone bar (approved, translated), the numbers, and the message
 * checks' findings; with `missingHref`, the missing count links to the grid filtered to them.
 */
export function progressBar(p: LanguageProgress, total: number, missingHref?: (code: string) => string): HTMLElement {
  const missing = total - p.translated;
  const label = `${p.code}: ${p.translated} of ${total} translated, ${p.approved} approved`;
  return h(
    "div",
    { class: "progress", title: label },
    h("div", { class: "progress-label" }, h("strong", null, p.code), p.is_base_language ? h("span", { class: "badge base" }, "base") : null,
      h("span", { class: "muted" }, `${p.translated}/${total}`)),
    h("div", { class: "bar", role: "img", "aria-label": label }, bar(p.approved, total, "approved"), bar(p.translated - p.approved, total, "translated")),
    h(
      "div",
      { class: "small muted" },
      missing > 0
        ? missingHref
          ? h("a", { class: "missing-text", href: missingHref(p.code), "aria-label": `${plural(missing, "string")} missing in ${p.code}: show them` }, `${plural(missing, "string")} missing`)
          : h("span", { class: "missing-text" }, `${plural(missing, "string")} missing`)
        : "complete",
      ` · ${p.approved} approved`,
    ),
    problemCounts(p.errors, p.warnings),
  );
}

export function progressStrip(progress: Progress, missingHref?: (code: string) => string): HTMLElement {
  const base = progress.languages.filter((l) => l.is_base_language);
  const rest = progress.languages.filter((l) => !l.is_base_language);
  return h("div", { class: "progress-strip", "aria-label": "Progress per language" }, [...base, ...rest].map((l) => progressBar(l, l.total_keys, missingHref)));
}

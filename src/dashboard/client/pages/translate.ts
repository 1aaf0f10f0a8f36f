import { canApprove, canEdit } from "../api.ts";
import { h, plural, uid } from "../dom.ts";
import { describeFilter, isStatusFilter, loadCounts, STATUS_FILTERS, type StatusFilter } from "../key-filters.ts";
import { projectLanguages, projectPage, type Language } from "../layout.ts";
import { MessageChecker } from "../problems.ts";
import { link, navigate, type Ctx } from "../router.ts";
import { empty } from "../ui.ts";
import { loadGlossary, pageHelp, referenceLanguage } from "../translate/help.ts";
import { keyCard, type Walk } from "../translate/key-card.ts";
import { KeyQueue } from "../translate/key-queue.ts";

/**
 * One language, one key at a time, for translators (docs/dashboard.md "Translating one language"):
 * the base text and the key's context beside the translation, keyboard only. Ctrl+Enter saves and
 * moves to the next key of the filter (by default the next missing one), Alt+Down and Alt+Up move
 * without asking (a change is saved first, as the grid saves a cell it leaves), Ctrl+Shift+Enter
 * approves, Escape puts the saved value back. The page is its parts: the bar (language, filter,
 * count), the walk through the keys (translate/key-queue.ts) and one card per key
 * (translate/key-card.ts) with its context column (translate/context-panels.ts).
 */
/** The shortcuts, each with the right it needs in the language (none: moving). */
const SHORTCUTS: [string, string, "edit" | "approve" | null][] = [
  ["Ctrl+Enter", "save and next", "edit"],
  ["Alt+↓", "next", null],
  ["Alt+↑", "previous", null],
  ["Ctrl+Shift+Enter", "approve", "approve"],
  ["Escape", "undo changes", "edit"],
  ["Ctrl+Shift+1…9", "use a suggestion", "edit"],
  ["Ctrl+Shift+0", "copy source", "edit"],
];

/** "Keyboard: …", the shortcuts the role has in the language only (docs/dashboard.md "Roles"). */
function shortcutsLine(code: string): HTMLElement {
  const have = SHORTCUTS.filter(([, , right]) => right === null || (right === "edit" ? canEdit(code) : canApprove(code)));
  return h("p", { class: "muted small shortcuts" }, "Keyboard: ", have.map(([keys, what], i) => [i ? " · " : "", h("kbd", null, keys), ` ${what}`]));
}

interface Choice {
  pid: string;
  languages: Language[];
  target: Language;
  status: StatusFilter;
  q: string;
  /** One more language shown beside the base text (docs/translators.md "Context while translating"). */
  reference: Language | null;
}

/** The page's URL for another language, filter or extra language, with the same search. */
function hereWith(c: Choice, next: { lang?: string; status?: StatusFilter; ref?: string }): string {
  const qs = new URLSearchParams({ lang: next.lang ?? c.target.code, status: next.status ?? c.status });
  if (c.q) qs.set("q", c.q);
  // An empty `ref` is kept: it is "no other language" chosen, remembered over the last choice.
  const ref = next.ref ?? c.reference?.code;
  if (ref !== undefined) qs.set("ref", ref);
  return `/projects/${encodeURIComponent(c.pid)}/translate?${qs}`;
}

/** "Also show": the one more language, any but the base and the one translated. */
function referenceSelect(c: Choice): HTMLElement {
  const others = c.languages.filter((l) => !l.is_base_language && l.code !== c.target.code);
  const select = h("select", { id: uid() }, h("option", { value: "" }, "no other language"), others.map((l) => h("option", { value: l.code, selected: l.code === c.reference?.code }, `${l.code} · ${l.name}`)));
  select.addEventListener("change", () => navigate(hereWith(c, { ref: select.value })));
  return h("div", { class: "field" }, h("label", { for: select.id }, "Also show"), select);
}

/** Language, filter, and how many keys the filter holds (refreshed after each save). */
function translateBar(c: Choice): { element: HTMLElement; refresh: () => Promise<void> } {
  const langSelect = h("select", { id: uid() }, c.languages.map((l) => h("option", { value: l.code, selected: l.code === c.target.code }, `${l.code} · ${l.name}`)));
  langSelect.addEventListener("change", () => navigate(hereWith(c, { lang: langSelect.value })));
  const statusSelect = h("select", { id: uid() }, STATUS_FILTERS.map((f) => h("option", { value: f.value, selected: f.value === c.status }, f.value === "" ? "All keys" : f.label)));
  statusSelect.addEventListener("change", () => navigate(hereWith(c, { status: statusSelect.value as StatusFilter })));
  const remaining = h("p", { class: "muted small", "aria-live": "polite" });
  const refresh = async () => {
    try {
      const counts = await loadCounts(c.pid, c.target.code, c.q);
      const n = counts[STATUS_FILTERS.find((f) => f.value === c.status)!.count];
      remaining.textContent = `${n.toLocaleString()} ${n === 1 ? "key" : "keys"}${c.status ? ` ${describeFilter(c.status, c.target)}` : ""}${c.q ? `${c.status ? "," : ""} matching “${c.q}”` : ""}`;
    } catch {
      // a summary only
    }
  };
  const element = h(
    "div",
    { class: "translate-bar" },
    h("div", { class: "field" }, h("label", { for: langSelect.id }, "Language"), langSelect),
    h("div", { class: "field" }, h("label", { for: statusSelect.id }, "Keys"), statusSelect),
    referenceSelect(c),
    h("div", { class: "translate-meta" }, remaining, link(`/projects/${encodeURIComponent(c.pid)}/keys`, "Back to the key grid")),
  );
  return { element, refresh };
}

/** What the stage says when the filter has no key left ahead. */
function finishedNote(c: Choice, queue: KeyQueue, back: () => void): HTMLElement {
  // Keys passed by with Alt+Down still match: say so, rather than that none is left.
  const skipped = queue.skipped();
  const matching = c.q ? ` matching “${c.q}”` : "";
  const headline =
    skipped > 0
      ? `No more keys ${describeFilter(c.status, c.target)}${matching} ahead: ${plural(skipped, "key")} you passed by ${skipped === 1 ? "is" : "are"} still to do.`
      : c.status === "missing"
        ? `Every key has a ${c.target.name} translation${c.q ? ` among those${matching}` : ""}.`
        : `No more keys ${describeFilter(c.status, c.target) || "to show"}${matching}.`;
  return empty(
    headline,
    h(
      "p",
      null,
      link(`/projects/${encodeURIComponent(c.pid)}/keys`, "Back to the key grid"),
      skipped > 0 ? [" · ", h("button", { type: "button", class: "link", onclick: () => navigate(hereWith(c, {}), { replace: true }) }, "Go through them again")] : null,
      queue.index >= 0 ? [" · ", h("button", { type: "button", class: "link", onclick: back }, "Previous key")] : null,
    ),
  );
}

/** The language, filter and search the URL asks for. */
async function choiceOf(ctx: Ctx, pid: string): Promise<Choice> {
  const languages = await projectLanguages(pid);
  const base = languages.find((l) => l.is_base_language) ?? languages[0]!;
  const wanted = ctx.query.get("lang")?.toLowerCase();
  const target = languages.find((l) => l.code.toLowerCase() === wanted) ?? languages.find((l) => !l.is_base_language) ?? base;
  const rawStatus = ctx.query.get("status") ?? "missing";
  const reference = referenceLanguage(pid, languages, target, ctx.query.get("ref"));
  return { pid, languages, target, status: isStatusFilter(rawStatus) ? rawStatus : "missing", q: ctx.query.get("q") ?? "", reference };
}

export function translatePage(ctx: Ctx) {
  const pid = ctx.params.pid!;
  return projectPage(pid, "keys", "Translate", async (project) => {
    const c = await choiceOf(ctx, pid);
    const base = c.languages.find((l) => l.is_base_language) ?? c.languages[0]!;
    const queue = new KeyQueue(pid, [...new Set([base.code, c.target.code, ...(c.reference ? [c.reference.code] : [])])], c.target.code, c.status, c.q);
    const glossary = await loadGlossary(pid);
    const checker = new MessageChecker(project.message_syntax, c.languages);
    checker.glossary = glossary;
    const bar = translateBar(c);
    const stage = h("div", { class: "translate-stage" });
    const announce = h("p", { class: "sr-only", "aria-live": "polite" });
    const show = (item: Parameters<typeof keyCard>[1] | null) => {
      if (!item) {
        stage.replaceChildren(finishedNote(c, queue, walk.back));
        announce.textContent = "No more keys in this filter.";
        return;
      }
      const card = keyCard(walk, item);
      stage.replaceChildren(card.element);
      announce.textContent = `${item.key}${item.translations[c.target.code] ? "" : ", missing"}`;
      // The first key is drawn before the page is on screen: the page's [autofocus] gets the focus then.
      card.element.querySelector(".run, textarea:not([hidden])")?.setAttribute("autofocus", "");
      card.focus();
    };
    const walk: Walk = {
      pid,
      base,
      target: c.target,
      checker,
      forward: async () => show(await queue.next()),
      back: () => {
        const item = queue.previous();
        if (item) show(item);
      },
      atFirst: () => queue.index === 0,
      saved: () => void bar.refresh(),
      historyOpen: false,
      help: pageHelp(glossary, c.reference),
    };
    void bar.refresh();
    await walk.forward();
    return [
      bar.element,
      shortcutsLine(c.target.code),
      announce,
      stage,
    ];
  });
}

import { get, post, projectPath, put, type PageInfo } from "../api.ts";
import { h, plural, uid, type Child } from "../dom.ts";
import { historyPanel, type TranslationView } from "../history.ts";
import { describeFilter, isStatusFilter, loadCounts, STATUS_FILTERS, type StatusFilter } from "../key-filters.ts";
import type { KeyItem } from "../key-grid.ts";
import { projectLanguages, projectPage, type Language } from "../layout.ts";
import { messageEditor, pieces } from "../message-editor.ts";
import { readForms, readText, type Part } from "../message-forms.ts";
import { notTranslatableMark, placeholderNotes } from "../placeholder-notes.ts";
import { MessageChecker, problemList, type MessageProblem } from "../problems.ts";
import { link, navigate, type Ctx } from "../router.ts";
import { badge, empty, message } from "../ui.ts";

/**
 * One language, one key at a time, for translators (docs/dashboard.md "Translating one language"):
 * the base text and the key's context beside the translation, keyboard only. Ctrl+Enter saves and
 * moves to the next key of the filter (by default the next missing one), Alt+Down and Alt+Up move
 * without asking (a change is saved first, as the grid saves a cell it leaves), Ctrl+Shift+Enter
 * approves, Escape puts the saved value back.
 */
const BATCH = 25;

type Cell = KeyItem["translations"][string];

/** Whether a key still belongs to the filter once its value in the language is `cell`. */
function matches(status: StatusFilter, cell: Cell | undefined): boolean {
  switch (status) {
    case "":
      return true;
    case "missing":
      return cell === undefined;
    case "translated":
      return cell?.status === "translated";
    case "approved":
      return cell?.status === "approved";
    case "problems":
      return (cell?.problems.length ?? 0) > 0;
  }
}

/**
 * The keys of the filter in key order, fetched a batch at a time. Saving takes a key out of
 * "missing", so the next batch starts after the keys seen that still match, never skipping one.
 */
class KeyQueue {
  readonly items: KeyItem[] = [];
  index = -1;
  private readonly seen = new Set<string>();
  private done = false;

  constructor(
    private readonly pid: string,
    private readonly codes: string[],
    private readonly lang: string,
    private readonly status: StatusFilter,
    private readonly q: string,
  ) {}

  private async fetchMore(): Promise<void> {
    const stillIn = this.items.filter((item) => matches(this.status, item.translations[this.lang])).length;
    for (let page = Math.floor(stillIn / BATCH) + 1; ; page++) {
      const qs = new URLSearchParams({ page: String(page), page_size: String(BATCH), languages: this.codes.join(",") });
      if (this.q) qs.set("search", this.q);
      if (this.status) {
        qs.set("status", this.status);
        qs.set("language", this.lang);
      }
      const reply = await get<{ items: KeyItem[]; page_info: PageInfo }>(`${projectPath(this.pid, "keys")}?${qs}`);
      const fresh = reply.items.filter((item) => !this.seen.has(item.id));
      for (const item of fresh) {
        this.seen.add(item.id);
        this.items.push(item);
      }
      if (fresh.length > 0) return;
      if (page >= reply.page_info.total_pages) {
        this.done = true;
        return;
      }
    }
  }

  /** The next key, or null when the filter has no key left that was not shown. */
  async next(): Promise<KeyItem | null> {
    if (this.index + 1 >= this.items.length && !this.done) await this.fetchMore();
    if (this.index + 1 >= this.items.length) return null;
    return this.items[++this.index]!;
  }

  previous(): KeyItem | null {
    if (this.index <= 0) return null;
    return this.items[--this.index]!;
  }
}

/** The base text as it reads: text with placeholder chips, a plural or select as its cases. */
function showParts(parts: Part[], lang: string): Child[] {
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

const SHORTCUTS: [string, string][] = [
  ["Ctrl+Enter", "save and next"],
  ["Alt+↓", "next"],
  ["Alt+↑", "previous"],
  ["Ctrl+Shift+Enter", "approve"],
  ["Escape", "undo changes"],
];

export function translatePage(ctx: Ctx) {
  const pid = ctx.params.pid!;
  return projectPage(pid, "keys", "Translate", async (project) => {
    const languages = await projectLanguages(pid);
    const base = languages.find((l) => l.is_base_language) ?? languages[0]!;
    const wanted = ctx.query.get("lang")?.toLowerCase();
    const target: Language = languages.find((l) => l.code.toLowerCase() === wanted) ?? languages.find((l) => !l.is_base_language) ?? base;
    const rawStatus = ctx.query.get("status") ?? "missing";
    const status: StatusFilter = isStatusFilter(rawStatus) ? rawStatus : "missing";
    const q = ctx.query.get("q") ?? "";
    const checker = new MessageChecker(project.message_syntax, languages);
    const queue = new KeyQueue(pid, [...new Set([base.code, target.code])], target.code, status, q);
    const here = (next: { lang?: string; status?: StatusFilter }) => {
      const qs = new URLSearchParams({ lang: next.lang ?? target.code, status: next.status ?? status });
      if (q) qs.set("q", q);
      return `/projects/${encodeURIComponent(pid)}/translate?${qs}`;
    };

    const langSelect = h("select", { id: uid() }, languages.map((l) => h("option", { value: l.code, selected: l.code === target.code }, `${l.code} · ${l.name}`)));
    langSelect.addEventListener("change", () => navigate(here({ lang: langSelect.value })));
    const statusSelect = h("select", { id: uid() }, STATUS_FILTERS.map((f) => h("option", { value: f.value, selected: f.value === status }, f.value === "" ? "All keys" : f.label)));
    statusSelect.addEventListener("change", () => navigate(here({ status: statusSelect.value as StatusFilter })));
    const remaining = h("p", { class: "muted small", "aria-live": "polite" });
    const refreshRemaining = async () => {
      try {
        const counts = await loadCounts(pid, target.code, q);
        const n = counts[STATUS_FILTERS.find((f) => f.value === status)!.count];
        remaining.textContent = `${n.toLocaleString()} ${n === 1 ? "key" : "keys"}${status ? ` ${describeFilter(status, target)}` : ""}${q ? `${status ? "," : ""} matching “${q}”` : ""}`;
      } catch {
        // a summary only
      }
    };

    const stage = h("div", { class: "translate-stage" });
    const announce = h("p", { class: "sr-only", "aria-live": "polite" });
    let historyOpen = false;
    let showKey: (item: KeyItem) => void;

    const finished = () => {
      // Keys passed by with Alt+Down still match: say so, rather than that none is left.
      const skipped = status === "" ? 0 : queue.items.filter((item) => matches(status, item.translations[target.code])).length;
      const matching = q ? ` matching “${q}”` : "";
      const headline =
        skipped > 0
          ? `No more keys ${describeFilter(status, target)}${matching} ahead: ${plural(skipped, "key")} you passed by ${skipped === 1 ? "is" : "are"} still to do.`
          : status === "missing"
            ? `Every key has a ${target.name} translation${q ? ` among those${matching}` : ""}.`
            : `No more keys ${describeFilter(status, target) || "to show"}${matching}.`;
      stage.replaceChildren(
        empty(
          headline,
          h(
            "p",
            null,
            link(`/projects/${encodeURIComponent(pid)}/keys`, "Back to the key grid"),
            skipped > 0 ? [" · ", h("button", { type: "button", class: "link", onclick: () => navigate(here({}), { replace: true }) }, "Go through them again")] : null,
            queue.index >= 0 ? [" · ", h("button", { type: "button", class: "link", onclick: () => back() }, "Previous key")] : null,
          ),
        ),
      );
      announce.textContent = "No more keys in this filter.";
    };

    /** Moves on, and shows the next key of the filter or says none is left. */
    const forward = async () => {
      const item = await queue.next();
      if (item) showKey(item);
      else finished();
    };
    const back = () => {
      const item = queue.previous();
      if (item) showKey(item);
    };

    showKey = (item: KeyItem) => {
      let cell: Cell | undefined = item.translations[target.code];
      let saved = cell?.value ?? "";
      const baseValue = target.is_base_language ? null : (item.translations[base.code]?.value ?? null);
      const label = `${target.code} translation of ${item.key}`;
      const found = h("div", { class: "cell-problems", "aria-live": "polite", "aria-label": `Problems in ${label}` });
      const showProblems = (list: readonly MessageProblem[]) => found.replaceChildren(problemList(list) ?? "");
      let checkTimer: ReturnType<typeof setTimeout> | undefined;
      const editor = messageEditor({
        value: saved,
        base: baseValue,
        code: target.code,
        languageName: target.name,
        syntax: checker.syntax,
        catalog: checker.catalog,
        label,
        onInput: () => {
          clearTimeout(checkTimer);
          checkTimer = setTimeout(() => {
            const value = editor.value();
            showProblems(value === "" ? [] : checker.check(value, target.code, baseValue));
          }, 150);
          statusLine();
        },
      });
      showProblems(cell?.problems ?? []);
      const note = h("span", { class: "cell-note", role: "status" });
      const statusEl = h("span", null);
      const statusLine = () => {
        const dirty = editor.value() !== saved;
        statusEl.replaceChildren(cell === undefined ? badge("missing", "missing") : badge(cell.status, cell.status), ...(dirty ? [h("span", { class: "muted small" }, " · unsaved changes")] : []));
        approveButton.disabled = cell === undefined && !dirty;
      };

      const save = async (): Promise<boolean> => {
        const value = editor.value();
        if (value === saved || (cell === undefined && value === "")) return true;
        note.className = "cell-note";
        note.textContent = "Saving…";
        try {
          const reply = await put<TranslationView>(projectPath(pid, "keys", item.id, "translations", target.code), { value });
          applyReply(reply);
          note.textContent = "Saved";
          return true;
        } catch (err) {
          note.className = "cell-note error";
          note.textContent = message(err);
          return false;
        }
      };
      const applyReply = (reply: TranslationView) => {
        cell = { value: reply.value, status: reply.status, problems: reply.problems };
        item.translations[target.code] = cell;
        saved = reply.value;
        if (editor.value() !== saved) editor.reset(saved);
        showProblems(reply.problems);
        statusLine();
        void refreshRemaining();
      };
      let busy = false;
      /** Runs one step at a time: a second Ctrl+Enter waits for the first to finish. */
      const step = async (action: () => Promise<void>) => {
        if (busy) return;
        busy = true;
        try {
          await action();
        } catch (err) {
          // The next batch of keys could not be read: say so here, and stay on this key.
          note.className = "cell-note error";
          note.textContent = message(err);
        } finally {
          busy = false;
        }
      };
      const saveAndNext = () => step(async () => void ((await save()) && (await forward())));
      const next = () => step(async () => void ((await save()) && (await forward())));
      const previous = () => step(async () => void ((await save()) && back()));
      const approve = () =>
        step(async () => {
          if (!(await save()) || cell === undefined) return;
          try {
            if (cell.status !== "approved") applyReply(await post<TranslationView>(projectPath(pid, "keys", item.id, "translations", target.code, "approve")));
            await forward();
          } catch (err) {
            note.className = "cell-note error";
            note.textContent = message(err);
          }
        });
      const approveButton = h("button", { type: "button", class: "approve", onclick: () => void approve() }, "Approve", h("kbd", null, "Ctrl+Shift+Enter"));

      const history = h("details", { class: "history-box", open: historyOpen }, h("summary", null, "History of this translation"));
      let historyLoaded = false;
      const loadHistory = () => {
        if (historyLoaded) return;
        historyLoaded = true;
        const panel = historyPanel({ pid, keyId: item.id, keyName: item.key, only: target.code, current: () => saved, restored: applyReply });
        history.append(panel.element);
      };
      history.addEventListener("toggle", () => {
        historyOpen = history.open;
        if (history.open) loadHistory();
      });
      if (historyOpen) loadHistory();

      const baseParts = baseValue === null ? null : checker.syntax === "text" ? readText(baseValue) : readForms(baseValue);
      const headingId = uid("key");
      const card = h(
        "section",
        { class: "translate card", "aria-labelledby": headingId },
        h("div", { class: "translate-head" }, h("h2", { id: headingId }, h("code", { class: "key" }, item.key), notTranslatableMark(item)), statusEl),
        h(
          "div",
          { class: "side-by-side" },
          h(
            "div",
            { class: "source" },
            h("h3", null, base.name, " ", badge("base", "base")),
            target.is_base_language
              ? h("p", { class: "muted small" }, "You are editing the base language itself.")
              : baseValue === null
                ? h("p", { class: "muted" }, "No base text yet.")
                : h("div", { class: "base-text", lang: base.code }, baseParts ? showParts(baseParts, base.code) : baseValue),
            item.context ? h("div", { class: "context-box" }, h("h3", null, "Context"), h("p", { class: "context" }, item.context)) : null,
            placeholderNotes(item),
          ),
          h("div", { class: "target" }, h("h3", null, target.name, " ", h("code", { class: "muted small" }, target.code)), editor.element, found),
        ),
        h(
          "div",
          { class: "actions translate-actions" },
          h("button", { type: "button", onclick: () => void previous(), disabled: queue.index === 0 }, "Previous", h("kbd", null, "Alt+↑")),
          h("button", { type: "button", onclick: () => void next() }, "Next", h("kbd", null, "Alt+↓")),
          approveButton,
          h("button", { type: "button", class: "primary", onclick: () => void saveAndNext() }, "Save and next", h("kbd", null, "Ctrl+Enter")),
          note,
        ),
        history,
      );
      card.addEventListener("keydown", (event) => {
        const ctrl = event.ctrlKey || event.metaKey;
        let action: (() => unknown) | null = null;
        if (event.key === "Enter" && ctrl && event.shiftKey) action = approve;
        else if (event.key === "Enter" && ctrl) action = saveAndNext;
        else if (event.key === "ArrowDown" && event.altKey) action = next;
        else if (event.key === "ArrowUp" && event.altKey) action = previous;
        else if (event.key === "Escape" && editor.value() !== saved) {
          action = () => {
            editor.reset(saved);
            showProblems(cell?.problems ?? []);
            statusLine();
            editor.focus();
          };
        }
        if (!action) return;
        event.preventDefault();
        void action();
      });
      statusLine();
      stage.replaceChildren(card);
      announce.textContent = `${item.key}${cell ? "" : ", missing"}`;
      // The first key is drawn before the page is on screen: the page's [autofocus] gets the focus then.
      editor.element.querySelector(".run, textarea:not([hidden])")?.setAttribute("autofocus", "");
      editor.focus();
    };

    void refreshRemaining();
    const first = await queue.next();
    if (first) showKey(first);
    else finished();
    return [
      h(
        "div",
        { class: "translate-bar" },
        h("div", { class: "field" }, h("label", { for: langSelect.id }, "Language"), langSelect),
        h("div", { class: "field" }, h("label", { for: statusSelect.id }, "Keys"), statusSelect),
        h("div", { class: "translate-meta" }, remaining, link(`/projects/${encodeURIComponent(pid)}/keys`, "Back to the key grid")),
      ),
      h("p", { class: "muted small shortcuts" }, "Keyboard: ", SHORTCUTS.map(([keys, what], i) => [i ? " · " : "", h("kbd", null, keys), ` ${what}`])),
      announce,
      stage,
    ];
  });
}

import { get, post, projectPath, type PageInfo } from "../api.ts";
import { fill, h, plural } from "../dom.ts";
import { formatNames, importFormats } from "../formats.ts";
import { describeFilter, filterBar, isStatusFilter, loadCounts, type StatusFilter } from "../key-filters.ts";
import { keyGrid, keyRow, type GridOptions, type KeyItem } from "../key-grid.ts";
import { columnPicker, loadShownLanguages, saveShownLanguages } from "../language-columns.ts";
import { projectLanguages, projectPage, type Language } from "../layout.ts";
import { loadProgress, progressStrip, type Progress } from "../progress.ts";
import { MessageChecker } from "../problems.ts";
import { href, link, onQueryChange, setQuery, type Ctx } from "../router.ts";
import { empty, errorBox, field, form, input, loadError, showError } from "../ui.ts";
import { CONTEXT_MAX_LENGTH, KEY_MAX_LENGTH } from "../../../authoring/limits.ts";

/**
 * The key grid (docs/dashboard.md "The key grid"): search, filters by the state of one language
 * with counts, the languages shown (remembered per user and project), paging, inline editing and
 * per-language progress. The search, the filter, its language and the page live in the URL
 * (`?q=&status=&lang=&page=`): a link shares them, and the back button steps through them.
 */
export const KEYS_PAGE_SIZE = 50;
const SEARCH_DELAY_MS = 250;
/** A choice of languages is saved once the checkboxes rest this long. */
const SAVE_COLUMNS_DELAY_MS = 400;

interface GridState {
  q: string;
  status: StatusFilter;
  /** The language the filter (and its counts) are about. */
  lang: string;
  page: number;
}

type KeyList = { items: KeyItem[]; page_info: PageInfo };

/**
 * The state a URL asks for, its `lang` matched among `codes` in any letter case; a `lang` that is
 * none of them is the default, or with `strict` makes the answer null.
 */
function stateOf(query: URLSearchParams, codes: string[], defaultLang: string, strict = false): GridState | null {
  const status = query.get("status");
  const wanted = query.get("lang")?.toLowerCase();
  const lang = wanted === undefined ? defaultLang : (codes.find((code) => code.toLowerCase() === wanted) ?? (strict ? undefined : defaultLang));
  if (lang === undefined) return null;
  return { q: query.get("q") ?? "", status: isStatusFilter(status) ? status : "", lang, page: Math.max(1, Math.floor(Number(query.get("page"))) || 1) };
}

/** The key list's query for a state and the columns shown. */
function keyListQuery(state: GridState, columns: string[]): string {
  const qs = new URLSearchParams({ page: String(state.page), page_size: String(KEYS_PAGE_SIZE), languages: columns.join(",") });
  if (state.q) qs.set("search", state.q);
  if (state.status) {
    qs.set("status", state.status);
    qs.set("language", state.lang);
  }
  return qs.toString();
}

export function keysPage(ctx: Ctx) {
  const pid = ctx.params.pid!;
  // Asked for together with the project, and the first page of keys as soon as the user's
  // languages are known (they are the columns): the rows do not wait for the project.
  const ready = Promise.all([projectLanguages(pid), loadShownLanguages(pid)]);
  ready.catch(() => {}); // a failure is reported where it is awaited
  let early: Promise<{ qs: string; reply: KeyList } | null> | null = ready.then(
    async ([, preferences]) => {
      const shownCodes = preferences.languages;
      const first = stateOf(ctx.query, shownCodes, shownCodes[1] ?? shownCodes[0]!, true);
      if (!first) return null; // a filter on a language not shown: asked for once the languages are in
      const qs = keyListQuery(first, shownCodes);
      return { qs, reply: await get<KeyList>(`${projectPath(pid, "keys")}?${qs}`) };
    },
    () => null,
  ).catch(() => null); // the grid asks again, and reports a failure where it shows
  return projectPage(pid, "keys", "Keys", async (project) => {
    const [languages, preferences] = await ready;
    const base = languages.find((l) => l.is_base_language) ?? languages[0]!;
    let shown = preferences.languages.filter((code) => languages.some((l) => l.code === code));
    const languageOf = (code: string) => languages.find((l) => l.code === code) ?? base;
    const defaultLang = () => shown.find((code) => code !== base.code) ?? base.code;

    const readState = (query: URLSearchParams): GridState => stateOf(query, languages.map((l) => l.code), defaultLang())!;
    let state = readState(ctx.query);
    /** The grid's columns: the languages chosen, and the one a filter is about. */
    const columns = (): Language[] => languages.filter((l) => shown.includes(l.code) || (state.status !== "" && l.code === state.lang));

    const progressBox = h("div", { class: "progress-area" });
    const gridBox = h("div", { class: "grid-area", "aria-live": "polite", "aria-busy": "false" });
    const summary = h("p", { class: "muted small summary", "aria-live": "polite" });
    const checker = new MessageChecker(project.message_syntax, languages);

    let progress: Progress | null = null;
    const showProgress = () => {
      if (!progress) return;
      const cols = columns().map((l) => l.code);
      fill(progressBox, progressStrip({ ...progress, languages: progress.languages.filter((l) => cols.includes(l.code)) }, (code) => href(`/projects/${encodeURIComponent(pid)}/keys?status=missing&lang=${encodeURIComponent(code)}`)));
    };
    let countsTicket = 0;
    const refreshCounts = async () => {
      const ticket = ++countsTicket;
      try {
        const counts = await loadCounts(pid, state.lang, state.q);
        if (ticket === countsTicket) filters.counts(counts);
      } catch {
        // the counts are a summary; the grid works without them
      }
    };
    let refreshTimer: ReturnType<typeof setTimeout> | undefined;
    /** After an edit: progress and counts move (both are summaries, fetched a moment later). */
    const refreshSummaries = () => {
      clearTimeout(refreshTimer);
      refreshTimer = setTimeout(async () => {
        void refreshCounts();
        try {
          progress = await loadProgress(pid);
          showProgress();
        } catch {
          // progress is a summary; the grid still works without a fresh one
        }
      }, 150);
    };

    const gridOptions = (): GridOptions => ({ pid, languages: columns(), changed: refreshSummaries, reload: () => void loadGrid(), checker });

    const pager = (info: PageInfo) => {
      if (info.total_pages <= 1) return null;
      const go = (to: number) => () => apply({ ...state, page: to }, "push");
      return h(
        "nav",
        { class: "pager", "aria-label": "Pages" },
        h("button", { type: "button", onclick: go(state.page - 1), disabled: state.page <= 1 }, "‹ Previous"),
        h("span", null, `Page ${info.page} of ${info.total_pages}`),
        h("button", { type: "button", onclick: go(state.page + 1), disabled: state.page >= info.total_pages }, "Next ›"),
      );
    };

    const describe = (total: number, atLeast = false) => {
      const filter = describeFilter(state.status, languageOf(state.lang));
      // A one- or two-character search counts its matches only so far (docs/dashboard.md "Speed").
      if (state.q) return `${atLeast ? "At least " : ""}${plural(total, "key")} match “${state.q}”${filter ? `, ${filter}` : ""}`;
      return `${plural(total, "key")}${filter ? ` ${filter}` : ""}`;
    };

    const nothingFound = (): HTMLElement => {
      if (state.status !== "" || state.q) {
        const what = state.q && state.status === "" ? `No key matches “${state.q}”.` : `No key is ${describeFilter(state.status, languageOf(state.lang))}${state.q ? ` and matches “${state.q}”` : ""}.`;
        return empty(
          what,
          state.q ? h("p", null, "Search looks in key names, contexts and translations.") : null,
          h("button", { type: "button", onclick: () => apply({ ...state, q: "", status: "", page: 1 }, "push") }, "Show all keys"),
        );
      }
      return empty("No keys yet.", h("p", null, "Add your first key above, or ", link(`/projects/${encodeURIComponent(pid)}/import`, `import a ${formatNames(importFormats(), "or")} file`), "."));
    };

    let loadTicket = 0;
    async function loadGrid(): Promise<void> {
      const ticket = ++loadTicket;
      if (location.pathname !== ctx.path) return; // the user has moved on to another page
      gridBox.setAttribute("aria-busy", "true");
      try {
        const qs = keyListQuery(state, columns().map((l) => l.code));
        const prefetched = early && (await early);
        early = null;
        const reply = prefetched?.qs === qs ? prefetched.reply : await get<KeyList>(`${projectPath(pid, "keys")}?${qs}`);
        if (ticket !== loadTicket) return;
        const info = reply.page_info;
        if (reply.items.length === 0 && state.page > 1 && info.total_pages > 0) {
          state = { ...state, page: info.total_pages };
          writeUrl("replace");
          return loadGrid();
        }
        summary.textContent = describe(info.total_count, info.total_at_least === true);
        fill(gridBox, reply.items.length === 0 ? nothingFound() : keyGrid(reply.items, gridOptions(), pager(info)));
        // The editor benchmark (bench/editor.bench.sh) times the grid up to here.
        performance.clearMarks("keys-grid");
        performance.mark("keys-grid");
      } catch (err) {
        if (ticket === loadTicket) fill(gridBox, loadError(err, () => void loadGrid()));
      } finally {
        if (ticket === loadTicket) gridBox.setAttribute("aria-busy", "false");
      }
    }

    const writeUrl = (how: "push" | "replace") =>
      setQuery({ q: state.q || null, status: state.status || null, lang: state.status !== "" || state.lang !== defaultLang() ? state.lang : null, page: state.page }, { push: how === "push" });

    /** A search typed in several bursts is one step back, not one per burst. */
    let searchStepOpen = false;
    /** Moves the grid to `next`: the URL (a new history entry, or the same one), the controls, the rows, the counts. */
    async function apply(next: GridState, how: "push" | "replace" | "none"): Promise<void> {
      const countsMove = next.q !== state.q || next.lang !== state.lang;
      const columnsMove = next.status !== state.status || next.lang !== state.lang;
      state = next;
      if (how !== "none") writeUrl(how);
      filters.set(state.status, state.lang);
      if (searchBox.value.trim() !== state.q) searchBox.value = state.q;
      translateLink.replaceWith((translateLink = translateButton()));
      await loadGrid();
      if (columnsMove) showProgress();
      if (countsMove) void refreshCounts();
    }

    const filters = filterBar(languages, state.status, state.lang, (status, lang) => {
      searchStepOpen = false;
      void apply({ ...state, status, lang, page: 1 }, "push");
    });

    let searchTimer: ReturnType<typeof setTimeout> | undefined;
    const searchBox = input({ type: "search", name: "search", value: state.q, placeholder: "Search keys, context, translations", "aria-label": "Search keys" });
    const search = () => {
      clearTimeout(searchTimer);
      const q = searchBox.value.trim();
      if (q === state.q) return;
      const how = searchStepOpen ? "replace" : "push";
      searchStepOpen = true;
      void apply({ ...state, q, page: 1 }, how);
    };
    searchBox.addEventListener("input", () => {
      clearTimeout(searchTimer);
      searchTimer = setTimeout(search, SEARCH_DELAY_MS);
    });
    searchBox.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        search();
      }
    });

    let saveTimer: ReturnType<typeof setTimeout> | undefined;
    const picker = columnPicker(languages, shown, (codes) => {
      shown = codes;
      void loadGrid();
      showProgress();
      clearTimeout(saveTimer);
      saveTimer = setTimeout(() => void saveShownLanguages(pid, codes).catch((err) => showError(addError, err)), SAVE_COLUMNS_DELAY_MS);
    });

    const translateButton = () => {
      const lang = state.lang === base.code ? (languages.find((l) => !l.is_base_language)?.code ?? base.code) : state.lang;
      const qs = new URLSearchParams({ lang, status: state.status || "missing" });
      if (state.q) qs.set("q", state.q);
      const a = link(`/projects/${encodeURIComponent(pid)}/translate?${qs}`, `Translate ${languageOf(lang).name} one by one`);
      a.classList.add("button-link");
      return a;
    };
    let translateLink = translateButton();

    // Back and forward between two states of this page: redraw the grid, not the page.
    onQueryChange((query) => {
      searchStepOpen = false;
      void apply(readState(query), "none");
    });

    const addError = errorBox();
    const addForm = form(
      {
        submit: "Add key",
        class: "row-form",
        label: "Add a key",
        onSubmit: async (data, formEl) => {
          const item = await post<KeyItem>(projectPath(pid, "keys"), data.context ? { key: data.key, context: data.context } : { key: data.key });
          formEl.reset();
          // Show the new key at the top of the grid, ready to translate, without losing the page.
          let tbody = gridBox.querySelector("tbody");
          if (!tbody) {
            fill(gridBox, keyGrid([], gridOptions()));
            tbody = gridBox.querySelector("tbody")!;
          }
          const row = keyRow(item, gridOptions());
          row.classList.add("new-row");
          tbody.prepend(row);
          row.querySelector<HTMLTextAreaElement>("textarea")?.focus();
          refreshSummaries();
        },
      },
      field("New key", input({ name: "key", required: true, maxlength: KEY_MAX_LENGTH, class: "mono", placeholder: "e.g. checkout.pay_button" })),
      field("Context (optional)", input({ name: "context", maxlength: CONTEXT_MAX_LENGTH, placeholder: "Where the string appears" })),
    );

    writeUrl("replace");
    await loadGrid().catch((err) => showError(addError, err));
    // The summaries after the grid: its rows come first.
    refreshSummaries();
    return [
      progressBox,
      languages.length === 1
        ? h("p", { class: "note" }, "Only the base language so far. ", link(`/projects/${encodeURIComponent(project.id)}/languages`, "Add a language"), " to translate into.")
        : null,
      h("div", { class: "toolbar card" }, addForm, addError),
      h(
        "div",
        { class: "search-row", role: "search" },
        searchBox,
        picker.element,
        languages.length > 1 ? translateLink : null,
        link(`/projects/${encodeURIComponent(pid)}/import`, "Import file…"),
      ),
      filters.element,
      summary,
      gridBox,
    ];
  });
}

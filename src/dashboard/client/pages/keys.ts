import { can, canEdit, get, post, projectPath, type PageInfo } from "../api.ts";
import { fill, h, plural } from "../dom.ts";
import { formatNames, importFormats } from "../formats.ts";
import { describeFilter, filterBar, isStatusFilter, loadCounts, type FilterBar, type StatusFilter } from "../key-filters.ts";
import { keyGrid, keyRow, type GridOptions, type KeyItem } from "../key-grid.ts";
import { columnPicker, loadShownLanguages, saveShownLanguages } from "../language-columns.ts";
import { projectLanguages, projectPage, type Language, type Project } from "../layout.ts";
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

type Prefetch = Promise<{ qs: string; reply: KeyList } | null> | null;

/**
 * The key list's first page, asked for as soon as the user's languages are known (they are the
 * columns), together with the project: the rows do not wait for it.
 */
function prefetchFirstPage(ctx: Ctx, pid: string, ready: Promise<[Language[], { languages: string[] }]>): Prefetch {
  return ready
    .then(
      async ([, preferences]) => {
        const shownCodes = preferences.languages;
        const first = stateOf(ctx.query, shownCodes, shownCodes[1] ?? shownCodes[0]!, true);
        if (!first) return null; // a filter on a language not shown: asked for once the languages are in
        const qs = keyListQuery(first, shownCodes);
        return { qs, reply: await get<KeyList>(`${projectPath(pid, "keys")}?${qs}`) };
      },
      () => null,
    )
    .catch(() => null); // the grid asks again, and reports a failure where it shows
}

/** The grid page's state and parts; each method draws or moves one of them. */
class KeysView {
  readonly base: Language;
  shown: string[];
  state: GridState;
  progress: Progress | null = null;
  readonly progressBox = h("div", { class: "progress-area" });
  readonly gridBox = h("div", { class: "grid-area", "aria-live": "polite", "aria-busy": "false" });
  readonly summary = h("p", { class: "muted small summary", "aria-live": "polite" });
  readonly addError = errorBox();
  readonly checker: MessageChecker;
  readonly filters: FilterBar;
  readonly searchBox: HTMLInputElement;
  translateLink: HTMLElement;
  private countsTicket = 0;
  private loadTicket = 0;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  /** A search typed in several bursts is one step back, not one per burst. */
  searchStepOpen = false;

  constructor(
    readonly ctx: Ctx,
    readonly pid: string,
    readonly project: Project,
    readonly languages: Language[],
    preferences: { languages: string[] },
    private early: Prefetch,
  ) {
    this.base = languages.find((l) => l.is_base_language) ?? languages[0]!;
    this.shown = preferences.languages.filter((code) => languages.some((l) => l.code === code));
    this.state = this.readState(ctx.query);
    this.checker = new MessageChecker(project.message_syntax, languages);
    this.filters = filterBar(languages, this.state.status, this.state.lang, (status, lang) => {
      this.searchStepOpen = false;
      void this.apply({ ...this.state, status, lang, page: 1 }, "push");
    });
    this.searchBox = searchField(this);
    this.translateLink = this.translateButton();
  }

  languageOf = (code: string) => this.languages.find((l) => l.code === code) ?? this.base;
  defaultLang = () => this.shown.find((code) => code !== this.base.code) ?? this.base.code;
  readState = (query: URLSearchParams): GridState => stateOf(query, this.languages.map((l) => l.code), this.defaultLang())!;
  /** The grid's columns: the languages chosen, and the one a filter is about. */
  columns = (): Language[] => this.languages.filter((l) => this.shown.includes(l.code) || (this.state.status !== "" && l.code === this.state.lang));
  gridOptions = (): GridOptions => ({ pid: this.pid, languages: this.columns(), changed: this.refreshSummaries, reload: () => void this.loadGrid(), checker: this.checker });

  showProgress = () => {
    if (!this.progress) return;
    const cols = this.columns().map((l) => l.code);
    fill(this.progressBox, progressStrip({ ...this.progress, languages: this.progress.languages.filter((l) => cols.includes(l.code)) }, (code) => href(`/projects/${encodeURIComponent(this.pid)}/keys?status=missing&lang=${encodeURIComponent(code)}`)));
  };

  refreshCounts = async () => {
    const ticket = ++this.countsTicket;
    try {
      const counts = await loadCounts(this.pid, this.state.lang, this.state.q);
      if (ticket === this.countsTicket) this.filters.counts(counts);
    } catch {
      // the counts are a summary; the grid works without them
    }
  };

  /** After an edit: progress and counts move (both are summaries, fetched a moment later). */
  refreshSummaries = () => {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(async () => {
      void this.refreshCounts();
      try {
        this.progress = await loadProgress(this.pid);
        this.showProgress();
      } catch {
        // progress is a summary; the grid still works without a fresh one
      }
    }, 150);
  };

  pager(info: PageInfo): HTMLElement | null {
    if (info.total_pages <= 1) return null;
    const page = this.state.page;
    const go = (to: number) => () => this.apply({ ...this.state, page: to }, "push");
    return h(
      "nav",
      { class: "pager", "aria-label": "Pages" },
      h("button", { type: "button", onclick: go(page - 1), disabled: page <= 1 }, "‹ Previous"),
      h("span", null, `Page ${info.page} of ${info.total_pages}`),
      h("button", { type: "button", onclick: go(page + 1), disabled: page >= info.total_pages }, "Next ›"),
    );
  }

  describe(total: number, atLeast = false): string {
    const { q, status, lang } = this.state;
    const filter = describeFilter(status, this.languageOf(lang));
    // A one- or two-character search counts its matches only so far (docs/dashboard.md "Speed").
    if (q) return `${atLeast ? "At least " : ""}${plural(total, "key")} match “${q}”${filter ? `, ${filter}` : ""}`;
    return `${plural(total, "key")}${filter ? ` ${filter}` : ""}`;
  }

  nothingFound(): HTMLElement {
    const { q, status, lang } = this.state;
    if (status !== "" || q) {
      const what = q && status === "" ? `No key matches “${q}”.` : `No key is ${describeFilter(status, this.languageOf(lang))}${q ? ` and matches “${q}”` : ""}.`;
      return empty(
        what,
        q ? h("p", null, "Search looks in key names, contexts and translations.") : null,
        h("button", { type: "button", onclick: () => this.apply({ ...this.state, q: "", status: "", page: 1 }, "push") }, "Show all keys"),
      );
    }
    if (!can("developer")) return empty("No keys yet.", h("p", null, "A developer of the project adds them, or imports a file."));
    return empty("No keys yet.", h("p", null, "Add your first key above, or ", link(`/projects/${encodeURIComponent(this.pid)}/import`, `import a ${formatNames(importFormats(), "or")} file`), "."));
  }

  async loadGrid(): Promise<void> {
    const ticket = ++this.loadTicket;
    if (location.pathname !== this.ctx.path) return; // the user has moved on to another page
    this.gridBox.setAttribute("aria-busy", "true");
    try {
      const qs = keyListQuery(this.state, this.columns().map((l) => l.code));
      const prefetched = this.early && (await this.early);
      this.early = null;
      const reply = prefetched?.qs === qs ? prefetched.reply : await get<KeyList>(`${projectPath(this.pid, "keys")}?${qs}`);
      if (ticket !== this.loadTicket) return;
      const info = reply.page_info;
      if (reply.items.length === 0 && this.state.page > 1 && info.total_pages > 0) {
        this.state = { ...this.state, page: info.total_pages };
        this.writeUrl("replace");
        return this.loadGrid();
      }
      this.summary.textContent = this.describe(info.total_count, info.total_at_least === true);
      fill(this.gridBox, reply.items.length === 0 ? this.nothingFound() : keyGrid(reply.items, this.gridOptions(), this.pager(info)));
      // The editor benchmark (bench/editor.bench.sh) times the grid up to here.
      performance.clearMarks("keys-grid");
      performance.mark("keys-grid");
    } catch (err) {
      if (ticket === this.loadTicket) fill(this.gridBox, loadError(err, () => void this.loadGrid()));
    } finally {
      if (ticket === this.loadTicket) this.gridBox.setAttribute("aria-busy", "false");
    }
  }

  writeUrl(how: "push" | "replace"): void {
    const { q, status, lang, page } = this.state;
    setQuery({ q: q || null, status: status || null, lang: status !== "" || lang !== this.defaultLang() ? lang : null, page }, { push: how === "push" });
  }

  /** Moves the grid to `next`: the URL (a new history entry, or the same one), the controls, the rows, the counts. */
  async apply(next: GridState, how: "push" | "replace" | "none"): Promise<void> {
    const countsMove = next.q !== this.state.q || next.lang !== this.state.lang;
    const columnsMove = next.status !== this.state.status || next.lang !== this.state.lang;
    this.state = next;
    if (how !== "none") this.writeUrl(how);
    this.filters.set(this.state.status, this.state.lang);
    if (this.searchBox.value.trim() !== this.state.q) this.searchBox.value = this.state.q;
    this.translateLink.replaceWith((this.translateLink = this.translateButton()));
    await this.loadGrid();
    if (columnsMove) this.showProgress();
    if (countsMove) void this.refreshCounts();
  }

  /** "Translate French one by one", for a language the user may edit (the filter's, else their first). */
  translateButton(): HTMLElement {
    const { lang: chosen, status, q } = this.state;
    const editable = this.languages.filter((l) => !l.is_base_language && canEdit(l.code));
    const lang = editable.some((l) => l.code === chosen) ? chosen : (editable[0]?.code ?? (chosen === this.base.code ? (this.languages.find((l) => !l.is_base_language)?.code ?? this.base.code) : chosen));
    const qs = new URLSearchParams({ lang, status: status || "missing" });
    if (q) qs.set("q", q);
    const a = link(`/projects/${encodeURIComponent(this.pid)}/translate?${qs}`, `Translate ${this.languageOf(lang).name} one by one`);
    a.classList.add("button-link");
    return a;
  }
}

/** The search box: Enter searches at once, typing after a pause. */
function searchField(view: KeysView): HTMLInputElement {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const box = input({ type: "search", name: "search", value: view.state.q, placeholder: "Search keys, context, translations", "aria-label": "Search keys" });
  const search = () => {
    clearTimeout(timer);
    const q = box.value.trim();
    if (q === view.state.q) return;
    const how = view.searchStepOpen ? "replace" : "push";
    view.searchStepOpen = true;
    void view.apply({ ...view.state, q, page: 1 }, how);
  };
  box.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(search, SEARCH_DELAY_MS);
  });
  box.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      search();
    }
  });
  return box;
}

/** "Languages: 4 of 30": the columns shown, saved for the user a moment after the last change. */
function languagePicker(view: KeysView): HTMLElement {
  let saveTimer: ReturnType<typeof setTimeout> | undefined;
  const picker = columnPicker(view.languages, view.shown, (codes) => {
    view.shown = codes;
    void view.loadGrid();
    view.showProgress();
    clearTimeout(saveTimer);
    saveTimer = setTimeout(() => void saveShownLanguages(view.pid, codes).catch((err) => showError(view.addError, err)), SAVE_COLUMNS_DELAY_MS);
  });
  return picker.element;
}

/** Adding a key: it shows at the top of the grid, ready to translate, without losing the page. */
function addKeyForm(view: KeysView): HTMLFormElement {
  return form(
    {
      submit: "Add key",
      class: "row-form",
      label: "Add a key",
      onSubmit: async (data, formEl) => {
        const item = await post<KeyItem>(projectPath(view.pid, "keys"), data.context ? { key: data.key, context: data.context } : { key: data.key });
        formEl.reset();
        let tbody = view.gridBox.querySelector("tbody");
        if (!tbody) {
          fill(view.gridBox, keyGrid([], view.gridOptions()));
          tbody = view.gridBox.querySelector("tbody")!;
        }
        const row = keyRow(item, view.gridOptions());
        row.classList.add("new-row");
        tbody.prepend(row);
        row.querySelector<HTMLTextAreaElement>("textarea")?.focus();
        view.refreshSummaries();
      },
    },
    field("New key", input({ name: "key", required: true, maxlength: KEY_MAX_LENGTH, class: "mono", placeholder: "e.g. checkout.pay_button" })),
    field("Context (optional)", input({ name: "context", maxlength: CONTEXT_MAX_LENGTH, placeholder: "Where the string appears" })),
  );
}

export function keysPage(ctx: Ctx) {
  const pid = ctx.params.pid!;
  const ready = Promise.all([projectLanguages(pid), loadShownLanguages(pid)]);
  ready.catch(() => {}); // a failure is reported where it is awaited
  const early = prefetchFirstPage(ctx, pid, ready);
  return projectPage(pid, "keys", "Keys", async (project) => {
    const [languages, preferences] = await ready;
    const view = new KeysView(ctx, pid, project, languages, preferences, early);
    // Back and forward between two states of this page: redraw the grid, not the page.
    onQueryChange((query) => {
      view.searchStepOpen = false;
      void view.apply(view.readState(query), "none");
    });
    view.writeUrl("replace");
    await view.loadGrid().catch((err) => showError(view.addError, err));
    // The summaries after the grid: its rows come first.
    view.refreshSummaries();
    return [
      view.progressBox,
      languages.length === 1
        ? h("p", { class: "note" }, "Only the base language so far. ", link(`/projects/${encodeURIComponent(project.id)}/languages`, "Add a language"), " to translate into.")
        : null,
      // Adding keys and importing are a developer's (docs/dashboard.md "Roles"): not shown below that.
      can("developer") ? h("div", { class: "toolbar card" }, addKeyForm(view), view.addError) : view.addError,
      h(
        "div",
        { class: "search-row", role: "search" },
        view.searchBox,
        languagePicker(view),
        languages.length > 1 && languages.some((l) => !l.is_base_language && canEdit(l.code)) ? view.translateLink : null,
        can("developer") ? link(`/projects/${encodeURIComponent(pid)}/import`, "Import file…") : null,
      ),
      view.filters.element,
      view.summary,
      view.gridBox,
    ];
  });
}

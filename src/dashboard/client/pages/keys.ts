import { get, post, projectPath, type PageInfo } from "../api.ts";
import { fill, h, plural } from "../dom.ts";
import { keyGrid, keyRow, type GridOptions, type KeyItem } from "../key-grid.ts";
import { projectLanguages, projectPage } from "../layout.ts";
import { loadProgress, progressStrip } from "../progress.ts";
import { link, setQuery, type Ctx } from "../router.ts";
import { empty, errorBox, field, form, input, loadError, showError } from "../ui.ts";

/**
 * The key grid with search, paging, inline editing and per-language progress (docs/dashboard.md
 * "Progress").
 */
export const KEYS_PAGE_SIZE = 50;
const SEARCH_DELAY_MS = 250;

export function keysPage(ctx: Ctx) {
  const pid = ctx.params.pid!;
  return projectPage(pid, "keys", "Keys", async (project) => {
    const languages = await projectLanguages(pid);
    let search = ctx.query.get("q") ?? "";
    let page = Math.max(1, Number(ctx.query.get("page")) || 1);
    const progressBox = h("div", { class: "progress-area" });
    const gridBox = h("div", { class: "grid-area", "aria-live": "polite", "aria-busy": "false" });
    const summary = h("p", { class: "muted small", "aria-live": "polite" });

    let progressTimer: ReturnType<typeof setTimeout> | undefined;
    const refreshProgress = () => {
      clearTimeout(progressTimer);
      progressTimer = setTimeout(async () => {
        try {
          fill(progressBox, progressStrip(await loadProgress(pid)));
        } catch {
          // progress is a summary; the grid still works without a fresh one
        }
      }, 150);
    };

    const options: GridOptions = { pid, languages, changed: refreshProgress, reload: () => void loadGrid() };

    const pager = (info: PageInfo) => {
      if (info.total_pages <= 1) return null;
      const go = (to: number) => () => {
        page = to;
        void loadGrid();
      };
      return h(
        "nav",
        { class: "pager", "aria-label": "Pages" },
        h("button", { type: "button", onclick: go(page - 1), disabled: page <= 1 }, "‹ Previous"),
        h("span", null, `Page ${info.page} of ${info.total_pages}`),
        h("button", { type: "button", onclick: go(page + 1), disabled: page >= info.total_pages }, "Next ›"),
      );
    };

    let loadTicket = 0;
    async function loadGrid(): Promise<void> {
      const ticket = ++loadTicket;
      if (location.pathname !== ctx.path) return; // the user has moved on to another page
      setQuery({ q: search || null, page });
      gridBox.setAttribute("aria-busy", "true");
      try {
        const qs = new URLSearchParams({ page: String(page), page_size: String(KEYS_PAGE_SIZE) });
        if (search) qs.set("search", search);
        const reply = await get<{ items: KeyItem[]; page_info: PageInfo }>(`${projectPath(pid, "keys")}?${qs}`);
        if (ticket !== loadTicket) return;
        const info = reply.page_info;
        if (reply.items.length === 0 && page > 1 && info.total_pages > 0) {
          page = info.total_pages;
          return loadGrid();
        }
        summary.textContent = search ? `${plural(info.total_count, "key")} match “${search}”` : `${plural(info.total_count, "key")}`;
        if (reply.items.length === 0) {
          fill(
            gridBox,
            search
              ? empty(`No key matches “${search}”.`, h("p", null, "Search looks in key names, contexts and translations."))
              : empty(
                  "No keys yet.",
                  h("p", null, "Add your first key above, or ", link(`/projects/${encodeURIComponent(pid)}/import`, "import a JSON, YAML or ARB file"), "."),
                ),
          );
        } else fill(gridBox, keyGrid(reply.items, options, pager(info)));
      } catch (err) {
        if (ticket === loadTicket) fill(gridBox, loadError(err, () => void loadGrid()));
      } finally {
        if (ticket === loadTicket) gridBox.setAttribute("aria-busy", "false");
      }
    }

    let searchTimer: ReturnType<typeof setTimeout> | undefined;
    const searchBox = input({ type: "search", name: "search", value: search, placeholder: "Search keys, context, translations", "aria-label": "Search keys" });
    searchBox.addEventListener("input", () => {
      clearTimeout(searchTimer);
      searchTimer = setTimeout(() => {
        search = searchBox.value.trim();
        page = 1;
        void loadGrid();
      }, SEARCH_DELAY_MS);
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
            fill(gridBox, keyGrid([], options));
            tbody = gridBox.querySelector("tbody")!;
          }
          const row = keyRow(item, options);
          row.classList.add("new-row");
          tbody.prepend(row);
          row.querySelector<HTMLTextAreaElement>("textarea")?.focus();
          refreshProgress();
        },
      },
      field("New key", input({ name: "key", required: true, maxlength: 512, class: "mono", placeholder: "e.g. checkout.pay_button" })),
      field("Context (optional)", input({ name: "context", maxlength: 2000, placeholder: "Where the string appears" })),
    );

    refreshProgress();
    await loadGrid().catch((err) => showError(addError, err));
    return [
      progressBox,
      languages.length === 1
        ? h("p", { class: "note" }, "Only the base language so far. ", link(`/projects/${encodeURIComponent(project.id)}/languages`, "Add a language"), " to translate into.")
        : null,
      h("div", { class: "toolbar card" }, addForm, addError),
      h(
        "div",
        { class: "search-row" },
        searchBox,
        summary,
        link(`/projects/${encodeURIComponent(pid)}/import`, "Import file…"),
      ),
      gridBox,
    ];
  });
}

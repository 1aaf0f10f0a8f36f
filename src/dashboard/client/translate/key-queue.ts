import { get, projectPath, type PageInfo } from "../api.ts";
import type { StatusFilter } from "../key-filters.ts";
import type { KeyItem } from "../key-grid.ts";

/**
 * The keys the translate page walks (docs/dashboard.md "Translating one language"): those of the
 * filter in key order, fetched a batch at a time.
 */
const BATCH = 25;

export type Cell = KeyItem["translations"][string];

/** Whether a key still belongs to the filter once its value in the language is `cell`. */
export function matches(status: StatusFilter, cell: Cell | undefined): boolean {
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
 * Saving takes a key out of "missing", so the next batch starts after the keys seen that still
 * match, never skipping one.
 */
export class KeyQueue {
  readonly items: KeyItem[] = [];
  index = -1;
  private readonly seen = new Set<string>();
  private done = false;

  constructor(
    private readonly pid: string,
    private readonly codes: string[],
    readonly lang: string,
    readonly status: StatusFilter,
    readonly q: string,
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

  /** Keys passed by (Alt+Down) that still match the filter: still to do. */
  skipped(): number {
    return this.status === "" ? 0 : this.items.filter((item) => matches(this.status, item.translations[this.lang])).length;
  }
}

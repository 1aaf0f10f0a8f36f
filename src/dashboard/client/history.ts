import type { HistoryView } from "../../authoring/history.ts";
import type { TranslationView } from "../../authoring/translations.ts";
import { canEdit, get, projectPath, put } from "./api.ts";
import { h, time } from "./dom.ts";
import { badge, loadError, message } from "./ui.ts";

/**
 * A key's translation history (docs/product.md §8, docs/dashboard.md "History"): who changed each
 * value (a user, a token, an import), when, what it said before, and a one-click restore. Restoring
 * is saving the old value again, so it is itself a new entry and a `translation_updated` event;
 * history is never rewritten.
 */
export type { HistoryView, TranslationView };

export interface HistoryOptions {
  pid: string;
  keyId: string;
  keyName: string;
  /** Only this language's entries (the one-language mode); all languages when absent. */
  only?: string;
  /** The value on screen now, if known; the newest entry's value otherwise. */
  current?: (code: string) => string | null | undefined;
  /** After a restore was saved, with the server's answer. */
  restored: (reply: TranslationView) => void;
}

const VIA: Record<HistoryView["via"], string> = { edit: "Edited", import: "Imported", approve: "Approved", memory: "Pre-translated from memory", machine: "Pre-translated by machine" };

function who(by: HistoryView["by"]): string {
  return by.kind === "token" ? `token “${by.name}”` : by.name;
}

function valueBox(value: string | null, lang: string, label: string): HTMLElement {
  return value === null ? h("span", { class: "muted small" }, "(no value: the key was missing in this language)") : h("span", { class: "value", lang, "aria-label": label }, value);
}

/** The history, loaded now and again after each restore. */
export function historyPanel(options: HistoryOptions): { element: HTMLElement; load: () => Promise<void> } {
  const element = h("div", { class: "history", "aria-live": "polite", "aria-busy": "true" }, h("p", { class: "muted small" }, "Loading the history…"));
  const load = async () => {
    element.setAttribute("aria-busy", "true");
    try {
      const { items } = await get<{ items: HistoryView[] }>(projectPath(options.pid, "keys", options.keyId, "history"));
      const entries = options.only ? items.filter((e) => e.language_code === options.only) : items;
      const newest = new Map<string, string>();
      for (const e of items) if (!newest.has(e.language_code)) newest.set(e.language_code, e.value);
      const current = (code: string) => options.current?.(code) ?? newest.get(code) ?? null;
      // "current" marks the newest entry that holds the value now; older ones with the same value
      // (an edit then its approval) have no badge and nothing to restore.
      const marked = new Set<string>();
      element.replaceChildren(
        entries.length === 0
          ? h("p", { class: "muted small" }, options.only ? "No change of this translation has been recorded yet." : "No change of this key's translations has been recorded yet.")
          : h(
              "ol",
              { class: "history-list" },
              entries.map((e) => {
                const error = h("span", { class: "error inline", role: "alert", hidden: true });
                const isCurrent = e.value === current(e.language_code);
                // Restoring is saving: only in a language the user may edit (docs/dashboard.md "Roles").
                const restore = isCurrent || !canEdit(e.language_code)
                  ? null
                  : h(
                      "button",
                      {
                        type: "button",
                        class: "small",
                        "aria-label": `Restore ${e.language_code} “${e.value.length > 60 ? `${e.value.slice(0, 60)}…` : e.value}”`,
                        onclick: async (event: MouseEvent) => {
                          const button = event.currentTarget as HTMLButtonElement;
                          button.disabled = true;
                          try {
                            const reply = await put<TranslationView>(projectPath(options.pid, "keys", options.keyId, "translations", e.language_code), { value: e.value });
                            options.restored(reply);
                            await load();
                          } catch (err) {
                            error.textContent = message(err);
                            error.hidden = false;
                            button.disabled = false;
                          }
                        },
                      },
                      "Restore",
                    );
                return h(
                  "li",
                  { class: "history-entry" },
                  h(
                    "div",
                    { class: "history-head" },
                    options.only ? null : h("code", { class: "tag" }, e.language_code),
                    h("strong", null, VIA[e.via]),
                    " by ",
                    h("span", { class: `by ${e.by.kind}` }, who(e.by)),
                    " ",
                    time(e.at),
                    isCurrent && !marked.has(e.language_code) && marked.add(e.language_code) ? badge("current", "approved") : null,
                  ),
                  h("div", { class: "history-values" }, valueBox(e.value, e.language_code, "value"), e.via === "approve" ? null : h("div", { class: "before small" }, h("span", { class: "muted" }, "Before: "), valueBox(e.previous_value, e.language_code, "previous value"))),
                  h("div", { class: "actions" }, restore, error),
                );
              }),
            ),
      );
    } catch (err) {
      element.replaceChildren(loadError(err, () => void load()));
    } finally {
      element.setAttribute("aria-busy", "false");
    }
  };
  void load();
  return { element, load };
}

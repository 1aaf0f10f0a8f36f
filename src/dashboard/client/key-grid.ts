import { del, patch, post, projectPath, put } from "./api.ts";
import { h, type Child } from "./dom.ts";
import type { KeyView as KeyItem } from "../../authoring/keys.ts";
import { notTranslatableMark, placeholderNotes } from "./placeholder-notes.ts";
import { historyPanel, type TranslationView } from "./history.ts";
import type { Language } from "./layout.ts";
import { messageEditor } from "./message-editor.ts";
import { hasChoiceIn } from "./message-forms.ts";
import { problemList, type MessageChecker, type MessageProblem } from "./problems.ts";
import { badge, confirmDialog, field, form, input, message, openDialog } from "./ui.ts";
import { CONTEXT_MAX_LENGTH, KEY_MAX_LENGTH } from "../../authoring/limits.ts";

/**
 * Keys by languages, edited in place (docs/dashboard.md "The pages"). Each cell saves on leaving it
 * (or Ctrl+Enter, which also moves down a row); Escape puts the saved value back. A missing value
 * is shaded so gaps show at a glance; a translated value has an Approve button. Under a cell, the
 * message checks' findings (docs/product.md §7): as stored, then as the value is typed. A value
 * with a plural or select (its own or its base's) also opens in the forms editor, one field per
 * case; a key's History lists every change with a restore (docs/product.md §8).
 */
export type { KeyView as KeyItem } from "../../authoring/keys.ts";

export interface GridOptions {
  pid: string;
  languages: Language[];
  /** After any change that moves the progress numbers. */
  changed: () => void;
  /** After a key was renamed or deleted (the list is re-read). */
  reload: () => void;
  /** The project's message checks, run while a value is typed. */
  checker: MessageChecker;
}

/** Typing pauses this long before a cell is checked again. */
const CHECK_DELAY_MS = 150;

/** What a row's cells share: the key's base value as last saved (the others are checked against it). */
interface RowState {
  base: string | null;
  /** Fired on the row when the base value was saved. */
  readonly events: EventTarget;
  /** Each cell's saved value, and how to show a value saved elsewhere (a restore from the history). */
  readonly cells: Map<string, { saved: () => string; saved_elsewhere: (reply: TranslationView) => void }>;
}

type Status = "missing" | "translated" | "approved";

function cell(item: KeyItem, lang: Language, options: GridOptions, row: RowState): HTMLElement {
  const current = item.translations[lang.code];
  let saved = current?.value ?? "";
  let status: Status = current ? current.status : "missing";
  const label = `${lang.code} translation of ${item.key}`;
  const area = h("textarea", { rows: 1, "aria-label": label, spellcheck: "true", lang: lang.code, placeholder: "Untranslated", "data-lang": lang.code });
  area.value = saved;
  const statusEl = h("span", { class: "cell-status" });
  const note = h("span", { class: "cell-note", "aria-live": "polite" });
  const approve = h("button", { type: "button", class: "approve", "aria-label": `Approve ${label}` }, "Approve");
  const found = h("div", { class: "cell-problems", "aria-live": "polite", "aria-label": `Problems in ${label}` });
  const formsButton = h("button", { type: "button", class: "link small forms-button", "aria-label": `Edit forms of ${label}` }, "Forms…");
  const td = h("td", { class: "cell" }, h("span", { class: "cell-lang" }, lang.code), area, h("div", { class: "cell-foot" }, statusEl, approve, formsButton, note), found);
  // The forms editor is offered where it helps: a plural or select in the value or the base text.
  const showFormsButton = () => {
    const base = lang.is_base_language ? null : row.base;
    formsButton.hidden = options.checker.syntax !== "icu" || !(hasChoiceIn(area.value) || hasChoiceIn(base));
  };

  const showProblems = (problems: readonly MessageProblem[]) => {
    found.replaceChildren(problemList(problems) ?? "");
    td.classList.toggle("has-errors", problems.some((p) => p.severity === "error"));
  };
  const checkNow = () => showProblems(area.value === "" ? [] : options.checker.check(area.value, lang.code, lang.is_base_language ? null : row.base));
  let checkTimer: ReturnType<typeof setTimeout> | undefined;
  const checkSoon = () => {
    clearTimeout(checkTimer);
    checkTimer = setTimeout(checkNow, CHECK_DELAY_MS);
  };
  showProblems(current?.problems ?? []);
  if (!lang.is_base_language) row.events.addEventListener("base-saved", checkNow);

  const show = () => {
    td.classList.remove("missing", "translated", "approved");
    td.classList.add(status);
    statusEl.replaceChildren(status === "missing" ? badge("missing", "missing") : status === "approved" ? badge("approved", "approved") : badge("translated", "translated"));
    approve.hidden = status !== "translated";
  };
  const fail = (err: unknown) => {
    note.textContent = message(err);
    note.className = "cell-note error";
  };
  // Approve waits for a save still on its way, so it never approves the value being replaced.
  let inflight: Promise<void> = Promise.resolve();
  const save = () => (inflight = inflight.then(saveNow));
  const saveNow = async () => {
    const value = area.value;
    if (value === saved || (status === "missing" && value === "")) return;
    note.className = "cell-note";
    note.textContent = "Saving…";
    try {
      const reply = await put<{ value: string; status: Status; problems: MessageProblem[] }>(projectPath(options.pid, "keys", item.id, "translations", lang.code), { value });
      saved = reply.value;
      status = reply.status;
      td.classList.remove("dirty");
      note.textContent = "Saved";
      show();
      if (area.value === saved) showProblems(reply.problems);
      if (lang.is_base_language) {
        row.base = saved;
        row.events.dispatchEvent(new Event("base-saved"));
      }
      showFormsButton();
      options.changed();
    } catch (err) {
      fail(err);
    }
  };
  row.cells.set(lang.code, {
    saved: () => saved,
    saved_elsewhere(reply) {
      saved = reply.value;
      area.value = saved;
      status = reply.status;
      td.classList.remove("dirty");
      note.className = "cell-note";
      note.textContent = "Restored";
      show();
      showProblems(reply.problems);
      showFormsButton();
      if (lang.is_base_language) {
        row.base = saved;
        row.events.dispatchEvent(new Event("base-saved"));
      }
      options.changed();
    },
  });
  formsButton.addEventListener("click", () => {
    const editor = messageEditor({
      value: area.value,
      base: lang.is_base_language ? null : row.base,
      code: lang.code,
      languageName: lang.name,
      syntax: options.checker.syntax,
      catalog: options.checker.catalog,
      label,
    });
    const { close } = openDialog(
      `${item.key} · ${lang.name}`,
      !lang.is_base_language && row.base ? h("div", { class: "dialog-base" }, h("p", { class: "small muted" }, "Base text"), h("p", { class: "value", lang: options.languages.find((l) => l.is_base_language)?.code }, row.base)) : null,
      editor.element,
      h(
        "div",
        { class: "actions end" },
        h("button", { type: "button", onclick: () => close() }, "Cancel"),
        h(
          "button",
          {
            type: "button",
            class: "primary",
            onclick: () => {
              area.value = editor.value();
              area.dispatchEvent(new Event("input"));
              close();
              void save();
              area.focus();
            },
          },
          "Use these forms",
        ),
      ),
    );
    editor.focus();
  });
  area.addEventListener("input", () => {
    const dirty = area.value !== saved;
    td.classList.toggle("dirty", dirty);
    approve.hidden = status !== "translated" || dirty;
    checkSoon();
  });
  if (!lang.is_base_language) row.events.addEventListener("base-saved", showFormsButton);
  area.addEventListener("blur", () => void save());
  area.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && area.value !== saved) {
      event.preventDefault();
      area.value = saved;
      td.classList.remove("dirty");
      note.textContent = "";
      checkNow();
    } else if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      // The same language one row down: typing through a column is the common path.
      const next = td.closest("tr")?.nextElementSibling?.querySelector<HTMLTextAreaElement>(`textarea[data-lang="${lang.code}"]`);
      if (next) next.focus();
      else void save();
    }
  });
  approve.addEventListener("click", async () => {
    approve.disabled = true;
    try {
      await inflight;
      await post(projectPath(options.pid, "keys", item.id, "translations", lang.code, "approve"));
      status = "approved";
      note.textContent = "Approved";
      show();
      options.changed();
    } catch (err) {
      fail(err);
    } finally {
      approve.disabled = false;
    }
  });
  show();
  showFormsButton();
  return td;
}

function showHistory(item: KeyItem, options: GridOptions, row: RowState): void {
  const panel = historyPanel({
    pid: options.pid,
    keyId: item.id,
    keyName: item.key,
    current: (code) => row.cells.get(code)?.saved(),
    restored: (reply) => row.cells.get(reply.language_code)?.saved_elsewhere(reply),
  });
  openDialog(`History of ${item.key}`, panel.element);
}

function editKey(item: KeyItem, options: GridOptions): void {
  const path = projectPath(options.pid, "keys", item.id);
  const { close } = openDialog(
    `Key ${item.key}`,
    form(
      {
        submit: "Save key",
        label: "Edit key",
        onSubmit: async (data) => {
          await patch(path, { key: data.key, context: data.context.trim() === "" ? null : data.context });
          close();
          options.reload();
        },
      },
      field("Key", input({ name: "key", value: item.key, required: true, maxlength: KEY_MAX_LENGTH, class: "mono", autofocus: true })),
      field("Context", h("textarea", { name: "context", rows: 3, maxlength: CONTEXT_MAX_LENGTH, value: item.context ?? "" }), "Tells translators where and how the string is used."),
    ),
    h(
      "div",
      { class: "danger-zone" },
      h("p", { class: "small muted" }, "Deleting removes the key and all its translations. Published releases keep theirs."),
      h(
        "button",
        {
          type: "button",
          class: "danger",
          onclick: async () => {
            close();
            if (!(await confirmDialog({ title: `Delete ${item.key}?`, body: "The key and its translations in every language are deleted.", confirm: "Delete key", danger: true }))) return;
            await del(path);
            options.reload();
            options.changed();
          },
        },
        "Delete key",
      ),
    ),
  );
}

export function keyRow(item: KeyItem, options: GridOptions): HTMLTableRowElement {
  const base = options.languages.find((l) => l.is_base_language);
  const row: RowState = { base: (base && item.translations[base.code]?.value) ?? null, events: new EventTarget(), cells: new Map() };
  const head = h(
    "th",
    { scope: "row", class: "keycell" },
    h("code", { class: "key" }, item.key),
    notTranslatableMark(item),
    item.context ? h("p", { class: "context" }, item.context) : null,
    placeholderNotes(item),
    h(
      "div",
      { class: "key-actions" },
      h("button", { type: "button", class: "link small", "aria-label": `Edit key ${item.key}`, onclick: () => editKey(item, options) }, "Edit"),
      h("button", { type: "button", class: "link small", "aria-label": `History of ${item.key}`, onclick: () => showHistory(item, options, row) }, "History"),
    ),
  );
  return h("tr", null, head, options.languages.map((l) => cell(item, l, options, row)));
}

export function keyGrid(items: KeyItem[], options: GridOptions, after: Child = null): HTMLElement {
  const head = h(
    "thead",
    null,
    h("tr", null, h("th", { scope: "col", class: "keycol" }, "Key"), options.languages.map((l) =>
      h("th", { scope: "col", lang: l.code }, h("span", { class: "col-code" }, l.code), " ", h("span", { class: "muted small" }, l.name), l.is_base_language ? [" ", badge("base", "base")] : null),
    )),
  );
  const table = h("table", { class: "grid" }, head, h("tbody", null, items.map((item) => keyRow(item, options))));
  return h("div", { class: "grid-wrap" }, table, after);
}

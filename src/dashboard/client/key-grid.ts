import { can, canApprove, canEdit, del, patch, post, projectPath, put } from "./api.ts";
import { h, type Child } from "./dom.ts";
import type { KeyView as KeyItem } from "../../authoring/keys.ts";
import { notTranslatableMark, placeholderNotes } from "./placeholder-notes.ts";
import { historyPanel, type TranslationView } from "./history.ts";
import type { Language } from "./layout.ts";
import { messageEditor } from "./message-editor.ts";
import { hasChoiceIn } from "./message-forms.ts";
import { shownText, splitUnits } from "../../messages/units.ts";
import { storedValue } from "./message-forms.ts";
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

type Reply = { value: string; status: Status; problems: MessageProblem[] };

/** One cell of the grid: a value of one key in one language, saved when the field is left. */
class GridCell {
  saved: string;
  status: Status;
  readonly label: string;
  readonly editable: boolean;
  readonly area: HTMLTextAreaElement;
  readonly statusEl = h("span", { class: "cell-status" });
  readonly note = h("span", { class: "cell-note", "aria-live": "polite" });
  readonly approve: HTMLButtonElement;
  readonly found: HTMLElement;
  readonly formsButton: HTMLButtonElement;
  readonly td: HTMLElement;
  private checkTimer: ReturnType<typeof setTimeout> | undefined;
  /** Approve waits for a save still on its way, so it never approves the value being replaced. */
  private inflight: Promise<void> = Promise.resolve();

  constructor(
    readonly item: KeyItem,
    readonly lang: Language,
    readonly options: GridOptions,
    readonly row: RowState,
  ) {
    const current = item.translations[lang.code];
    this.saved = current?.value ?? "";
    this.status = current ? current.status : "missing";
    this.label = `${lang.code} translation of ${item.key}`;
    this.editable = canEdit(lang.code);
    // A language outside a translator's or reviewer's own is shown, not edited (docs/dashboard.md "Roles").
    this.area = h("textarea", { rows: 1, "aria-label": this.label, spellcheck: "true", lang: lang.code, placeholder: this.editable ? "Untranslated" : "", "data-lang": lang.code, readonly: !this.editable });
    this.area.value = shownText(this.saved);
    this.approve = h("button", { type: "button", class: "approve", "aria-label": `Approve ${this.label}` }, "Approve");
    this.found = h("div", { class: "cell-problems", "aria-live": "polite", "aria-label": `Problems in ${this.label}` });
    this.formsButton = h("button", { type: "button", class: "link small forms-button", "aria-label": `Edit forms of ${this.label}` }, "Forms…");
    this.td = h("td", { class: "cell" }, h("span", { class: "cell-lang" }, lang.code), this.area, h("div", { class: "cell-foot" }, this.statusEl, this.approve, this.formsButton, this.note), this.found);
    this.showProblems(current?.problems ?? []);
    this.listen();
    this.show();
    this.showFormsButton();
  }

  private get base(): string | null {
    return this.lang.is_base_language ? null : this.row.base;
  }

  /** The value as typed, as stored: a literal `<` is `&lt;` (docs/dashboard.md "Placeholders, tags and native formats"). */
  typed(): string {
    return storedValue(this.area.value);
  }

  /**
   * The forms editor is offered where it helps: a plural or select in the value or the base text
   * (ICU and gen-l10n values), or units to insert whole (native placeholders, tags) in any syntax.
   */
  showFormsButton = () => {
    const { syntax } = this.options.checker;
    const icuLike = syntax === "icu" || syntax === "flutter";
    const helps = (v: string | null) => v !== null && ((icuLike && hasChoiceIn(v, syntax)) || splitUnits(v).some((x) => x.kind === "unit"));
    this.formsButton.hidden = !this.editable || !(helps(this.typed()) || helps(this.base));
  };

  showProblems(problems: readonly MessageProblem[]): void {
    this.found.replaceChildren(problemList(problems) ?? "");
    this.td.classList.toggle("has-errors", problems.some((p) => p.severity === "error"));
  }

  checkNow = () => this.showProblems(this.area.value === "" ? [] : this.options.checker.check(this.typed(), this.lang.code, this.base));

  /** A key the base file marks not to translate needs no value here: not "missing" (docs/formats.md "Not translatable"). */
  private get state(): Status | "not-translatable" {
    return this.status === "missing" && this.item.translatable === false && !this.lang.is_base_language ? "not-translatable" : this.status;
  }

  show(): void {
    const state = this.state;
    this.td.classList.remove("missing", "translated", "approved", "not-translatable");
    this.td.classList.add(state);
    this.statusEl.replaceChildren(badge(state === "not-translatable" ? "not translatable" : state, state));
    this.approve.hidden = this.status !== "translated" || !canApprove(this.lang.code);
  }

  fail(err: unknown): void {
    this.note.textContent = message(err);
    this.note.className = "cell-note error";
  }

  save = () => (this.inflight = this.inflight.then(() => this.saveNow()));

  private async saveNow(): Promise<void> {
    if (!this.editable) return;
    const value = this.typed();
    if (value === this.saved || (this.status === "missing" && value === "")) return;
    this.note.className = "cell-note";
    this.note.textContent = "Saving…";
    try {
      const reply = await put<Reply>(projectPath(this.options.pid, "keys", this.item.id, "translations", this.lang.code), { value });
      this.took(reply, "Saved");
    } catch (err) {
      this.fail(err);
    }
  }

  /** A value the server saved, here or from the history (a restore). */
  took(reply: Reply, said: string): void {
    this.saved = reply.value;
    if (said === "Restored") this.area.value = shownText(this.saved);
    this.status = reply.status;
    this.td.classList.remove("dirty");
    this.note.className = "cell-note";
    this.note.textContent = said;
    this.show();
    if (this.typed() === this.saved) this.showProblems(reply.problems);
    if (this.lang.is_base_language) {
      this.row.base = this.saved;
      this.row.events.dispatchEvent(new Event("base-saved"));
    }
    this.showFormsButton();
    this.options.changed();
  }

  private async approveNow(): Promise<void> {
    this.approve.disabled = true;
    try {
      await this.inflight;
      await post(projectPath(this.options.pid, "keys", this.item.id, "translations", this.lang.code, "approve"));
      this.status = "approved";
      this.note.textContent = "Approved";
      this.show();
      this.options.changed();
    } catch (err) {
      this.fail(err);
    } finally {
      this.approve.disabled = false;
    }
  }

  private keydown(event: KeyboardEvent): void {
    if (event.key === "Escape" && this.typed() !== this.saved) {
      event.preventDefault();
      this.area.value = shownText(this.saved);
      this.td.classList.remove("dirty");
      this.note.textContent = "";
      this.checkNow();
    } else if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      // The same language one row down: typing through a column is the common path.
      const next = this.td.closest("tr")?.nextElementSibling?.querySelector<HTMLTextAreaElement>(`textarea[data-lang="${this.lang.code}"]`);
      if (next) next.focus();
      else void this.save();
    }
  }

  private listen(): void {
    if (!this.lang.is_base_language) {
      this.row.events.addEventListener("base-saved", this.checkNow);
      this.row.events.addEventListener("base-saved", this.showFormsButton);
    }
    this.row.cells.set(this.lang.code, { saved: () => this.saved, saved_elsewhere: (reply) => this.took(reply, "Restored") });
    this.formsButton.addEventListener("click", () => formsDialog(this));
    this.area.addEventListener("input", () => {
      const dirty = this.typed() !== this.saved;
      this.td.classList.toggle("dirty", dirty);
      this.approve.hidden = this.status !== "translated" || dirty || !canApprove(this.lang.code);
      clearTimeout(this.checkTimer);
      this.checkTimer = setTimeout(this.checkNow, CHECK_DELAY_MS);
    });
    this.area.addEventListener("blur", () => void this.save());
    this.area.addEventListener("keydown", (event) => this.keydown(event));
    this.approve.addEventListener("click", () => void this.approveNow());
  }
}

/** "Forms…": the cell's value in the forms editor, in a dialog; "Use these forms" saves it. */
function formsDialog(cell: GridCell): void {
  const { lang, options, item, area } = cell;
  const base = lang.is_base_language ? null : cell.row.base;
  const editor = messageEditor({ value: cell.typed(), base, code: lang.code, languageName: lang.name, syntax: options.checker.syntax, catalog: options.checker.catalog, label: cell.label });
  const use = () => {
    area.value = shownText(editor.value());
    area.dispatchEvent(new Event("input"));
    close();
    void cell.save();
    area.focus();
  };
  const { close } = openDialog(
    `${item.key} · ${lang.name}`,
    base ? h("div", { class: "dialog-base" }, h("p", { class: "small muted" }, "Base text"), h("p", { class: "value", lang: options.languages.find((l) => l.is_base_language)?.code }, shownText(base))) : null,
    editor.element,
    h("div", { class: "actions end" }, h("button", { type: "button", onclick: () => close() }, "Cancel"), h("button", { type: "button", class: "primary", onclick: use }, "Use these forms")),
  );
  editor.focus();
}

function cell(item: KeyItem, lang: Language, options: GridOptions, row: RowState): HTMLElement {
  return new GridCell(item, lang, options, row).td;
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
      // Renaming and deleting keys is a developer's (docs/dashboard.md "Roles").
      can("developer") ? h("button", { type: "button", class: "link small", "aria-label": `Edit key ${item.key}`, onclick: () => editKey(item, options) }, "Edit") : null,
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

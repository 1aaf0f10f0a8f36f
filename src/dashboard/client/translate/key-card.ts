import { canApprove, canEdit, post, projectPath, put } from "../api.ts";
import { h, uid } from "../dom.ts";
import { historyPanel, type TranslationView } from "../history.ts";
import type { KeyItem } from "../key-grid.ts";
import type { Language } from "../layout.ts";
import { messageEditor, type MessageEditor } from "../message-editor.ts";
import { notTranslatableMark } from "../placeholder-notes.ts";
import { problemList, type MessageChecker, type MessageProblem } from "../problems.ts";
import { badge, message } from "../ui.ts";
import { contextColumn } from "./context-panels.ts";
import type { CardHelp, PageHelp } from "./help.ts";
import type { Cell } from "./key-queue.ts";

/**
 * One key on the translate page (docs/dashboard.md "Translating one language"): the context column
 * beside the translation's editor, its findings as typed, the actions with their shortcuts, and
 * the translation's history below.
 */
export interface Walk {
  pid: string;
  base: Language;
  target: Language;
  checker: MessageChecker;
  /** Shows the next key of the filter, or says none is left. */
  forward(): Promise<void>;
  back(): void;
  atFirst(): boolean;
  /** The count of keys left moves after a save. */
  saved(): void;
  /** Whether the history is open: it stays so from key to key. */
  historyOpen: boolean;
  /** The glossary and the extra language (translate/help.ts). */
  help: PageHelp;
}

/** Typing pauses this long before the value is checked again. */
const CHECK_DELAY_MS = 150;

/** A translation as saved on the server, and the two ways to change it. */
class SavedTranslation {
  cell: Cell | undefined;
  constructor(
    private readonly walk: Walk,
    private readonly item: KeyItem,
  ) {
    this.cell = item.translations[walk.target.code];
  }
  get value(): string {
    return this.cell?.value ?? "";
  }
  private path(...more: string[]): string {
    return projectPath(this.walk.pid, "keys", this.item.id, "translations", this.walk.target.code, ...more);
  }
  /** Whether `value` would change anything (an empty field of a missing key changes nothing). */
  differs(value: string): boolean {
    return value !== this.value && !(this.cell === undefined && value === "");
  }
  take(reply: TranslationView): void {
    this.cell = { value: reply.value, status: reply.status, problems: reply.problems };
    this.item.translations[this.walk.target.code] = this.cell;
  }
  save = (value: string) => put<TranslationView>(this.path(), { value });
  approve = () => post<TranslationView>(this.path("approve"));
}

/** The editor with the checks' findings under it, rechecked as the value is typed. */
function checkedEditor(walk: Walk, item: KeyItem, saved: SavedTranslation, baseValue: string | null, typed: () => void) {
  const label = `${walk.target.code} translation of ${item.key}`;
  const found = h("div", { class: "cell-problems", "aria-live": "polite", "aria-label": `Problems in ${label}` });
  const show = (list: readonly MessageProblem[]) => found.replaceChildren(problemList(list) ?? "");
  let timer: ReturnType<typeof setTimeout> | undefined;
  const editor: MessageEditor = messageEditor({
    value: saved.value,
    base: baseValue,
    code: walk.target.code,
    languageName: walk.target.name,
    syntax: walk.checker.syntax,
    catalog: walk.checker.catalog,
    label,
    readOnly: !canEdit(walk.target.code),
    onInput: () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const value = editor.value();
        show(value === "" ? [] : walk.checker.check(value, walk.target.code, baseValue));
      }, CHECK_DELAY_MS);
      typed();
    },
  });
  show(saved.cell?.problems ?? []);
  return { editor, found, show };
}

/** The history of this translation, loaded the first time it is opened. */
function historyBox(walk: Walk, item: KeyItem, current: () => string, restored: (reply: TranslationView) => void): HTMLElement {
  const box = h("details", { class: "history-box", open: walk.historyOpen }, h("summary", null, "History of this translation"));
  let loaded = false;
  const load = () => {
    if (loaded) return;
    loaded = true;
    box.append(historyPanel({ pid: walk.pid, keyId: item.id, keyName: item.key, only: walk.target.code, current, restored }).element);
  };
  box.addEventListener("toggle", () => {
    walk.historyOpen = box.open;
    if (box.open) load();
  });
  if (walk.historyOpen) load();
  return box;
}

export interface KeyCard {
  element: HTMLElement;
  focus(): void;
}

export function keyCard(walk: Walk, item: KeyItem): KeyCard {
  const saved = new SavedTranslation(walk, item);
  // An i18next plural form the base language lacks translates its group's `_other` form (docs/messages.md).
  const baseValue = walk.target.is_base_language ? null : (item.translations[walk.base.code]?.value ?? item.base_form?.value ?? null);
  const { editor, found, show } = checkedEditor(walk, item, saved, baseValue, () => statusLine());
  const note = h("span", { class: "cell-note", role: "status" });
  const statusEl = h("span", null);
  const say = (text: string, error = false) => {
    note.className = error ? "cell-note error" : "cell-note";
    note.textContent = text;
  };
  const apply = (reply: TranslationView) => {
    saved.take(reply);
    if (editor.value() !== saved.value) editor.reset(saved.value);
    show(reply.problems);
    statusLine();
    walk.saved();
  };
  // A value put in the editor as if typed: a suggestion used, the source copied (docs/translators.md).
  const help: CardHelp = {
    page: walk.help,
    suggestions: [],
    use(value) {
      if (!canEdit(walk.target.code)) return;
      editor.reset(value);
      show(walk.checker.check(value, walk.target.code, baseValue));
      statusLine();
      editor.focus();
    },
  };
  const copySource = baseValue !== null && canEdit(walk.target.code) ? () => help.use(baseValue) : null;
  const actions = cardActions(walk, saved, editor, say, apply, copySource);
  const statusLine = () => {
    const dirty = editor.value() !== saved.value;
    const cell = saved.cell;
    // A key the base marks not to translate needs no value here: not "missing" (docs/formats.md "Not translatable").
    const none = item.translatable === false && !walk.target.is_base_language ? badge("not translatable", "not-translatable") : badge("missing", "missing");
    statusEl.replaceChildren(cell === undefined ? none : badge(cell.status, cell.status), ...(dirty ? [h("span", { class: "muted small" }, " · unsaved changes")] : []));
    if (actions.approveButton) actions.approveButton.disabled = cell === undefined && !dirty;
  };
  const undo = () => {
    editor.reset(saved.value);
    show(saved.cell?.problems ?? []);
    statusLine();
    editor.focus();
  };
  const headingId = uid("key");
  const element = h(
    "section",
    { class: "translate card", "aria-labelledby": headingId },
    h("div", { class: "translate-head" }, h("h2", { id: headingId }, h("code", { class: "key" }, item.key), notTranslatableMark(item)), statusEl),
    h(
      "div",
      { class: "side-by-side" },
      contextColumn({ pid: walk.pid, item, base: walk.base, target: walk.target, baseValue, syntax: walk.checker.syntax, help }),
      h("div", { class: "target" }, h("h3", null, walk.target.name, " ", h("code", { class: "muted small" }, walk.target.code)), editor.element, found),
    ),
    h("div", { class: "actions translate-actions" }, actions.buttons, note),
    historyBox(walk, item, () => saved.value, apply),
  );
  element.addEventListener("keydown", (event) => shortcut(event, actions, editor.value() !== saved.value ? undo : null, help));
  statusLine();
  return { element, focus: () => editor.focus() };
}

/** The card's actions; those the role lacks are null: no button, and their shortcut does nothing and writes nothing. */
interface CardActions {
  buttons: HTMLElement[];
  approveButton: HTMLButtonElement | null;
  saveAndNext: (() => Promise<void>) | null;
  next(): Promise<void>;
  previous(): Promise<void>;
  approve: (() => Promise<void>) | null;
  copySource: (() => void) | null;
}

/** Save, move and approve, one step at a time: a second Ctrl+Enter waits for the first to finish. */
function cardActions(
  walk: Walk,
  saved: SavedTranslation,
  editor: MessageEditor,
  say: (text: string, error?: boolean) => void,
  apply: (reply: TranslationView) => void,
  copySource: (() => void) | null,
): CardActions {
  const save = async (): Promise<boolean> => {
    const value = editor.value();
    if (!saved.differs(value)) return true;
    say("Saving…");
    try {
      apply(await saved.save(value));
      say("Saved");
      return true;
    } catch (err) {
      say(message(err), true);
      return false;
    }
  };
  let busy = false;
  const step = async (action: () => Promise<unknown>) => {
    if (busy) return;
    busy = true;
    try {
      await action();
    } catch (err) {
      // The next batch of keys could not be read (or the approval failed): say so here, and stay on this key.
      say(message(err), true);
    } finally {
      busy = false;
    }
  };
  const next = () => step(async () => (await save()) && (await walk.forward()));
  const previous = () => step(async () => (await save()) && walk.back());
  const approve = () =>
    step(async () => {
      if (!(await save()) || saved.cell === undefined) return;
      if (saved.cell.status !== "approved") apply(await saved.approve());
      await walk.forward();
    });
  // A translator edits, a reviewer also approves, each in their own languages (docs/dashboard.md "Roles").
  const editable = canEdit(walk.target.code);
  const approvable = canApprove(walk.target.code);
  const approveButton = approvable ? h("button", { type: "button", class: "approve", onclick: () => void approve() }, "Approve", h("kbd", null, "Ctrl+Shift+Enter")) : null;
  const buttons = [
    h("button", { type: "button", onclick: () => void previous(), disabled: walk.atFirst() }, "Previous", h("kbd", null, "Alt+↑")),
    h("button", { type: "button", onclick: () => void next() }, "Next", h("kbd", null, "Alt+↓")),
    copySource ? h("button", { type: "button", onclick: copySource }, "Copy source", h("kbd", null, "Ctrl+Shift+0")) : null,
    approveButton,
    editable ? h("button", { type: "button", class: "primary", onclick: () => void next() }, "Save and next", h("kbd", null, "Ctrl+Enter")) : null,
  ].filter((b): b is HTMLButtonElement => b !== null);
  return { buttons, approveButton, saveAndNext: editable ? next : null, next, previous, approve: approvable ? approve : null, copySource };
}

/**
 * The card's keyboard (docs/dashboard.md "Translating one language"). A shortcut whose action the
 * role lacks is still taken from the field (no line break typed), and does nothing else.
 */
function shortcut(event: KeyboardEvent, actions: CardActions, undo: (() => void) | null, help: CardHelp): void {
  const ctrl = event.ctrlKey || event.metaKey;
  // Ctrl+Shift and a digit: 0 copies the source, 1 to 9 use that suggestion (by the key's place, whatever Shift makes of it).
  const digit = ctrl && event.shiftKey && /^Digit\d$/.test(event.code) ? Number(event.code.slice(5)) : null;
  let action: (() => unknown) | null;
  if (digit === 0) action = actions.copySource;
  else if (digit !== null) action = help.suggestions[digit - 1] === undefined ? null : () => help.use(help.suggestions[digit - 1]!);
  else if (event.key === "Enter" && ctrl && event.shiftKey) action = actions.approve;
  else if (event.key === "Enter" && ctrl) action = actions.saveAndNext;
  else if (event.key === "ArrowDown" && event.altKey) action = actions.next;
  else if (event.key === "ArrowUp" && event.altKey) action = actions.previous;
  else if (event.key === "Escape" && undo) action = undo;
  else return;
  event.preventDefault();
  if (action) void action();
}

import type { PluralCatalog, PluralRulesOf } from "../../messages/plurals.ts";
import type { MessageSyntax } from "../../messages/read.ts";
import { shownText } from "../../messages/units.ts";
import { h, uid } from "./dom.ts";
import { editorForm, merged, printForms, readForms, sameMessage, type Case, type Choice, type Part, type Piece, type Placeholder } from "./message-forms.ts";

/**
 * A translation's editor (docs/dashboard.md "Plural and select forms"): each plural or select is
 * one field per case (a plural's cases are the categories of the target language, from
 * `Intl.PluralRules`, plus the base's `=N` cases), and placeholders are chips: atoms that cannot
 * be mistyped, deleted whole, inserted from the base text with a button or by typing `{name}`.
 * The value is written back as valid ICU (message-forms.ts); "Edit ICU source" shows the text
 * itself, as does a value that does not parse.
 */
export interface MessageEditorOptions {
  /** The value as saved ("" when missing). */
  value: string;
  /** The key's base-language value; null for the base language itself or a key without one. */
  base: string | null;
  code: string;
  languageName: string;
  syntax: MessageSyntax;
  catalog: PluralCatalog;
  /** Names the fields for assistive technology ("fr translation of cart.title"). */
  label: string;
  /** Shown, not edited: a language outside the user's own (docs/dashboard.md "Roles"). */
  readOnly?: boolean;
  onInput?: () => void;
}

export interface MessageEditor {
  element: HTMLElement;
  /** The value as the fields say now (the saved text itself when it reads the same). */
  value(): string;
  /** Shows `value` as saved (after a save elsewhere, a restore, Escape). */
  reset(value: string): void;
  focus(): void;
}

type Node = { kind: "run"; el: HTMLElement } | { kind: "choice"; choice: Choice; cases: { selector: string; added?: boolean; nodes: Node[] }[] };

/** A chip for a placeholder: not editable inside, removed and moved over as one character. */
export function chip(p: Placeholder): HTMLElement {
  const el = h("span", { class: "ph", contenteditable: "false", "data-source": p.source, "data-name": p.name, title: p.name === "#" ? "the number" : p.source }, p.name === "#" ? "#" : p.name);
  return el;
}

/** Text and chips, for showing a value (the base text beside a translation). */
export function pieces(list: Piece[]): (string | HTMLElement)[] {
  return list.map((p) => (p.kind === "text" ? p.text : chip(p)));
}

function readRun(el: HTMLElement): Piece[] {
  const out: Part[] = [];
  const walk = (node: ChildNode, first: boolean) => {
    if (node.nodeType === 3) out.push({ kind: "text", text: node.textContent ?? "" });
    else if (node instanceof HTMLElement) {
      if (node.dataset.source !== undefined) out.push({ kind: "placeholder", name: node.dataset.name ?? "", source: node.dataset.source });
      else if (node.tagName === "BR") out.push({ kind: "text", text: "\n" });
      else {
        // A line a browser wrapped in its own element (contenteditable without plaintext-only).
        if (!first && node.tagName === "DIV") out.push({ kind: "text", text: "\n" });
        node.childNodes.forEach((c, i) => walk(c, i === 0));
      }
    }
  };
  el.childNodes.forEach((c, i) => walk(c, i === 0));
  return merged(out) as Piece[];
}

/** A few numbers a category stands for, so "few" means something: "2, 3, 4, …". */
function categoryHint(rules: PluralRulesOf | undefined, selector: string): string {
  if (selector.startsWith("=")) return `exactly ${selector.slice(1)}`;
  if (selector === "other") return "all other numbers";
  if (!rules?.categories.includes(selector)) return "not used in this language";
  const { integers, fraction } = rules.samples(selector);
  if (integers.length === 0) return fraction === undefined ? "" : `e.g. ${fraction}`;
  return integers.slice(0, 3).map((n) => n.toLocaleString()).join(", ") + (integers.length > 3 ? ", …" : "");
}

/** A flutter placeholder as typed: `{name}` (docs/dashboard.md "Editing in the project's syntax"). */
const FLUTTER_PLACEHOLDER = /\{[A-Za-z_][A-Za-z0-9_]*\}/g;

/** The first token in `text` (ending at `end` when given) that is a source of `known`, or a flutter `{name}`. */
function tokenIn(text: string, known: Map<string, Placeholder>, flutter: boolean, end?: number): { at: number; placeholder: Placeholder } | null {
  let best: { at: number; placeholder: Placeholder } | null = null;
  const consider = (at: number, placeholder: Placeholder) => {
    if (at >= 0 && (best === null || at < best.at)) best = { at, placeholder };
  };
  for (const [source, p] of known) {
    if (end === undefined) consider(text.indexOf(source), p);
    else if (text.slice(0, end).endsWith(source)) consider(end - source.length, p);
  }
  if (flutter && best === null) {
    for (const m of (end === undefined ? text : text.slice(0, end)).matchAll(FLUTTER_PLACEHOLDER)) {
      if (end !== undefined && m.index + m[0].length !== end) continue;
      consider(m.index, { kind: "placeholder", name: m[0].slice(1, -1), source: m[0] });
      break;
    }
  }
  return best;
}

/**
 * A placeholder typed in full in `run` becomes its chip (see Editor.chipTyped): while typing the
 * token that ends at the caret, after a paste or a drop every one it brought.
 */
function chipTokens(run: HTMLElement, known: Map<string, Placeholder>, flutter: boolean, everywhere: boolean): void {
  const sel = getSelection();
  const convert = (text: Text, at: number, p: Placeholder) => {
    const middle = text.splitText(at);
    const after = middle.splitText(p.source.length);
    middle.replaceWith(chip(p));
    if (!sel) return;
    const r = document.createRange();
    r.setStart(after, 0);
    sel.removeAllRanges();
    sel.addRange(r);
  };
  if (everywhere) {
    for (let again = true; again; ) {
      again = false;
      const walker = document.createTreeWalker(run, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode() as Text | null; node && !again; node = walker.nextNode() as Text | null) {
        const found = tokenIn(node.data, known, flutter);
        if (found) {
          convert(node, found.at, found.placeholder);
          again = true;
        }
      }
    }
    return;
  }
  const node = sel?.anchorNode;
  if (!sel || !node || node.nodeType !== 3 || !run.contains(node)) return;
  const found = tokenIn((node as Text).data, known, flutter, sel.anchorOffset);
  if (found) convert(node as Text, found.at, found.placeholder);
}

/** The editor's state and drawing: its fields, the placeholders offered, and the raw-source mode. */
class Editor {
  readonly icuLike: boolean;
  saved: string;
  nodes: Node[] = [];
  placeholders: Placeholder[] = [];
  raw = false;
  /** The field the placeholder buttons insert into, and where its caret was. */
  lastRun: HTMLElement | null = null;
  lastRange: Range | null = null;
  readonly fieldsBox = h("div", { class: "fields" });
  readonly rawArea: HTMLTextAreaElement;
  /** Buttons inserting the base's placeholders, under the field last focused (at the top before). */
  readonly bar = h("div", { class: "ph-bar", role: "group", "aria-label": "Insert a placeholder" });
  readonly toggle = h("button", { type: "button", class: "link small" });
  readonly note = h("small", { class: "hint", "aria-live": "polite" });
  readonly element: HTMLElement;

  constructor(readonly options: MessageEditorOptions) {
    // `flutter` values are ICU too, read with apostrophes as text (docs/messages.md "Syntaxes").
    this.icuLike = options.syntax === "icu" || options.syntax === "flutter";
    this.saved = options.value;
    this.rawArea = h("textarea", { class: "raw mono", rows: 3, "aria-label": `${options.label}, ${options.syntax === "icu" ? "ICU source" : "source"}`, spellcheck: "false", lang: options.code });
    this.element = h("div", { class: "message-editor" }, this.bar, this.fieldsBox, this.rawArea, h("div", { class: "editor-foot" }, this.toggle, this.note));
    this.rawArea.addEventListener("input", this.changed);
    this.toggle.addEventListener("click", () => this.switchMode());
    this.toggle.hidden = options.readOnly === true;
    this.rawArea.readOnly = options.readOnly === true;
  }

  changed = () => this.options.onInput?.();

  /** Where the caret is in the field, kept for a button that inserts there after focus has moved to it. */
  rememberCaret = () => {
    const sel = getSelection();
    if (this.lastRun && sel && sel.rangeCount > 0 && this.lastRun.contains(sel.anchorNode)) this.lastRange = sel.getRangeAt(0).cloneRange();
  };

  /**
   * A placeholder, native placeholder or tag of the base typed in full becomes its chip, and `#`
   * typed in a plural's case the number's chip, as a translator who knows the syntax would mean
   * them: the keyboard needs no button. In `flutter` any `{name}` typed is the placeholder `name`
   * (gen-l10n has no quoting: it could not be text). While typing, only the token that ends at
   * the caret (text quoted on purpose elsewhere in the field stays text); a paste or a drop
   * converts every token it brought.
   */
  chipTyped(run: HTMLElement, everywhere: boolean): void {
    const known = new Map(this.placeholders.map((p) => [p.source, p]));
    if (run.dataset.plural === "1") known.set("#", { kind: "placeholder", name: "#", source: "#" });
    const flutter = this.options.syntax === "flutter";
    if (known.size > 0 || flutter) chipTokens(run, known, flutter, everywhere);
  }

  runField(list: Piece[], label: string, inPlural: boolean): HTMLElement {
    const readOnly = this.options.readOnly === true;
    const el = h("div", { class: "run", contenteditable: readOnly ? "false" : "plaintext-only", tabindex: readOnly ? 0 : null, role: "textbox", "aria-readonly": readOnly ? "true" : null, "aria-multiline": "true", "aria-label": label, spellcheck: "true", lang: this.options.code, "data-plural": inPlural ? "1" : null });
    el.append(...pieces(list));
    el.addEventListener("focus", () => {
      this.lastRun = el;
      // The placeholder buttons follow the field with the focus: Tab reaches them from it.
      if (el.nextElementSibling !== this.bar) el.after(this.bar);
      this.showBar();
    });
    el.addEventListener("input", (event) => {
      const type = (event as InputEvent).inputType;
      this.chipTyped(el, type === "insertFromPaste" || type === "insertFromDrop" || type === "insertReplacementText");
      this.rememberCaret();
      this.changed();
    });
    for (const type of ["keyup", "mouseup", "blur"]) el.addEventListener(type, this.rememberCaret);
    return el;
  }

  fieldName(path: string[]): string {
    return path.length ? `${this.options.label}, ${path.join(", ")}` : this.options.label;
  }

  /** Runs between choices, and each choice's cases; `path` names the field ("count one"). */
  render(parts: Part[], path: string[], inPlural: boolean, into: HTMLElement): Node[] {
    const out: Node[] = [];
    let run: Piece[] | null = null;
    const flush = () => {
      if (run === null) return;
      const el = this.runField(run, this.fieldName(path), inPlural);
      into.append(el);
      out.push({ kind: "run", el });
      run = null;
    };
    for (const p of parts) {
      if (p.kind !== "choice") {
        (run ??= []).push(p);
        continue;
      }
      flush();
      out.push(this.renderChoice(p, path, into));
    }
    // A message (or case) that is only text, or text after the last choice.
    if (run !== null || out.length === 0) {
      run ??= [];
      flush();
    }
    return out;
  }

  /** A plural or select: a fieldset with one field (or nested fields) per case. */
  renderChoice(p: Choice, path: string[], into: HTMLElement): Node {
    const { code, catalog, languageName } = this.options;
    const rules = p.type === "select" ? undefined : catalog.of(code)?.[p.type === "selectordinal" ? "ordinal" : "cardinal"];
    const set = h("fieldset", { class: `choice ${p.type}` }, h("legend", null, h("code", null, `{${p.argument}}`), " ", p.type === "select" ? "by case" : p.type === "selectordinal" ? "ordinal forms" : `plural forms in ${languageName}`));
    const cases = p.cases.map((c) => {
      const caseBox = h("div", { class: "case" });
      caseBox.append(h("span", { class: "case-name" }, h("code", null, c.selector), p.type === "select" ? null : h("small", { class: "muted" }, categoryHint(rules, c.selector))));
      const casePath = [...path, `${p.argument} ${c.selector}`];
      let caseNodes: Node[];
      if (c.parts.length === 0) {
        const el = this.runField([], this.fieldName(casePath), p.type !== "select");
        caseBox.append(el);
        caseNodes = [{ kind: "run", el }];
      } else caseNodes = this.render(c.parts, casePath, p.type !== "select", caseBox);
      set.append(caseBox);
      return { selector: c.selector, added: c.added, nodes: caseNodes };
    });
    into.append(set);
    return { kind: "choice", choice: { ...p, cases: [] }, cases };
  }

  read(list: Node[]): Part[] {
    return merged(list.flatMap((n): Part[] => (n.kind === "run" ? readRun(n.el) : [{ ...n.choice, cases: n.cases.map((c): Case => ({ selector: c.selector, added: c.added, parts: this.read(c.nodes) })) }])));
  }

  showBar(): void {
    const inPlural = this.lastRun?.dataset.plural === "1";
    const offered: Placeholder[] = [...this.placeholders, ...(inPlural ? [{ kind: "placeholder" as const, name: "#", source: "#" }] : [])];
    const button = (p: Placeholder) =>
      h(
        "button",
        {
          type: "button",
          class: "ph-insert",
          "aria-label": p.name === "#" ? "Insert the number #" : `Insert placeholder ${p.source}`,
          // Keeps the caret in the field for a mouse click; the keyboard comes back through lastRange.
          onmousedown: (e: MouseEvent) => e.preventDefault(),
          onclick: () => this.insert(p),
        },
        chip(p),
      );
    this.bar.replaceChildren(...(offered.length === 0 || this.raw || this.options.readOnly ? [] : [h("span", { class: "muted small" }, "Insert:"), ...offered.map(button)]));
    this.bar.hidden = this.bar.childElementCount === 0;
  }

  insert(p: Placeholder): void {
    const run = this.lastRun ?? this.fieldsBox.querySelector<HTMLElement>(".run");
    if (!run) return;
    run.focus();
    const sel = getSelection()!;
    let range = this.lastRange && run.contains(this.lastRange.startContainer) ? this.lastRange : null;
    if (!range) {
      range = document.createRange();
      range.selectNodeContents(run);
      range.collapse(false);
    }
    range.deleteContents();
    const c = chip(p);
    range.insertNode(c);
    range.setStartAfter(c);
    range.collapse(true);
    sel.removeAllRanges();
    sel.addRange(range);
    this.lastRange = range.cloneRange();
    this.changed();
  }

  show(value: string): void {
    const { base, code, syntax, catalog } = this.options;
    const form = editorForm(value, base, code, syntax, catalog);
    this.placeholders = form.placeholders;
    this.raw = this.raw || form.parts === null;
    this.lastRun = null;
    this.lastRange = null;
    this.fieldsBox.before(this.bar);
    this.fieldsBox.replaceChildren();
    this.nodes = this.raw ? [] : this.render(form.parts!, [], false, this.fieldsBox);
    this.rawArea.value = value;
    this.fieldsBox.hidden = this.raw;
    this.rawArea.hidden = !this.raw;
    this.toggle.textContent = this.raw ? "Edit as fields" : this.options.syntax === "icu" ? "Edit ICU source" : "Edit source";
    this.showBar();
  }

  switchMode(): void {
    if (this.raw) {
      const text = this.rawArea.value;
      if (this.icuLike && text !== "" && readForms(text, this.options.syntax) === null) {
        this.note.textContent = "This text is not valid ICU; fix it here to edit it as fields.";
        return;
      }
      this.raw = false;
      this.note.textContent = "";
      this.show(text);
    } else {
      const text = this.current();
      this.raw = true;
      this.show(text);
    }
    this.focus();
  }

  current = (): string => {
    if (this.raw) return this.rawArea.value;
    const { syntax } = this.options;
    const written = printForms(this.read(this.nodes), syntax);
    if (written === "" || this.saved === "") return written;
    // Unchanged in meaning: keep the saved text as it was spelled (no new history entry for
    // spacing, quoting, or a `<` stored before it was stored as `&lt;`).
    if (shownText(written) === shownText(this.saved)) return this.saved;
    return this.icuLike && sameMessage(written, this.saved, syntax) ? this.saved : written;
  };

  focus = () => (this.raw ? this.rawArea : this.fieldsBox.querySelector<HTMLElement>(".run"))?.focus();

  reset = (value: string) => {
    this.saved = value;
    this.raw = false;
    this.note.textContent = "";
    this.show(value);
  };
}

export function messageEditor(options: MessageEditorOptions): MessageEditor {
  const editor = new Editor(options);
  editor.show(editor.saved);
  return { element: editor.element, value: editor.current, reset: editor.reset, focus: editor.focus };
}

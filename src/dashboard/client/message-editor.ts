import type { PluralCatalog, PluralRulesOf } from "../../messages/plurals.ts";
import type { MessageSyntax } from "../../messages/read.ts";
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

export function messageEditor(options: MessageEditorOptions): MessageEditor {
  const { code, syntax, catalog } = options;
  // `flutter` values are ICU too, read with apostrophes as text (docs/messages.md "Syntaxes").
  const icuLike = syntax === "icu" || syntax === "flutter";
  let saved = options.value;
  let nodes: Node[] = [];
  let placeholders: Placeholder[] = [];
  let raw = false;
  /** The field the placeholder buttons insert into, and where its caret was. */
  let lastRun: HTMLElement | null = null;
  let lastRange: Range | null = null;

  const fieldsBox = h("div", { class: "fields" });
  const rawArea = h("textarea", { class: "raw mono", rows: 3, "aria-label": `${options.label}, ICU source`, spellcheck: "false", lang: code });
  /** Buttons inserting the base's placeholders, under the field last focused (at the top before). */
  const bar = h("div", { class: "ph-bar", role: "group", "aria-label": "Insert a placeholder" });
  const toggle = h("button", { type: "button", class: "link small" });
  const note = h("small", { class: "hint", "aria-live": "polite" });
  const element = h("div", { class: "message-editor" }, bar, fieldsBox, rawArea, h("div", { class: "editor-foot" }, toggle, note));

  const changed = () => options.onInput?.();
  rawArea.addEventListener("input", changed);

  /** Where the caret is in the field, kept for a button that inserts there after focus has moved to it. */
  const rememberCaret = () => {
    const sel = getSelection();
    if (lastRun && sel && sel.rangeCount > 0 && lastRun.contains(sel.anchorNode)) lastRange = sel.getRangeAt(0).cloneRange();
  };

  /**
   * `{name}` typed in full becomes the chip of a placeholder the base has, and `#` typed in a
   * plural's case the number's chip, as a translator who knows ICU would mean them: the keyboard
   * needs no button. While typing, only the token that ends at the caret (text quoted on purpose
   * elsewhere in the field stays text); a paste or a drop converts every token it brought.
   */
  const chipTyped = (run: HTMLElement, everywhere: boolean) => {
    const known = new Map(placeholders.map((p) => [p.source, p]));
    if (run.dataset.plural === "1") known.set("#", { kind: "placeholder", name: "#", source: "#" });
    if (known.size === 0) return;
    const sel = getSelection();
    const convert = (text: Text, m: RegExpMatchArray) => {
      const middle = text.splitText(m.index!);
      const after = middle.splitText(m[0].length);
      middle.replaceWith(chip(known.get(m[0])!));
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
          const m = [...node.data.matchAll(/\{[A-Za-z0-9_]+\}|#/g)].find((x) => known.has(x[0]));
          if (m) {
            convert(node, m);
            again = true;
          }
        }
      }
      return;
    }
    const node = sel?.anchorNode;
    if (!sel || !node || node.nodeType !== 3 || !run.contains(node)) return;
    const m = [...(node as Text).data.slice(0, sel.anchorOffset).matchAll(/\{[A-Za-z0-9_]+\}$|#$/g)].find((x) => known.has(x[0]));
    if (m) convert(node as Text, m);
  };

  const runField = (list: Piece[], label: string, inPlural: boolean): HTMLElement => {
    const el = h("div", { class: "run", contenteditable: "plaintext-only", role: "textbox", "aria-multiline": "true", "aria-label": label, spellcheck: "true", lang: code, "data-plural": inPlural ? "1" : null });
    el.append(...pieces(list));
    el.addEventListener("focus", () => {
      lastRun = el;
      // The placeholder buttons follow the field with the focus: Tab reaches them from it.
      if (el.nextElementSibling !== bar) el.after(bar);
      showBar();
    });
    el.addEventListener("input", (event) => {
      const type = (event as InputEvent).inputType;
      chipTyped(el, type === "insertFromPaste" || type === "insertFromDrop" || type === "insertReplacementText");
      rememberCaret();
      changed();
    });
    for (const type of ["keyup", "mouseup", "blur"]) el.addEventListener(type, rememberCaret);
    return el;
  };

  const fieldName = (path: string[]) => (path.length ? `${options.label}, ${path.join(", ")}` : options.label);

  /** Runs between choices, and each choice's cases; `path` names the field ("count one"). */
  const render = (parts: Part[], path: string[], inPlural: boolean, into: HTMLElement): Node[] => {
    const out: Node[] = [];
    let run: Piece[] | null = null;
    const flush = () => {
      if (run === null) return;
      const el = runField(run, fieldName(path), inPlural);
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
      const rules = p.type === "select" ? undefined : catalog.of(code)?.[p.type === "selectordinal" ? "ordinal" : "cardinal"];
      const set = h("fieldset", { class: `choice ${p.type}` }, h("legend", null, h("code", null, `{${p.argument}}`), " ", p.type === "select" ? "by case" : p.type === "selectordinal" ? "ordinal forms" : `plural forms in ${options.languageName}`));
      const cases = p.cases.map((c) => {
        const caseBox = h("div", { class: "case" });
        const title = h("span", { class: "case-name" }, h("code", null, c.selector), p.type === "select" ? null : h("small", { class: "muted" }, categoryHint(rules, c.selector)));
        caseBox.append(title);
        const inner = c.parts.length === 0 ? [runField([], fieldName([...path, `${p.argument} ${c.selector}`]), p.type !== "select")] : null;
        let caseNodes: Node[];
        if (inner) {
          caseBox.append(inner[0]!);
          caseNodes = [{ kind: "run", el: inner[0]! }];
        } else caseNodes = render(c.parts, [...path, `${p.argument} ${c.selector}`], p.type !== "select", caseBox);
        set.append(caseBox);
        return { selector: c.selector, added: c.added, nodes: caseNodes };
      });
      into.append(set);
      out.push({ kind: "choice", choice: { ...p, cases: [] }, cases });
    }
    // A message (or case) that is only text, or text after the last choice.
    if (run !== null || out.length === 0) {
      run ??= [];
      flush();
    }
    return out;
  };

  const read = (list: Node[]): Part[] =>
    merged(
      list.flatMap((n): Part[] =>
        n.kind === "run" ? readRun(n.el) : [{ ...n.choice, cases: n.cases.map((c): Case => ({ selector: c.selector, added: c.added, parts: read(c.nodes) })) }],
      ),
    );

  const showBar = () => {
    const inPlural = lastRun?.dataset.plural === "1";
    const offered: Placeholder[] = [...placeholders, ...(inPlural ? [{ kind: "placeholder" as const, name: "#", source: "#" }] : [])];
    bar.replaceChildren(
      ...(offered.length === 0 || raw
        ? []
        : [
            h("span", { class: "muted small" }, "Insert:"),
            ...offered.map((p) =>
              h(
                "button",
                {
                  type: "button",
                  class: "ph-insert",
                  "aria-label": p.name === "#" ? "Insert the number #" : `Insert placeholder ${p.source}`,
                  // Keeps the caret in the field for a mouse click; the keyboard comes back through lastRange.
                  onmousedown: (e: MouseEvent) => e.preventDefault(),
                  onclick: () => insert(p),
                },
                chip(p),
              ),
            ),
          ]),
    );
    bar.hidden = bar.childElementCount === 0;
  };

  const insert = (p: Placeholder) => {
    const run = lastRun ?? fieldsBox.querySelector<HTMLElement>(".run");
    if (!run) return;
    run.focus();
    const sel = getSelection()!;
    let range = lastRange && run.contains(lastRange.startContainer) ? lastRange : null;
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
    lastRange = range.cloneRange();
    changed();
  };

  const show = (value: string) => {
    const form = editorForm(value, options.base, code, syntax, catalog);
    placeholders = form.placeholders;
    raw = raw || form.parts === null;
    lastRun = null;
    lastRange = null;
    fieldsBox.before(bar);
    fieldsBox.replaceChildren();
    nodes = raw ? [] : render(form.parts!, [], false, fieldsBox);
    rawArea.value = value;
    fieldsBox.hidden = raw;
    rawArea.hidden = !raw;
    toggle.textContent = raw ? "Edit as fields" : icuLike ? "Edit ICU source" : "Edit source";
    showBar();
  };

  toggle.addEventListener("click", () => {
    if (raw) {
      const text = rawArea.value;
      if (icuLike && text !== "" && readForms(text) === null) {
        note.textContent = "This text is not valid ICU; fix it here to edit it as fields.";
        return;
      }
      raw = false;
      note.textContent = "";
      show(text);
    } else {
      const text = current();
      raw = true;
      show(text);
    }
    focus();
  });

  const current = (): string => {
    if (raw) return rawArea.value;
    const written = printForms(read(nodes), syntax);
    // Unchanged in meaning: keep the saved text as it was spelled (no new history entry for spacing).
    return icuLike && written !== "" && saved !== "" && sameMessage(written, saved) ? saved : written;
  };

  const focus = () => (raw ? rawArea : fieldsBox.querySelector<HTMLElement>(".run"))?.focus();

  show(saved);
  return {
    element,
    value: current,
    reset(value: string) {
      saved = value;
      raw = false;
      note.textContent = "";
      show(value);
    },
    focus,
  };
}

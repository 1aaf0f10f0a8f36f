import { ApiError } from "./api.ts";
import { h, uid, type Child, type Props } from "./dom.ts";

/** Shared building blocks: fields, forms that show their own errors, dialogs, copy buttons. */

export function message(err: unknown): string {
  if (err instanceof ApiError) return err.message.charAt(0).toUpperCase() + err.message.slice(1);
  return err instanceof Error ? err.message : String(err);
}

export function field(label: string, input: HTMLElement, hint?: Child): HTMLElement {
  const id = input.id || uid();
  input.id = id;
  const hintEl = hint ? h("small", { class: "hint", id: `${id}-hint` }, hint) : null;
  if (hintEl) input.setAttribute("aria-describedby", hintEl.id);
  return h("div", { class: "field" }, h("label", { for: id }, label), input, hintEl);
}

export function input(props: Props): HTMLInputElement {
  return h("input", { type: "text", autocomplete: "off", ...props });
}

export function errorBox(): HTMLElement {
  return h("p", { class: "error", role: "alert", hidden: true });
}

export function showError(box: HTMLElement, err: unknown): void {
  box.textContent = message(err);
  box.hidden = false;
}

export function clearError(box: HTMLElement): void {
  box.textContent = "";
  box.hidden = true;
}

/** Marks the input a 400 names (`invalid field "tag": ...`), so the error points at its cause. */
function markField(formEl: HTMLFormElement, err: unknown): void {
  formEl.querySelectorAll("[aria-invalid]").forEach((el) => el.removeAttribute("aria-invalid"));
  // 400s name the field as `invalid field "tag": ...` (docs/architecture.md "Input models").
  const named = err instanceof ApiError ? /\b(?:field|body) "([a-z_]+)"/.exec(err.message)?.[1] : undefined;
  const target = named ? formEl.querySelector<HTMLElement>(`[name="${named}"]`) : null;
  if (target) {
    target.setAttribute("aria-invalid", "true");
    target.focus();
  }
}

export interface FormOptions {
  submit: string;
  onSubmit: (data: Record<string, string>, form: HTMLFormElement) => Promise<void>;
  class?: string;
  label?: string;
  danger?: boolean;
}

/**
 * A form that submits with Enter, disables its button while busy, and shows a failure right under
 * itself (errors show where they happened, docs/dashboard.md "The pages").
 */
export function form(options: FormOptions, ...fields: Child[]): HTMLFormElement {
  const error = errorBox();
  const button = h("button", { type: "submit", class: options.danger ? "danger" : "primary" }, options.submit);
  const el = h("form", { class: options.class ?? "stack", "aria-label": options.label }, fields, h("div", { class: "actions" }, button), error);
  el.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (button.disabled) return;
    clearError(error);
    const data: Record<string, string> = {};
    new FormData(el).forEach((value, key) => {
      if (typeof value === "string") data[key] = data[key] === undefined ? value : `${data[key]},${value}`;
    });
    button.disabled = true;
    el.setAttribute("aria-busy", "true");
    try {
      await options.onSubmit(data, el);
      el.querySelectorAll("[aria-invalid]").forEach((x) => x.removeAttribute("aria-invalid"));
    } catch (err) {
      showError(error, err);
      markField(el, err);
    } finally {
      button.disabled = false;
      el.removeAttribute("aria-busy");
    }
  });
  return el;
}

/** A button that runs an action and shows its failure beside itself. */
export function actionButton(label: string, action: () => Promise<void>, props: Props = {}): HTMLElement {
  const error = h("span", { class: "error inline", role: "alert", hidden: true });
  const button = h("button", { type: "button", ...props }, label);
  button.addEventListener("click", async () => {
    clearError(error);
    button.disabled = true;
    try {
      await action();
    } catch (err) {
      showError(error, err);
    } finally {
      button.disabled = false;
    }
  });
  return h("span", { class: "action" }, button, error);
}

export interface DialogOptions {
  title: string;
  body: Child;
  confirm: string;
  danger?: boolean;
}

/** A modal question; Escape or Cancel answers no. Focus starts on Cancel for destructive ones. */
export function confirmDialog(options: DialogOptions): Promise<boolean> {
  return new Promise((resolve) => {
    const titleId = uid("dlg");
    const cancel = h("button", { type: "button", value: "no" }, "Cancel");
    const ok = h("button", { type: "button", class: options.danger ? "danger" : "primary" }, options.confirm);
    const dialog = h(
      "dialog",
      { "aria-labelledby": titleId },
      h("h2", { id: titleId }, options.title),
      h("div", { class: "dialog-body" }, options.body),
      h("div", { class: "actions end" }, cancel, ok),
    );
    let answer = false;
    cancel.addEventListener("click", () => dialog.close());
    ok.addEventListener("click", () => {
      answer = true;
      dialog.close();
    });
    dialog.addEventListener("close", () => {
      dialog.remove();
      resolve(answer);
    });
    document.body.append(dialog);
    dialog.showModal();
    (options.danger ? cancel : ok).focus();
  });
}

async function copyText(text: string, source: HTMLInputElement | HTMLTextAreaElement): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Clipboard API needs a secure context (https or localhost); plain http on a LAN address
    // still allows the older selection-based copy.
    source.select();
    document.execCommand("copy");
  }
}

/** A read-only value with a Copy button (tokens, URLs, curl lines). */
export function copyField(value: string, label: string, props: Props = {}): HTMLElement {
  const box = h("input", { type: "text", readonly: true, value, "aria-label": label, class: "mono", spellcheck: "false", ...props });
  const button = h("button", { type: "button", class: "copy-button", "aria-label": `Copy ${label}` }, "Copy");
  button.addEventListener("click", async () => {
    await copyText(value, box);
    button.textContent = "Copied";
    setTimeout(() => (button.textContent = "Copy"), 1500);
  });
  box.addEventListener("focus", () => box.select());
  return h("div", { class: "copy" }, box, button);
}

export function empty(title: string, ...body: Child[]): HTMLElement {
  return h("div", { class: "empty" }, h("p", { class: "empty-title" }, title), body);
}

export function badge(text: string, kind: string, props: Props = {}): HTMLElement {
  return h("span", { class: `badge ${kind}`, ...props }, text);
}

export function section(title: string, ...body: Child[]): HTMLElement {
  return h("section", { class: "card" }, h("h2", null, title), body);
}

/** A page's own failure to load, with a way to try again. */
export function loadError(err: unknown, retry: () => void): HTMLElement {
  return h("div", { class: "error-page", role: "alert" }, h("p", null, message(err)), h("button", { type: "button", onclick: retry }, "Try again"));
}

/** A modal holding a form or details; returns a close function. Escape closes it. */
export function openDialog(title: string, ...body: Child[]): { dialog: HTMLDialogElement; close: () => void } {
  const titleId = uid("dlg");
  const closeButton = h("button", { type: "button", class: "icon", "aria-label": "Close" }, "×");
  const dialog = h("dialog", { "aria-labelledby": titleId }, h("div", { class: "dialog-head" }, h("h2", { id: titleId }, title), closeButton), h("div", { class: "dialog-body" }, body));
  closeButton.addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  dialog.querySelector<HTMLElement>("[autofocus]")?.focus();
  return { dialog, close: () => dialog.close() };
}

import { h, uid } from "./dom.ts";
import { input } from "./ui.ts";

/**
 * A language-code field that suggests common codes but accepts any BCP 47 tag, and
 * names what was typed (the browser's own Intl data, nothing downloaded). The server has the last
 * word (src/authoring/language-codes.ts); this only gives feedback while typing.
 */
const COMMON = (
  "en en-US en-GB de de-AT de-CH fr fr-CA es es-419 es-MX it pt pt-BR pt-PT nl sv da nb fi is pl cs sk hu ro bg el " +
  "tr ru uk be sr hr sl lt lv et ca eu gl ga cy ar he fa ur hi bn ta te mr th vi id ms fil ja ko zh-Hans zh-Hant zh-CN zh-TW sw af am"
).split(" ");

/** The same shape the server accepts: letters, then '-'-separated letters/digits. */
const SAFE_TAG = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/;

const names = new Intl.DisplayNames(["en"], { type: "language", fallback: "none" });

export function describeCode(raw: string): { ok: boolean; text: string; canonical?: string } {
  const code = raw.trim();
  if (!code) return { ok: false, text: "Type a code such as de, pt-BR or zh-Hant." };
  if (!SAFE_TAG.test(code)) return { ok: false, text: `"${code}" is not a language code (letters, digits and "-", like pt-BR).` };
  let canonical: string;
  try {
    canonical = Intl.getCanonicalLocales(code)[0]!;
  } catch {
    return { ok: false, text: `"${code}" is not a valid BCP 47 language tag.` };
  }
  let name: string | undefined;
  try {
    name = names.of(canonical);
  } catch {
    name = undefined;
  }
  return { ok: true, canonical, text: name ? `${name} (${canonical})` : `${canonical}: valid tag, no name known for it` };
}

let listId: string | undefined;

function datalist(): string {
  if (listId && document.getElementById(listId)) return listId;
  listId = uid("langs");
  const list = h(
    "datalist",
    { id: listId },
    COMMON.map((code) => h("option", { value: code }, names.of(code) ?? code)),
  );
  document.body.append(list);
  return listId;
}

export interface LanguagePicker {
  input: HTMLInputElement;
  hint: HTMLElement;
}

export function languagePicker(name: string, props: Record<string, string | boolean> = {}): LanguagePicker {
  const el = input({ name, list: datalist(), required: true, spellcheck: "false", autocapitalize: "off", placeholder: "e.g. de or pt-BR", class: "code-input", ...props });
  const hint = h("small", { class: "hint", "aria-live": "polite" }, describeCode("").text);
  const update = () => {
    const d = describeCode(el.value);
    hint.textContent = d.text;
    hint.classList.toggle("bad", !d.ok && el.value.trim() !== "");
  };
  el.addEventListener("input", update);
  queueMicrotask(update);
  return { input: el, hint };
}

/** A labelled picker field (label, input, the live description). */
export function languageField(label: string, name: string, props: Record<string, string | boolean> = {}): HTMLElement {
  const picker = languagePicker(name, props);
  picker.input.id = uid();
  picker.hint.id = `${picker.input.id}-hint`;
  picker.input.setAttribute("aria-describedby", picker.hint.id);
  return h("div", { class: "field" }, h("label", { for: picker.input.id }, label), picker.input, picker.hint);
}

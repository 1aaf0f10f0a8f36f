import { del, patch, post, projectPath, put } from "./api.ts";
import { h, type Child } from "./dom.ts";
import type { KeyView as KeyItem } from "../../authoring/keys.ts";
import type { Language } from "./layout.ts";
import { badge, confirmDialog, field, form, input, message, openDialog } from "./ui.ts";

/**
 * Keys by languages, edited in place (docs/dashboard.md "The pages"). Each cell saves on leaving it
 * (or Ctrl+Enter, which also moves down a row); Escape puts the saved value back. A missing value
 * is shaded so gaps show at a glance; a translated value has an Approve button.
 */
export type { KeyView as KeyItem } from "../../authoring/keys.ts";

export interface GridOptions {
  pid: string;
  languages: Language[];
  /** After any change that moves the progress numbers. */
  changed: () => void;
  /** After a key was renamed or deleted (the list is re-read). */
  reload: () => void;
}

type Status = "missing" | "translated" | "approved";

function cell(item: KeyItem, lang: Language, options: GridOptions): HTMLElement {
  const current = item.translations[lang.code];
  let saved = current?.value ?? "";
  let status: Status = current ? current.status : "missing";
  const label = `${lang.code} translation of ${item.key}`;
  const area = h("textarea", { rows: 1, "aria-label": label, spellcheck: "true", lang: lang.code, placeholder: "Untranslated", "data-lang": lang.code });
  area.value = saved;
  const statusEl = h("span", { class: "cell-status" });
  const note = h("span", { class: "cell-note", "aria-live": "polite" });
  const approve = h("button", { type: "button", class: "approve", "aria-label": `Approve ${label}` }, "Approve");
  const td = h("td", { class: "cell" }, h("span", { class: "cell-lang" }, lang.code), area, h("div", { class: "cell-foot" }, statusEl, approve, note));

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
      const reply = await put<{ value: string; status: Status }>(projectPath(options.pid, "keys", item.id, "translations", lang.code), { value });
      saved = reply.value;
      status = reply.status;
      td.classList.remove("dirty");
      note.textContent = "Saved";
      show();
      options.changed();
    } catch (err) {
      fail(err);
    }
  };
  area.addEventListener("input", () => {
    const dirty = area.value !== saved;
    td.classList.toggle("dirty", dirty);
    approve.hidden = status !== "translated" || dirty;
  });
  area.addEventListener("blur", () => void save());
  area.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && area.value !== saved) {
      event.preventDefault();
      area.value = saved;
      td.classList.remove("dirty");
      note.textContent = "";
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
  return td;
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
      field("Key", input({ name: "key", value: item.key, required: true, maxlength: 512, class: "mono", autofocus: true })),
      field("Context", h("textarea", { name: "context", rows: 3, maxlength: 2000, value: item.context ?? "" }), "Tells translators where and how the string is used."),
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
  const head = h(
    "th",
    { scope: "row", class: "keycell" },
    h("code", { class: "key" }, item.key),
    item.context ? h("p", { class: "context" }, item.context) : null,
    h("button", { type: "button", class: "link small", "aria-label": `Edit key ${item.key}`, onclick: () => editKey(item, options) }, "Edit"),
  );
  return h("tr", null, head, options.languages.map((l) => cell(item, l, options)));
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

import { post, projectPath } from "../api.ts";
import { fill, h, plural } from "../dom.ts";
import { acceptAttribute, formatNames, formatOfFile, importFormats } from "../formats.ts";
import { projectLanguages, projectPage, type Language } from "../layout.ts";
import { link, type Ctx } from "../router.ts";
import { field, form, section } from "../ui.ts";
import { IMPORT_FILE_MAX_BYTES } from "../../../formats/limits.ts";

/**
 * Import an existing file (docs/product.md §4, import; docs/dashboard.md "Import"), in any format
 * of the registry, which the server lists in the page's config (docs/formats.md). The form first
 * asks for a dry run and shows what would change on the page; only "Import" changes anything.
 */
/** Changes listed in the preview; the rest are counted. */
const PREVIEW_LISTED = 50;

/** The language option for a file that names its own languages (XLIFF, .xcstrings, PO's Language). */
const FROM_FILE = "";

interface ImportReply {
  created_keys: number;
  updated_translations: number;
  updated_keys: number;
  unchanged: number;
  deleted_keys: number;
  problems: number;
  changes: { key: string; change: "created" | "updated" | "deleted" }[];
  changes_truncated?: true;
  languages?: string[];
  source_differs?: { key: string; language_code: string }[];
}

/**
 * A file's text: UTF-16 by its byte order mark (Apple's `.strings` often are), else UTF-8. Decoded
 * strictly, as the client does: a broken file is refused here, where decoding it loosely would put
 * U+FFFD in place of what could not be read and import that (docs/formats.md "XML and bad files").
 */
async function fileText(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const utf16 = bytes[0] === 0xff && bytes[1] === 0xfe ? "utf-16le" : bytes[0] === 0xfe && bytes[1] === 0xff ? "utf-16be" : null;
  try {
    return new TextDecoder(utf16 ?? "utf-8", { fatal: true }).decode(utf16 ? bytes.subarray(2) : bytes);
  } catch {
    throw new Error(
      utf16
        ? `${file.name}: not valid UTF-16 (a lone surrogate, or an odd number of bytes), though it starts with a UTF-16 byte order mark`
        : `${file.name}: not UTF-8 text; save it as UTF-8, or as UTF-16 with a byte order mark`,
    );
  }
}

const MARK = { created: "+", updated: "~", deleted: "−" } as const;

/** The file's format from its extension, and its language when the file names one. */
function onFileChosen(file: HTMLInputElement, fields: ImportFields, languages: Language[], result: HTMLElement): () => Promise<void> {
  return async () => {
    const chosen = file.files?.[0];
    if (!chosen) return;
    const detected = formatOfFile(chosen.name);
    if (detected) fields.format.value = detected;
    let text = "";
    try {
      if (chosen.size <= IMPORT_FILE_MAX_BYTES) text = await fileText(chosen);
    } catch (err) {
      fields.content.value = "";
      fill(result, h("p", { class: "error", role: "alert" }, (err as Error).message));
      return;
    }
    fields.content.value = text;
    fill(result);
    // A file of several languages names them; one that names its language (ARB's @@locale) preselects it.
    if (importFormats().find((f) => f.name === detected)?.multi_language) {
      fields.language.value = FROM_FILE;
      return;
    }
    const locale = (/"@@locale"\s*:\s*"([^"]+)"/.exec(text)?.[1] ?? /^"Language: ([^\\"]+)\\n"/m.exec(text)?.[1])?.replace(/_/g, "-").toLowerCase();
    const match = languages.find((l) => l.code.toLowerCase() === locale);
    if (match) fields.language.value = match.code;
  };
}

interface ImportFields {
  language: HTMLSelectElement;
  format: HTMLSelectElement;
  content: HTMLTextAreaElement;
}

type Send = (data: Record<string, string>, dryRun: boolean) => Promise<ImportReply>;

const into = (data: Record<string, string>, reply: ImportReply) => (reply.languages ? reply.languages.join(", ") : data.language_code || "the file's language");

/** "Import": the real run of what the preview showed. */
function applyButton(pid: string, send: Send, data: Record<string, string>, result: HTMLElement): { button: HTMLButtonElement; error: HTMLElement } {
  const button = h("button", { type: "button", class: "primary" }, "Import");
  const error = h("p", { class: "error", role: "alert", hidden: true });
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const reply = await send(data, false);
      fill(
        result,
        h(
          "div",
          { class: "success", role: "status" },
          h("p", null, `Imported into ${into(data, reply)}: ${plural(reply.created_keys, "new key")}, ${plural(reply.updated_translations, "translation")} set.`),
          link(`/projects/${encodeURIComponent(pid)}/keys`, "Back to the keys"),
        ),
      );
    } catch (err) {
      button.disabled = false;
      error.hidden = false;
      error.textContent = err instanceof Error ? err.message : String(err);
    }
  });
  return { button, error };
}

/** What a dry run says would change, with "Import" to do it. */
function previewOf(data: Record<string, string>, preview: ImportReply, apply: { button: HTMLButtonElement; error: HTMLElement }): HTMLElement {
  const listed = preview.changes.slice(0, PREVIEW_LISTED);
  const more = preview.changes.length - listed.length + (preview.changes_truncated ? 1 : 0);
  return h(
    "div",
    { class: "preview", role: "region", "aria-label": "Preview of the import" },
    h(
      "p",
      null,
      `Preview for ${into(data, preview)}, nothing changed yet: ${plural(preview.created_keys, "new key")}, ${plural(preview.updated_translations, "translation")} to set, ` +
        `${plural(preview.deleted_keys, "key")} to delete, ${preview.unchanged} unchanged` +
        (preview.problems > 0 ? `; ${plural(preview.problems, "value")} with message problems.` : "."),
    ),
    listed.length > 0 ? h("ul", { class: "mono changes" }, listed.map((c) => h("li", null, `${MARK[c.change]} ${c.key}`))) : null,
    more > 0 ? h("p", null, `…and ${more}${preview.changes_truncated ? "+" : ""} more.`) : null,
    (preview.source_differs ?? []).length > 0
      ? h("p", { class: "warning" }, `Not imported, because the file's source text differs from the base string: ${preview.source_differs!.map((d) => `${d.key} [${d.language_code}]`).join(", ")}.`)
      : null,
    preview.changes.length > 0 ? h("div", { class: "actions" }, apply.button) : h("p", null, "Nothing to import."),
    apply.error,
  );
}

export function importPage(ctx: Ctx) {
  const pid = ctx.params.pid!;
  return projectPage(pid, "keys", "Import", async () => {
    const languages = await projectLanguages(pid);
    const result = h("div", { "aria-live": "polite" });
    const fields: ImportFields = {
      language: h("select", { name: "language_code" }, [...languages.map((l) => h("option", { value: l.code }, `${l.code} · ${l.name}`)), h("option", { value: FROM_FILE }, "Named in the file (XLIFF, String Catalog, PO)")]),
      format: h("select", { name: "format", required: true }, importFormats().map((f) => h("option", { value: f.name }, f.label))),
      content: h("textarea", { name: "content", rows: 10, class: "mono", spellcheck: "false", placeholder: '{"checkout.pay_button": "Pay now"}' }),
    };
    const file = h("input", { type: "file", name: "file", accept: acceptAttribute() });
    file.addEventListener("change", onFileChosen(file, fields, languages, result));
    const send: Send = (data, dryRun) =>
      post<ImportReply>(projectPath(pid, "import"), {
        ...(data.language_code ? { language_code: data.language_code } : {}),
        format: data.format,
        content: data.content,
        dry_run: dryRun,
        delete_missing: data.delete_missing === "true",
      });
    const body = form(
      {
        submit: "Preview import",
        label: "Import translations",
        onSubmit: async (data) => {
          fill(result); // what an earlier file or preview said
          if (!data.content.trim()) throw new Error("Choose a file or paste its content first.");
          if (data.content.length > IMPORT_FILE_MAX_BYTES) throw new Error(`The file is larger than ${IMPORT_FILE_MAX_BYTES / 1024 / 1024} MB; split it first.`);
          const preview = await send(data, true);
          fill(result, previewOf(data, preview, applyButton(pid, send, data, result)));
        },
      },
      h("div", { class: "row-fields" }, field("Language", fields.language), field("Format", fields.format)),
      field("File", file, `${formatNames(importFormats(), "or")}. Keys that do not exist yet are created; existing translations are overwritten. You see what changes before anything does.`),
      field("…or paste the content", fields.content),
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "delete_missing", value: "true" }), " Delete the keys that are not in it (an import of the base strings only)"),
    );
    return [section("Import translations", body, result)];
  });
}

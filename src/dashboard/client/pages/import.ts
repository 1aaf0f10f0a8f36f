import { post, projectPath } from "../api.ts";
import { fill, h, plural } from "../dom.ts";
import { acceptAttribute, formatNames, formatOfFile, importFormats } from "../formats.ts";
import { projectLanguages, projectPage } from "../layout.ts";
import { link, type Ctx } from "../router.ts";
import { field, form, section } from "../ui.ts";

/**
 * Import an existing file into one language (docs/product.md §4, import), in any format of the
 * registry, which the server lists in the page's config (docs/formats.md).
 */
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;

export function importPage(ctx: Ctx) {
  const pid = ctx.params.pid!;
  return projectPage(pid, "keys", "Import", async () => {
    const languages = await projectLanguages(pid);
    const result = h("div", { "aria-live": "polite" });
    const language = h("select", { name: "language_code", required: true }, languages.map((l) => h("option", { value: l.code }, `${l.code} · ${l.name}`)));
    const format = h("select", { name: "format", required: true }, importFormats().map((f) => h("option", { value: f.name }, f.label)));
    const file = h("input", { type: "file", name: "file", accept: acceptAttribute() });
    const content = h("textarea", { name: "content", rows: 10, class: "mono", spellcheck: "false", placeholder: '{"checkout.pay_button": "Pay now"}' });

    file.addEventListener("change", async () => {
      const chosen = file.files?.[0];
      if (!chosen) return;
      const detected = formatOfFile(chosen.name);
      if (detected) format.value = detected;
      // A file that names its own language (ARB's @@locale) preselects it when the project has it.
      const text = chosen.size <= IMPORT_MAX_BYTES ? await chosen.text() : "";
      content.value = text;
      const locale = /"@@locale"\s*:\s*"([^"]+)"/.exec(text)?.[1]?.replace(/_/g, "-").toLowerCase();
      const match = languages.find((l) => l.code.toLowerCase() === locale);
      if (match) language.value = match.code;
    });

    const body = form(
      {
        submit: "Import",
        label: "Import translations",
        onSubmit: async (data) => {
          if (!data.content.trim()) throw new Error("Choose a file or paste its content first.");
          if (data.content.length > IMPORT_MAX_BYTES) throw new Error("The file is larger than 10 MB; split it first.");
          const reply = await post<{ created_keys: number; updated_translations: number }>(projectPath(pid, "import"), {
            language_code: data.language_code,
            format: data.format,
            content: data.content,
          });
          fill(
            result,
            h(
              "div",
              { class: "success", role: "status" },
              h("p", null, `Imported into ${data.language_code}: ${plural(reply.created_keys, "new key")}, ${plural(reply.updated_translations, "translation")} set.`),
              link(`/projects/${encodeURIComponent(pid)}/keys`, "Back to the keys"),
            ),
          );
        },
      },
      h("div", { class: "row-fields" }, field("Language", language), field("Format", format)),
      field("File", file, `${formatNames(importFormats(), "or")}. Keys that do not exist yet are created; existing translations are overwritten.`),
      field("…or paste the content", content),
    );
    return [section("Import translations", body, result)];
  });
}

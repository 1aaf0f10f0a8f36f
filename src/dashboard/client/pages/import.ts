import { post, projectPath } from "../api.ts";
import { fill, h, plural } from "../dom.ts";
import { projectLanguages, projectPage } from "../layout.ts";
import { link, type Ctx } from "../router.ts";
import { field, form, section } from "../ui.ts";

/** Import existing JSON, YAML or ARB files into one language (docs/product.md §4, import). */
const FORMATS = [
  ["json", "JSON (flat key → string)"],
  ["yaml", "YAML (flat key → string)"],
  ["arb", "ARB (Flutter)"],
] as const;

export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;

function formatOf(fileName: string): string | null {
  const ext = fileName.toLowerCase().split(".").pop();
  if (ext === "json") return "json";
  if (ext === "yaml" || ext === "yml") return "yaml";
  if (ext === "arb") return "arb";
  return null;
}

export function importPage(ctx: Ctx) {
  const pid = ctx.params.pid!;
  return projectPage(pid, "keys", "Import", async () => {
    const languages = await projectLanguages(pid);
    const result = h("div", { "aria-live": "polite" });
    const language = h("select", { name: "language_code", required: true }, languages.map((l) => h("option", { value: l.code }, `${l.code} · ${l.name}`)));
    const format = h("select", { name: "format", required: true }, FORMATS.map(([v, label]) => h("option", { value: v }, label)));
    const file = h("input", { type: "file", name: "file", accept: ".json,.yaml,.yml,.arb,application/json,application/yaml" });
    const content = h("textarea", { name: "content", rows: 10, class: "mono", spellcheck: "false", placeholder: '{"checkout.pay_button": "Pay now"}' });

    file.addEventListener("change", async () => {
      const chosen = file.files?.[0];
      if (!chosen) return;
      const detected = formatOf(chosen.name);
      if (detected) format.value = detected;
      // An ARB file names its own language; preselect it when the project has it.
      const text = chosen.size <= IMPORT_MAX_BYTES ? await chosen.text() : "";
      content.value = text;
      const locale = /"@@locale"\s*:\s*"([^"]+)"/.exec(text)?.[1]?.replace(/_/g, "-").toLowerCase();
      const match = languages.find((l) => l.code.toLowerCase() === locale);
      if (detected === "arb" && match) language.value = match.code;
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
      field("File", file, "JSON, YAML or ARB. Keys that do not exist yet are created; existing translations are overwritten."),
      field("…or paste the content", content),
    );
    return [section("Import translations", body, result)];
  });
}

import { can, del, isAdmin, post, projectPath } from "../api.ts";
import { h, plural, time } from "../dom.ts";
import { languageField } from "../language-picker.ts";
import { projectLanguages, projectPage, roleOnly } from "../layout.ts";
import { loadProgress } from "../progress.ts";
import { resolve, type Ctx } from "../router.ts";
import { actionButton, badge, confirmDialog, field, form, input, section } from "../ui.ts";
import { LANGUAGE_NAME_MAX_LENGTH } from "../../../authoring/limits.ts";

/** Add (any BCP 47 code), remove, see the base (docs/dashboard.md "The pages"). */
export function languagesPage(ctx: Ctx) {
  const pid = ctx.params.pid!;
  return projectPage(pid, "languages", "Languages", async (project) => {
    const [languages, progress] = await Promise.all([projectLanguages(pid), loadProgress(pid)]);
    const counts = new Map(progress.languages.map((l) => [l.code, l]));
    const rows = languages.map((l) => {
      const translated = counts.get(l.code)?.translated ?? 0;
      const remove = async () => {
        const ok = await confirmDialog({
          title: `Remove ${l.name}?`,
          body: [
            h("p", null, `This deletes the ${l.code} column and its ${plural(translated, "translation")}. `),
            h("p", null, "Published releases keep their files; the next release will not ship this language."),
          ],
          confirm: `Remove ${l.code}`,
          danger: true,
        });
        if (!ok) return;
        await del(projectPath(pid, "languages", l.code));
        resolve();
      };
      return h(
        "tr",
        null,
        h("td", null, h("code", null, l.code)),
        h("td", null, l.name, l.is_base_language ? [" ", badge("base", "base")] : null),
        h("td", { class: "num" }, `${translated}/${counts.get(l.code)?.total_keys ?? progress.total_keys}`),
        h("td", { class: "hide-narrow" }, time(l.created_at)),
        h(
          "td",
          { class: "end" },
          l.is_base_language
            ? h("span", { class: "muted small" }, "Base language: change it in Settings to remove it")
            : isAdmin()
              ? actionButton("Remove", remove, { class: "danger-link", "aria-label": `Remove ${l.code}` })
              : null,
        ),
      );
    });
    const table = h(
      "table",
      { class: "list" },
      h("thead", null, h("tr", null, h("th", null, "Code"), h("th", null, "Name"), h("th", { class: "num" }, "Translated"), h("th", { class: "hide-narrow" }, "Added"), h("th", null, h("span", { class: "sr-only" }, "Actions")))),
      h("tbody", null, rows),
    );
    const add = can("publisher")
      ? section(
          "Add a language",
          form(
            {
              submit: "Add language",
              class: "row-form",
              label: "Add a language",
              onSubmit: async (data) => {
                await post(projectPath(pid, "languages"), data.name ? { code: data.code, name: data.name } : { code: data.code });
                resolve();
              },
            },
            languageField("Language code", "code", { autofocus: languages.length === 1 }),
            field("Display name (optional)", input({ name: "name", maxlength: LANGUAGE_NAME_MAX_LENGTH, placeholder: "Named from the code if empty" })),
          ),
        )
      : roleOnly("publisher", "add languages");
    return [
      section(`${plural(languages.length, "language")} in ${project.name}`, h("div", { class: "table-wrap" }, table),
        languages.length === 1 ? h("p", { class: "note" }, "Only the base language so far. Add the languages you translate into.") : null),
      add,
    ];
  });
}

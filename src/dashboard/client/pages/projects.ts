import { get, isGlobalAdmin, post, session } from "../api.ts";
import { h, time } from "../dom.ts";
import { languageField } from "../language-picker.ts";
import { setTitle, type Project } from "../layout.ts";
import { link, navigate } from "../router.ts";
import { empty, field, form, input, section } from "../ui.ts";
import { PROJECT_NAME_MAX_LENGTH } from "../../../authoring/limits.ts";

/** The project list and the create form (docs/dashboard.md "The pages"). */
export async function projectsPage() {
  setTitle("Projects");
  session.projectRole = null;
  const { items } = await get<{ items: Project[] }>("/projects");
  const create = isGlobalAdmin()
    ? section(
        "New project",
        form(
          {
            submit: "Create project",
            class: "row-form",
            label: "New project",
            onSubmit: async (data) => {
              const project = await post<Project>("/projects", { name: data.name, base_language_code: data.base_language_code });
              navigate(`/projects/${encodeURIComponent(project.id)}/keys`);
            },
          },
          field("Name", input({ name: "name", required: true, maxlength: PROJECT_NAME_MAX_LENGTH, placeholder: "e.g. Mobile app", autofocus: items.length === 0 })),
          languageField("Base language", "base_language_code", { value: "en" }),
        ),
      )
    : null;
  const list = items.length
    ? h(
        "ul",
        { class: "project-list" },
        items.map((p) =>
          h(
            "li",
            { class: "card project-card" },
            h("h2", null, link(`/projects/${encodeURIComponent(p.id)}/keys`, p.name)),
            h(
              "p",
              { class: "muted small" },
              "Base language ",
              h("code", null, p.base_language_code),
              " · created ",
              time(p.created_at),
              // Your role, and a translator's or reviewer's languages (docs/dashboard.md "Roles").
              p.role && !isGlobalAdmin() ? [" · ", h("span", { class: "project-role" }, p.role_languages ? `${p.role} (${p.role_languages.join(", ")})` : p.role)] : null,
            ),
          ),
        ),
      )
    : empty(
        "No projects yet.",
        h("p", null, isGlobalAdmin() ? "Create one below: a name and the language your source strings are written in." : "Ask an admin to create a project for you."),
      );
  return [h("div", { class: "page-head" }, h("h1", null, "Projects")), list, create];
}

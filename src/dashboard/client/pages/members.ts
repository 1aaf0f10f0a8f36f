import type { MemberView } from "../../../members/members.ts";
import { LANGUAGE_LIMITED_ROLES, PROJECT_ROLE_NAMES } from "../../../members/limits.ts";
import { del, get, projectPath, put, type User } from "../api.ts";
import { h, uid } from "../dom.ts";
import { adminOnly, projectLanguages, projectPage } from "../layout.ts";
import { resolve, type Ctx } from "../router.ts";
import { actionButton, confirmDialog, empty, field, form, section } from "../ui.ts";

/** What each role may do, in the words of the rights table (docs/dashboard-api.md "Project roles"). */
const ROLE_TEXT: Record<string, string> = {
  viewer: "reads everything",
  translator: "edits translations of its languages",
  reviewer: "approves in its languages",
  developer: "keys, imports, every language",
  publisher: "languages and releases",
  admin: "settings, tokens, webhooks, members",
};

function roleSelect(value = "translator"): HTMLSelectElement {
  const select = h("select", { name: "role", required: true }, PROJECT_ROLE_NAMES.map((r) => h("option", { value: r }, `${r}: ${ROLE_TEXT[r]}`)));
  select.value = value;
  return select;
}

/**
 * A project's members (docs/dashboard.md "Members"): who holds which role, a translator's or
 * reviewer's languages, adding a user with a role, removing one. For the project's admins.
 */
export function membersPage(ctx: Ctx) {
  const pid = ctx.params.pid!;
  return projectPage(pid, "members", "Members", async (project) => {
    const note = adminOnly("see and change the members of a project");
    if (note) return [note];
    const [members, users, languages] = await Promise.all([
      get<{ items: MemberView[]; default_role: string }>(projectPath(pid, "members")),
      get<{ items: User[] }>("/users"),
      projectLanguages(pid),
    ]);
    const rows = members.items.map((m) =>
      h(
        "tr",
        null,
        h("td", null, m.user.name, h("div", { class: "muted small" }, m.user.email)),
        h("td", null, h("code", { class: "member-role" }, m.role)),
        h("td", null, m.languages ? m.languages.join(", ") : h("span", { class: "muted" }, "all")),
        h(
          "td",
          { class: "actions" },
          actionButton(
            "Remove…",
            async () => {
              const ok = await confirmDialog({ title: `Remove ${m.user.name}?`, body: h("p", null, `They then hold the default role (${members.default_role}) in ${project.name}.`), confirm: "Remove", danger: true });
              if (!ok) return;
              await del(projectPath(pid, "members", m.user.id));
              resolve();
            },
            { class: "danger", "aria-label": `Remove ${m.user.name}` },
          ),
        ),
      ),
    );
    const table = members.items.length
      ? h("div", { class: "table-wrap" }, h("table", null, h("thead", null, h("tr", null, h("th", null, "User"), h("th", null, "Role"), h("th", null, "Languages"), h("th", null, ""))), h("tbody", null, rows)))
      : empty("No members with a role of their own yet.");

    const globalAdmins = new Set(users.items.filter((u) => u.role === "admin").map((u) => u.id));
    const userSelect = h("select", { name: "user", required: true }, users.items.filter((u) => !globalAdmins.has(u.id)).map((u) => h("option", { value: u.id }, `${u.name} <${u.email}>`)));
    const langBoxes = languages.map((l) => {
      const id = uid("lang");
      return h("label", { class: "check", for: id }, h("input", { type: "checkbox", id, name: "languages", value: l.code }), h("span", null, h("code", null, l.code), " ", l.name));
    });
    const langSet = h("fieldset", { class: "member-languages" }, h("legend", null, "Languages (translator and reviewer; none ticked: all)"), h("div", { class: "stack" }, langBoxes));
    const role = roleSelect();
    const showLanguages = () => (langSet.hidden = !(LANGUAGE_LIMITED_ROLES as readonly string[]).includes(role.value));
    role.addEventListener("change", showLanguages);
    showLanguages();
    const add = section(
      "Add a member or change a role",
      form(
        {
          submit: "Save role",
          label: "Member role",
          onSubmit: async (data) => {
            const limited = (LANGUAGE_LIMITED_ROLES as readonly string[]).includes(data.role!);
            const codes = data.languages ? data.languages.split(",") : [];
            await put(projectPath(pid, "members", data.user!), { role: data.role, ...(limited && codes.length ? { languages: codes } : {}) });
            resolve();
          },
        },
        field("User", userSelect),
        field("Role", role),
        langSet,
      ),
    );
    return [
      section(`Members of ${project.name}`, h("p", { class: "muted small" }, `Global admins hold every right. Everyone else without a role here: ${members.default_role}.`), table),
      add,
    ];
  });
}

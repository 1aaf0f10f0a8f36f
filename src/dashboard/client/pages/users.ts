import { del, get, isGlobalAdmin, patch, post, session, type User } from "../api.ts";
import { h, time } from "../dom.ts";
import { adminOnly, setTitle } from "../layout.ts";
import { resolve } from "../router.ts";
import { actionButton, badge, confirmDialog, errorBox, field, form, input, section, showError, clearError } from "../ui.ts";
import { PASSWORD_MIN_LENGTH, USER_NAME_MAX_LENGTH } from "../../../accounts/limits.ts";

/** Admins add users, change roles, delete users (docs/dashboard.md "The pages"). */
function roleSelect(u: User): HTMLElement {
  const error = errorBox();
  const select = h(
    "select",
    { "aria-label": `Role of ${u.email}` },
    h("option", { value: "member", selected: u.role === "member" }, "member"),
    h("option", { value: "admin", selected: u.role === "admin" }, "admin"),
  );
  select.addEventListener("change", async () => {
    clearError(error);
    select.disabled = true;
    try {
      await patch(`/users/${encodeURIComponent(u.id)}`, { role: select.value });
      u.role = select.value as User["role"];
    } catch (err) {
      select.value = u.role;
      showError(error, err);
    } finally {
      select.disabled = false;
    }
  });
  return h("div", null, select, error);
}

export async function usersPage() {
  setTitle("Users");
  session.projectRole = null; // outside a project: only the global role counts
  const { items } = await get<{ items: User[] }>("/users");
  const me = session.user;
  const rows = items.map((u) =>
    h(
      "tr",
      null,
      h("td", null, u.name, u.id === me?.id ? [" ", badge("you", "base")] : null, u.break_glass ? [" ", badge("break-glass", "draft", { title: "Made with phrasebook user create: signs in with a password even where password sign-in is off" })] : null),
      h("td", null, u.email),
      h("td", null, isGlobalAdmin() && u.id !== me?.id ? roleSelect(u) : u.role),
      h("td", { class: "hide-narrow" }, time(u.created_at)),
      h(
        "td",
        { class: "end" },
        isGlobalAdmin() && u.id !== me?.id
          ? actionButton(
              "Delete",
              async () => {
                const ok = await confirmDialog({
                  title: `Delete ${u.name}?`,
                  body: `${u.email} can no longer log in. Releases they created stay listed.`,
                  confirm: "Delete user",
                  danger: true,
                });
                if (!ok) return;
                await del(`/users/${encodeURIComponent(u.id)}`);
                resolve();
              },
              { class: "danger-link", "aria-label": `Delete ${u.email}` },
            )
          : null,
      ),
    ),
  );
  const add = isGlobalAdmin()
    ? section(
        "Add a user",
        form(
          {
            submit: "Add user",
            class: "row-form",
            label: "Add a user",
            onSubmit: async (data) => {
              await post("/users", { name: data.name, email: data.email, password: data.password, role: data.role });
              resolve();
            },
          },
          field("Name", input({ name: "name", required: true, maxlength: USER_NAME_MAX_LENGTH, autocomplete: "off" })),
          field("Email", input({ name: "email", type: "email", required: true, autocomplete: "off" })),
          field("Password", input({ name: "password", type: "password", required: true, minlength: PASSWORD_MIN_LENGTH, autocomplete: "new-password" }), `At least ${PASSWORD_MIN_LENGTH} characters; share it with them safely.`),
          field("Role", h("select", { name: "role" }, h("option", { value: "member" }, "member: keys and translations"), h("option", { value: "admin" }, "admin: everything"))),
        ),
      )
    : adminOnly("add users or change roles");
  return [
    h("div", { class: "page-head" }, h("h1", null, "Users")),
    section(
      "Team",
      h("div", { class: "table-wrap" }, h("table", { class: "list" },
        h("thead", null, h("tr", null, h("th", null, "Name"), h("th", null, "Email"), h("th", null, "Role"), h("th", { class: "hide-narrow" }, "Added"), h("th", null, h("span", { class: "sr-only" }, "Actions")))),
        h("tbody", null, rows))),
    ),
    add,
  ];
}

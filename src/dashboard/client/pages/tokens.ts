import type { TokenView } from "../../../tokens/tokens.ts";
import { del, get, isAdmin, post, projectPath } from "../api.ts";
import { config } from "../config.ts";
import { fill, h, time } from "../dom.ts";
import { adminOnly, projectPage } from "../layout.ts";
import { resolve, type Ctx } from "../router.ts";
import { actionButton, confirmDialog, copyField, empty, field, form, input, section } from "../ui.ts";

/** Create (value shown once, copy, curl), list by name with times, delete. */
type Token = TokenView;

export function curlLine(token: string): string {
  return `curl -H "Authorization: Bearer ${token}" ${config.api_url}/releases`;
}

export function tokensPage(ctx: Ctx) {
  const pid = ctx.params.pid!;
  return projectPage(pid, "tokens", "API tokens", async (project) => {
    const { items } = await get<{ items: Token[] }>(projectPath(pid, "tokens"));
    const created = h("div", { "aria-live": "polite" });

    const createSection = isAdmin()
      ? section(
          "New token",
          h("p", { class: "muted small" }, `A token reads ${project.name}'s published releases through the public API (read-only). Name it after where it will live.`),
          form(
            {
              submit: "Create token",
              class: "row-form",
              label: "New token",
              onSubmit: async (data, formEl) => {
                const t = await post<Token & { token: string }>(projectPath(pid, "tokens"), { name: data.name });
                formEl.reset();
                fill(
                  created,
                  h(
                    "div",
                    { class: "secret-once", role: "status" },
                    h("h3", null, `Token “${t.name}” created`),
                    h("p", null, h("strong", null, "Copy it now: it is shown only once."), " Phrasebook keeps only a hash of it."),
                    copyField(t.token, "token", { "data-testid": "new-token" }),
                    h("p", { class: "small" }, "Try it:"),
                    copyField(curlLine(t.token), "curl command", { "data-testid": "curl-line" }),
                  ),
                );
                const list = document.getElementById("token-list");
                items.push(t);
                items.sort((a, b) => a.name.localeCompare(b.name));
                if (list) fill(list, tokenTable(items));
              },
            },
            field("Name", input({ name: "name", required: true, maxlength: 100, placeholder: "e.g. iOS app, website build" })),
          ),
          created,
        )
      : adminOnly("create or delete tokens");

    function tokenTable(list: Token[]) {
      if (list.length === 0) return empty("No tokens yet.", h("p", null, "Apps and build scripts need one to list releases through the API. Download URLs themselves need no token."));
      return h(
        "div",
        { class: "table-wrap" },
        h(
          "table",
          { class: "list" },
          h("thead", null, h("tr", null, h("th", null, "Name"), h("th", null, "Created"), h("th", null, "Last used"), h("th", null, h("span", { class: "sr-only" }, "Actions")))),
          h(
            "tbody",
            null,
            list.map((t) =>
              h(
                "tr",
                null,
                h("td", null, t.name),
                h("td", null, time(t.created_at)),
                h("td", null, time(t.last_used_at)),
                h(
                  "td",
                  { class: "end" },
                  isAdmin()
                    ? actionButton(
                        "Delete",
                        async () => {
                          const ok = await confirmDialog({
                            title: `Delete token “${t.name}”?`,
                            body: [
                              h("p", null, "Requests with it get 401 from now on."),
                              h("p", null, "Download URLs it already revealed keep working: rotate the project slug (Settings) to revoke those."),
                            ],
                            confirm: "Delete token",
                            danger: true,
                          });
                          if (!ok) return;
                          await del(projectPath(pid, "tokens", t.id));
                          resolve();
                        },
                        { class: "danger-link", "aria-label": `Delete token ${t.name}` },
                      )
                    : null,
                ),
              ),
            ),
          ),
        ),
      );
    }

    return [createSection, section("Tokens", h("div", { id: "token-list" }, tokenTable(items)))];
  });
}

import type { TokenScope } from "../../../storage/schema.ts";
import type { TokenView } from "../../../tokens/tokens.ts";
import { del, get, isAdmin, post, projectPath } from "../api.ts";
import { config } from "../config.ts";
import { fill, h, time, uid } from "../dom.ts";
import { adminOnly, projectPage, type Project } from "../layout.ts";
import { resolve, type Ctx } from "../router.ts";
import { actionButton, badge, confirmDialog, copyField, empty, field, form, input, section } from "../ui.ts";
import { TOKEN_NAME_MAX_LENGTH } from "../../../tokens/limits.ts";

/** Create (scopes chosen, value shown once, copy, a line to try it), list by name with scopes and times, delete. */
type Token = TokenView;

/** What each scope lets a token do (docs/product.md §6), in the order answers list them. */
const SCOPES: { scope: TokenScope; text: string }[] = [
  { scope: "read", text: "read published releases through the public API (apps, build scripts)" },
  { scope: "write", text: "push strings from CI: keys, translations, import, adding languages" },
  { scope: "publish", text: "create and publish releases from CI" },
];

export function curlLine(token: string): string {
  return `curl -H "Authorization: Bearer ${token}" ${config.api_url}/releases`;
}

/** The lines a CI job needs to use a write or publish token with the command-line client. */
export function clientLine(token: string): string {
  const server = config.api_url.replace(/\/v1$/, "");
  return `PHRASEBOOK_SERVER=${server} PHRASEBOOK_TOKEN=${token} phrasebook push`;
}

function scopePicker(): HTMLElement {
  const boxes = SCOPES.map(({ scope, text }) => {
    const id = uid("scope");
    const box = h("input", { type: "checkbox", id, name: "scopes", value: scope });
    box.defaultChecked = scope === "read"; // read alone, also after the form is reset (docs/product.md §6)
    return h(
      "label",
      { class: "check", for: id },
      box,
      h("span", null, h("code", null, scope), " ", h("span", { class: "muted small" }, text)),
    );
  });
  return h("fieldset", { class: "scopes" }, h("legend", null, "Scopes"), h("div", { class: "stack" }, boxes));
}

function scopeBadges(scopes: TokenScope[]): HTMLElement {
  return h("span", { class: "scope-list" }, scopes.map((s) => badge(s, s === "read" ? "translated" : s === "write" ? "base" : "approved")));
}

/** The new token's value, shown once, with the lines to use it. */
function createdToken(t: Token & { token: string }): HTMLElement {
  return h(
    "div",
    { class: "secret-once", role: "status" },
    h("h3", null, `Token “${t.name}” created`),
    h("p", null, h("strong", null, "Copy it now: it is shown only once."), " Phrasebook keeps only a hash of it."),
    copyField(t.token, "token", { "data-testid": "new-token" }),
    t.scopes.includes("read") ? [h("p", { class: "small" }, "Try it:"), copyField(curlLine(t.token), "curl command", { "data-testid": "curl-line" })] : null,
    t.scopes.includes("write") || t.scopes.includes("publish")
      ? [h("p", { class: "small" }, "In CI, as secrets of the job:"), copyField(clientLine(t.token), "client command", { "data-testid": "client-line" })]
      : null,
  );
}

function newTokenSection(pid: string, project: Project, items: Token[], list: HTMLElement): HTMLElement {
  const created = h("div", { "aria-live": "polite" });
  return section(
    "New token",
    h(
      "p",
      { class: "muted small" },
      `A token belongs to ${project.name} alone. With read it lists published releases through the public API; with write or publish, CI pushes strings and publishes releases through the command-line client. Name it after where it will live.`,
    ),
    form(
      {
        submit: "Create token",
        class: "stack",
        label: "New token",
        onSubmit: async (data, formEl) => {
          const scopes = data.scopes ? data.scopes.split(",") : [];
          const t = await post<Token & { token: string }>(projectPath(pid, "tokens"), { name: data.name, scopes });
          formEl.reset();
          fill(created, createdToken(t));
          items.push(t);
          items.sort((a, b) => a.name.localeCompare(b.name));
          fill(list, tokenTable(pid, items));
        },
      },
      field("Name", input({ name: "name", required: true, maxlength: TOKEN_NAME_MAX_LENGTH, placeholder: "e.g. iOS app, website build, GitHub Actions" })),
      scopePicker(),
    ),
    created,
  );
}

function deleteButton(pid: string, t: Token): HTMLElement {
  return actionButton(
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
  );
}

function tokenTable(pid: string, list: Token[]): HTMLElement {
  if (list.length === 0) return empty("No tokens yet.", h("p", null, "Apps and build scripts need one to list releases through the API, CI one to push strings. Download URLs themselves need no token."));
  const head = h("tr", null, h("th", null, "Name"), h("th", null, "Scopes"), h("th", { class: "created" }, "Created"), h("th", null, "Last used"), h("th", null, h("span", { class: "sr-only" }, "Actions")));
  const row = (t: Token) =>
    h(
      "tr",
      null,
      h("td", null, t.name),
      h("td", null, scopeBadges(t.scopes)),
      h("td", { class: "created" }, time(t.created_at)),
      h("td", null, time(t.last_used_at)),
      h("td", { class: "end" }, isAdmin() ? deleteButton(pid, t) : null),
    );
  return h("div", { class: "table-wrap" }, h("table", { class: "list tokens" }, h("thead", null, head), h("tbody", null, list.map(row))));
}

export function tokensPage(ctx: Ctx) {
  const pid = ctx.params.pid!;
  return projectPage(pid, "tokens", "API tokens", async (project) => {
    const { items } = await get<{ items: Token[] }>(projectPath(pid, "tokens"));
    const list = h("div", { id: "token-list" }, tokenTable(pid, items));
    return [isAdmin() ? newTokenSection(pid, project, items, list) : adminOnly("create or delete tokens"), section("Tokens", list)];
  });
}

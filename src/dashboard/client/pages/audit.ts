import { AUDIT_ACTIONS } from "../../../audit/actions.ts";
import type { AuditEntryView } from "../../../audit/list.ts";
import { get, projectPath, type PageInfo } from "../api.ts";
import { h, time } from "../dom.ts";
import { projectPage, setTitle } from "../layout.ts";
import { setQuery, resolve, type Ctx } from "../router.ts";
import { empty, section } from "../ui.ts";

/**
 * The audit log for admins (docs/dashboard.md "Audit log"): the whole server's at /audit, a
 * project's under its Audit log tab; newest first, one action at a time if chosen, a page at a time.
 */
const PAGE_SIZE = 50;

function who(e: AuditEntryView): string {
  return e.actor.kind === "system" ? e.actor.name : `${e.actor.name}${e.actor.kind === "token" ? " (token)" : ""}`;
}

function details(e: AuditEntryView): string {
  const text = JSON.stringify(e.details);
  return text === "{}" ? "" : text;
}

async function auditList(path: string, ctx: Ctx): Promise<HTMLElement[]> {
  const action = ctx.query.get("action") ?? "";
  const page = Math.max(1, Number(ctx.query.get("page")) || 1);
  const qs = new URLSearchParams({ page: String(page), page_size: String(PAGE_SIZE) });
  if (action) qs.set("action", action);
  const reply = await get<{ items: AuditEntryView[]; page_info: PageInfo }>(`${path}?${qs}`);
  const select = h("select", { "aria-label": "Action", name: "action" }, h("option", { value: "" }, "every action"), AUDIT_ACTIONS.map((a) => h("option", { value: a, selected: a === action }, a)));
  select.addEventListener("change", () => {
    setQuery({ action: select.value, page: null }, { push: true });
    resolve();
  });
  const go = (to: number) => () => {
    setQuery({ page: to }, { push: true });
    resolve();
  };
  const info = reply.page_info;
  const pager =
    info.total_pages > 1
      ? h(
          "nav",
          { class: "pager", "aria-label": "Pages" },
          h("button", { type: "button", onclick: go(page - 1), disabled: page <= 1 }, "‹ Previous"),
          h("span", null, `Page ${info.page} of ${info.total_pages}`),
          h("button", { type: "button", onclick: go(page + 1), disabled: page >= info.total_pages }, "Next ›"),
        )
      : null;
  const rows = reply.items.map((e) =>
    h(
      "tr",
      null,
      h("td", null, time(e.at)),
      h("td", null, h("code", null, e.action)),
      h("td", null, who(e)),
      h("td", null, e.target.name ?? e.target.id ?? ""),
      h("td", { class: "hide-narrow" }, e.ip ?? ""),
      h("td", { class: "audit-details hide-narrow" }, details(e)),
    ),
  );
  const table =
    rows.length === 0
      ? empty(action ? `No ${action} entry.` : "Nothing recorded yet.")
      : h(
          "div",
          { class: "table-wrap" },
          h(
            "table",
            { class: "list", "aria-label": "Audit log" },
            h("thead", null, h("tr", null, h("th", null, "When"), h("th", null, "Action"), h("th", null, "By"), h("th", null, "On"), h("th", { class: "hide-narrow" }, "Address"), h("th", { class: "hide-narrow" }, "Details"))),
            h("tbody", null, rows),
          ),
        );
  return [h("div", { class: "audit-filter" }, h("label", null, "Show ", select)), table, pager ?? h("span")];
}

export async function auditPage(ctx: Ctx) {
  setTitle("Audit log");
  return [h("div", { class: "page-head" }, h("h1", null, "Audit log")), section("Who did what", ...(await auditList("/audit", ctx)))];
}

export async function projectAuditPage(ctx: Ctx) {
  const pid = ctx.params.pid!;
  return projectPage(pid, "audit", "Audit log", async () => section("Who did what in this project", ...(await auditList(projectPath(pid, "audit"), ctx))));
}

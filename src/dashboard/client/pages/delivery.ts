import { get, isAdmin, post, projectPath } from "../api.ts";
import { h, time } from "../dom.ts";
import { projectPage } from "../layout.ts";
import { link, navigate, resolve, type Ctx } from "../router.ts";
import { actionButton, badge, copyField, section } from "../ui.ts";
import { deliveryBadge, type Attempt, type Delivery } from "../webhooks-common.ts";

/**
 * docs/interface.md §6.5: one delivery with its exact payload and every attempt's request headers,
 * response status and body (marked when cut at 8 KB), duration and failure reason; redeliver.
 */
const PENDING_REFRESH_MS = 2000;

function pretty(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}

function attemptCard(a: Attempt): HTMLElement {
  const ok = a.response_status !== null && a.response_status >= 200 && a.response_status < 300;
  return h(
    "li",
    { class: "attempt card" },
    h(
      "h3",
      null,
      `Attempt ${a.number} `,
      a.response_status !== null ? badge(`HTTP ${a.response_status}`, ok ? "approved" : "failing") : badge("no response", "failing"),
      " ",
      h("span", { class: "muted small" }, time(a.started_at), a.duration_ms !== null ? ` · ${a.duration_ms} ms` : ""),
    ),
    // "HTTP 500" would only repeat the status badge; redirects, refusals and timeouts say more.
    a.failure_reason && a.failure_reason !== `HTTP ${a.response_status}` ? h("p", { class: "error" }, a.failure_reason) : null,
    h(
      "details",
      null,
      h("summary", null, "Request headers"),
      h("table", { class: "list headers" }, h("tbody", null, Object.entries(a.request_headers).map(([k, v]) => h("tr", null, h("th", { scope: "row" }, h("code", null, k)), h("td", null, h("code", null, v)))))),
    ),
    a.response_body !== null
      ? h(
          "details",
          { open: true },
          h("summary", null, "Response body", a.response_body_truncated ? [" ", badge("truncated at 8 KB", "missing")] : null),
          h("pre", { class: "body" }, a.response_body || "(empty)"),
        )
      : null,
  );
}

export function deliveryPage(ctx: Ctx) {
  const pid = ctx.params.pid!;
  const did = ctx.params.did!;
  return projectPage(pid, "integrations", "Delivery", async () => {
    const d = await get<Delivery>(projectPath(pid, "deliveries", did));
    const redeliver = isAdmin()
      ? actionButton(
          "Redeliver",
          async () => {
            const reply = await post<{ delivery_id: string }>(projectPath(pid, "deliveries", did, "redeliver"));
            navigate(`/projects/${encodeURIComponent(pid)}/deliveries/${encodeURIComponent(reply.delivery_id)}`);
          },
          { class: "primary" },
        )
      : null;
    // Still being delivered: look again shortly, unless the user has moved on to another page.
    const marker = h("span", { hidden: true });
    if (d.status === "pending") setTimeout(() => document.body.contains(marker) && resolve(), PENDING_REFRESH_MS);
    return [
      h(
        "div",
        { class: "card delivery-head" },
        marker,
        h("p", { class: "crumbs" }, link(`/projects/${encodeURIComponent(pid)}/integrations`, "Integrations"), " / ", link(`/projects/${encodeURIComponent(pid)}/integrations/${encodeURIComponent(d.endpoint_id)}`, "Endpoint"), " /"),
        h("h2", null, h("code", null, d.event), " ", deliveryBadge(d.status)),
        d.redelivery_of ? h("p", { class: "small" }, "Redelivery of ", link(`/projects/${encodeURIComponent(pid)}/deliveries/${encodeURIComponent(d.redelivery_of)}`, h("code", null, d.redelivery_of))) : null,
        h("p", { class: "muted small" }, "Created ", time(d.created_at), ` · ${d.attempt_count} of 5 attempts`, d.status === "pending" && d.next_attempt_at ? [" · next ", time(d.next_attempt_at)] : null),
        h("div", { class: "field" }, h("span", { class: "label" }, "Delivery id (X-Service-Delivery)"), copyField(d.id, "delivery id")),
        h("div", { class: "actions" }, redeliver, h("span", { class: "muted small" }, "Redeliver sends the same payload as a new delivery with a new id.")),
      ),
      section(
        "Payload",
        h("pre", { class: "body" }, pretty(d.payload)),
        h("details", null, h("summary", null, "Exact bytes sent (what the signature covers)"), h("pre", { class: "body" }, d.payload)),
      ),
      section(
        "Attempts",
        d.attempts.length ? h("ol", { class: "attempts" }, d.attempts.map(attemptCard)) : h("p", { class: "muted" }, "No attempt yet: the sender picks it up within a moment."),
      ),
    ];
  });
}

import { ApiError, del, get, isAdmin, patch, post, projectPath } from "../api.ts";
import { fill, h, plural, time } from "../dom.ts";
import { adminOnly, projectPage } from "../layout.ts";
import { href, link, navigate, resolve, type Ctx } from "../router.ts";
import { actionButton, confirmDialog, empty, errorBox, field, form, input, section, showError } from "../ui.ts";
import { deliveryBadge, endpointBadges, eventPicker, randomSecret, selectedEvents, type DeliverySummary, type Endpoint } from "../webhooks-common.ts";
import { SECRET_MAX_LENGTH } from "../../../webhooks/limits.ts";

export { deliveryPage } from "./delivery.ts";

/** Webhook endpoints, their failing badge, the delivery log, test events (docs/webhooks.md). */
const LOG_REFRESH_MS = 2000;

function secretField(label: string, hint: string): HTMLElement {
  const secret = input({ name: "secret", maxlength: SECRET_MAX_LENGTH, class: "mono", autocomplete: "off", spellcheck: "false" });
  const generate = h("button", { type: "button", class: "link small", onclick: () => (secret.value = randomSecret()) }, "Generate");
  return h("div", null, field(label, secret, hint), generate);
}

export function integrationsPage(ctx: Ctx) {
  const pid = ctx.params.pid!;
  return projectPage(pid, "integrations", "Integrations", async () => {
    const { items } = await get<{ items: Endpoint[] }>(projectPath(pid, "webhooks"));
    const list = items.length
      ? h(
          "ul",
          { class: "endpoint-list" },
          items.map((e) =>
            h(
              "li",
              { class: "card endpoint" },
              h("p", { class: "endpoint-url" }, link(`/projects/${encodeURIComponent(pid)}/integrations/${encodeURIComponent(e.id)}`, h("code", null, e.url))),
              h("p", null, endpointBadges(e), " ", h("span", { class: "muted small" }, e.has_secret ? "signed" : "unsigned (no secret)", " · ", plural(e.events.length, "event"), " · added ", time(e.created_at))),
            ),
          ),
        )
      : empty("No webhook endpoints yet.", h("p", null, "Phrasebook can POST an event to your HTTPS endpoint whenever keys, translations or releases change, e.g. to rebuild an app on release_published."));
    const add = isAdmin()
      ? section(
          "Add an endpoint",
          form(
            {
              submit: "Add endpoint",
              label: "Add a webhook endpoint",
              onSubmit: async (data) => {
                const body: Record<string, unknown> = { url: data.url, events: selectedEvents(data) };
                if (data.secret) body.secret = data.secret;
                const e = await post<Endpoint>(projectPath(pid, "webhooks"), body);
                navigate(`/projects/${encodeURIComponent(pid)}/integrations/${encodeURIComponent(e.id)}`);
              },
            },
            field("Endpoint URL", input({ name: "url", type: "url", required: true, placeholder: "https://example.com/hooks/phrasebook", class: "mono" }), "Must be https and reachable from this server."),
            eventPicker(["release_published"]),
            secretField("Secret (optional)", "With a secret every request is signed (X-Service-Signature). Store it in your receiver."),
          ),
        )
      : adminOnly("add or change webhook endpoints");
    return [section("Webhook endpoints", list), add];
  });
}

function deliveryTable(pid: string, items: DeliverySummary[]): HTMLElement {
  if (items.length === 0) return empty("No deliveries yet.", h("p", null, "They appear here when a subscribed event happens, or send a test event above."));
  return h(
    "div",
    { class: "table-wrap" },
    h(
      "table",
      { class: "list" },
      h("thead", null, h("tr", null, h("th", null, "Event"), h("th", null, "Status"), h("th", { class: "num" }, "Attempts"), h("th", null, "Created"), h("th", null, "Next attempt"))),
      h(
        "tbody",
        null,
        items.map((d) =>
          h(
            "tr",
            null,
            h("td", null, h("a", { href: href(`/projects/${encodeURIComponent(pid)}/deliveries/${encodeURIComponent(d.id)}`) }, h("code", null, d.event))),
            h("td", null, deliveryBadge(d.status)),
            h("td", { class: "num" }, d.attempt_count),
            h("td", null, time(d.created_at)),
            h("td", null, d.status === "pending" ? time(d.next_attempt_at, "in flight") : "—"),
          ),
        ),
      ),
    ),
  );
}

/** An endpoint's settings and its deletion (admins). */
function endpointSettings(pid: string, path: string, e: Endpoint): HTMLElement {
  return section(
    "Settings",
    form(
      {
        submit: "Save changes",
        label: "Edit endpoint",
        onSubmit: async (data) => {
          const body: Record<string, unknown> = { url: data.url, events: selectedEvents(data), enabled: data.enabled === "on" };
          if (data.secret) body.secret = data.secret;
          else if (data.remove_secret === "on") body.secret = null; // unsigned from now on
          await patch(path, body);
          resolve();
        },
      },
      field("Endpoint URL", input({ name: "url", type: "url", value: e.url, required: true, class: "mono" })),
      eventPicker(e.events),
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "enabled", checked: e.enabled }), "Enabled (disabled endpoints get no deliveries)"),
      secretField(e.has_secret ? "New secret" : "Secret", e.has_secret ? "A secret is set. Type a new one to replace it; leave empty to keep it." : "No secret: requests are unsigned."),
      e.has_secret ? h("label", { class: "check" }, h("input", { type: "checkbox", name: "remove_secret" }), "Remove the secret (deliveries become unsigned)") : null,
    ),
    h(
      "div",
      { class: "danger-zone" },
      actionButton(
        "Delete endpoint…",
        async () => {
          const ok = await confirmDialog({ title: "Delete this endpoint?", body: "It gets no more deliveries, and its delivery log is removed.", confirm: "Delete endpoint", danger: true });
          if (!ok) return;
          await del(path);
          navigate(`/projects/${encodeURIComponent(pid)}/integrations`);
        },
        { class: "danger" },
      ),
    ),
  );
}

export function endpointPage(ctx: Ctx) {
  const pid = ctx.params.pid!;
  const wid = ctx.params.wid!;
  return projectPage(pid, "integrations", "Webhook endpoint", async () => {
    const path = projectPath(pid, "webhooks", wid);
    let e: Endpoint;
    try {
      e = await get<Endpoint>(path);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return empty("This endpoint does not exist (any more).", link(`/projects/${encodeURIComponent(pid)}/integrations`, "Back to integrations"));
      throw err;
    }
    const logBox = h("div", { "aria-live": "polite" });
    const logError = errorBox();

    const loadLog = async () => {
      const { items: log } = await get<{ items: DeliverySummary[] }>(`${path}/deliveries`);
      fill(logBox, deliveryTable(pid, log));
      // Keep the log live while something is still being delivered and this page is shown.
      if (log.some((d) => d.status === "pending")) setTimeout(() => document.body.contains(logBox) && loadLog().catch((err) => showError(logError, err)), LOG_REFRESH_MS);
    };

    const eventSelect = h("select", { name: "event", "aria-label": "Event to send" }, e.events.map((ev) => h("option", { value: ev }, ev)));
    const test = isAdmin()
      ? form(
          {
            submit: "Send test event",
            class: "row-form",
            label: "Send a test event",
            onSubmit: async (data) => {
              await post(`${path}/test`, { event: data.event });
              await loadLog();
            },
          },
          field("Event", eventSelect),
        )
      : null;

    const edit = isAdmin() ? endpointSettings(pid, path, e) : null;

    await loadLog();
    return [
      h(
        "div",
        { class: "card" },
        h("p", { class: "crumbs" }, link(`/projects/${encodeURIComponent(pid)}/integrations`, "Integrations"), " /"),
        h("h2", { class: "endpoint-url" }, h("code", null, e.url)),
        h("p", null, endpointBadges(e), " ", h("span", { class: "muted small" }, e.has_secret ? "signed" : "unsigned")),
        h("p", { class: "small" }, "Events: ", e.events.map((ev, i) => [i ? ", " : "", h("code", null, ev)])),
        test,
      ),
      section("Delivery log", h("p", { class: "muted small" }, "Newest first; kept 30 days."), logError, logBox),
      edit,
    ];
  });
}

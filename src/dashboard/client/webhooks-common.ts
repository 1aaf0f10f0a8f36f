import type { AttemptView, DeliveryView } from "../../webhooks/delivery-log.ts";
import type { EndpointView } from "../../webhooks/endpoints.ts";
import { EVENT_TYPES } from "../../changes/events.ts";
import { h, uid } from "./dom.ts";
import { badge } from "./ui.ts";

/**
 * docs/product.md §4 webhook shapes, as the server's views define them (type-only imports: nothing
 * of the server's code enters the browser bundle), and the parts both integration pages draw.
 */
export type Endpoint = EndpointView;
export type Attempt = AttemptView;
export type DeliverySummary = Omit<DeliveryView, "endpoint_id" | "redelivery_of">;
export interface Delivery extends DeliveryView {
  payload: string;
  attempts: Attempt[];
}

export { EVENT_TYPES };

/** docs/interface.md §6.5: a failing endpoint is marked, with its count of consecutive failures. */
export function endpointBadges(e: Endpoint): HTMLElement[] {
  const out: HTMLElement[] = [];
  if (!e.enabled) out.push(badge("disabled", "draft"));
  if (e.failing) out.push(badge(`failing · ${e.consecutive_failures} in a row`, "failing", { title: `${e.consecutive_failures} consecutive failed attempts since the last success` }));
  else if (e.enabled) out.push(badge("healthy", "approved"));
  return out;
}

export function deliveryBadge(status: DeliverySummary["status"]): HTMLElement {
  return badge(status, status === "succeeded" ? "approved" : status === "failed" ? "failing" : "translated");
}

/** A fieldset of event checkboxes with an all/none toggle. */
export function eventPicker(selected: string[]): HTMLElement {
  const boxes = EVENT_TYPES.map((event) => {
    const id = uid("ev");
    return h("label", { class: "check", for: id }, h("input", { type: "checkbox", id, name: "events", value: event, checked: selected.includes(event) }), h("code", null, event));
  });
  const toggle = h("button", { type: "button", class: "link small" }, "Select all");
  toggle.addEventListener("click", () => {
    const inputs = [...toggle.closest("fieldset")!.querySelectorAll<HTMLInputElement>("input[type=checkbox]")];
    const all = inputs.every((i) => i.checked);
    inputs.forEach((i) => (i.checked = !all));
  });
  return h("fieldset", { class: "events" }, h("legend", null, "Events ", toggle), h("div", { class: "event-grid" }, boxes));
}

export function selectedEvents(data: Record<string, string>): string[] {
  return data.events ? data.events.split(",") : [];
}

/** A random secret for signing (docs/interface.md §6.3), generated in the browser. */
export function randomSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return "whsec_" + [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

import { Elysia } from "elysia";
import type { AppDeps } from "../deps.ts";
import { deliveryDetail, listDeliveries, redeliver, sendTestEvent } from "../webhooks/delivery-log.ts";
import { createEndpoint, deleteEndpoint, endpointView, findEndpoint, listEndpoints, updateEndpoint } from "../webhooks/endpoints.ts";
import { DeliveryListQuery, EndpointPatch, NewEndpoint, TestEvent } from "../webhooks/model.ts";
import { grantHolds, type DashboardContext } from "./access.ts";

/**
 * Webhook endpoints, test events and the delivery log of the dashboard JSON API (docs/product.md §4).
 * A developer may read (URLs masked); changing endpoints or sending needs the project's admin role.
 */
export function webhookRoutes(deps: AppDeps, context: DashboardContext) {
  const { db } = deps;
  return new Elysia()
    .use(context)
    // Developers see endpoint URLs with the query string masked; project admins, who edit them, see them whole.
    .get("/projects/:pid/webhooks", ({ project, grant }) => ({ items: listEndpoints(db, project, { maskQuery: !grantHolds(grant, "webhooks") }) }), {
      access: "read-private",
      inProject: true,
    })
    .post("/projects/:pid/webhooks", ({ project, body, status, by }) => status(201, createEndpoint(deps, project, body, by)), {
      access: "webhooks",
      inProject: true,
      body: NewEndpoint,
    })
    .get("/projects/:pid/webhooks/:wid", ({ project, params, grant }) => endpointView(findEndpoint(db, project, params.wid), { maskQuery: !grantHolds(grant, "webhooks") }), {
      access: "read-private",
      inProject: true,
    })
    .patch("/projects/:pid/webhooks/:wid", ({ project, params, body, by }) => updateEndpoint(deps, project, params.wid, body, by), {
      access: "webhooks",
      inProject: true,
      body: EndpointPatch,
    })
    .delete(
      "/projects/:pid/webhooks/:wid",
      ({ project, params, status, by }) => {
        deleteEndpoint(deps, project, params.wid, by);
        return status(204);
      },
      { access: "webhooks", inProject: true },
    )
    .post("/projects/:pid/webhooks/:wid/test", ({ project, params, body, status }) => status(202, sendTestEvent(deps, project, params.wid, body?.event)), {
      access: "webhooks",
      inProject: true,
      body: TestEvent,
    })
    .get(
      "/projects/:pid/webhooks/:wid/deliveries",
      ({ project, params, query }) => ({ items: listDeliveries(db, project, params.wid, query) }),
      { access: "read-private", inProject: true, query: DeliveryListQuery },
    )
    .get("/projects/:pid/deliveries/:did", ({ project, params }) => deliveryDetail(db, project, params.did), { access: "read-private", inProject: true })
    .post("/projects/:pid/deliveries/:did/redeliver", ({ project, params, status }) => status(202, redeliver(deps, project, params.did)), {
      access: "webhooks",
      inProject: true,
    });
}

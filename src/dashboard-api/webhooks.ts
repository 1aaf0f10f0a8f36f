import { Elysia } from "elysia";
import type { AppDeps } from "../deps.ts";
import { deliveryDetail, listDeliveries, redeliver, sendTestEvent } from "../webhooks/delivery-log.ts";
import { createEndpoint, deleteEndpoint, endpointView, findEndpoint, listEndpoints, updateEndpoint } from "../webhooks/endpoints.ts";
import { DeliveryListQuery, EndpointPatch, NewEndpoint, TestEvent } from "../webhooks/model.ts";
import { isAdminCaller, type DashboardContext } from "./access.ts";

/**
 * Webhook endpoints, test events and the delivery log of the dashboard JSON API (docs/product.md §4).
 * Anyone signed in may read; changing endpoints or sending needs the admin role.
 */
export function webhookRoutes(deps: AppDeps, context: DashboardContext) {
  const { db } = deps;
  return new Elysia()
    .use(context)
    // Members see endpoint URLs with the query string masked; admins, who edit them, see them whole.
    .get("/projects/:pid/webhooks", ({ project, caller }) => ({ items: listEndpoints(db, project, { maskQuery: !isAdminCaller(caller) }) }), {
      access: "read-private",
      inProject: true,
    })
    .post("/projects/:pid/webhooks", ({ project, body, status, by }) => status(201, createEndpoint(deps, project, body, by)), {
      access: "admin",
      inProject: true,
      body: NewEndpoint,
    })
    .get("/projects/:pid/webhooks/:wid", ({ project, params, caller }) => endpointView(findEndpoint(db, project, params.wid), { maskQuery: !isAdminCaller(caller) }), {
      access: "read-private",
      inProject: true,
    })
    .patch("/projects/:pid/webhooks/:wid", ({ project, params, body, by }) => updateEndpoint(deps, project, params.wid, body, by), {
      access: "admin",
      inProject: true,
      body: EndpointPatch,
    })
    .delete(
      "/projects/:pid/webhooks/:wid",
      ({ project, params, status, by }) => {
        deleteEndpoint(deps, project, params.wid, by);
        return status(204);
      },
      { access: "admin", inProject: true },
    )
    .post("/projects/:pid/webhooks/:wid/test", ({ project, params, body, status }) => status(202, sendTestEvent(deps, project, params.wid, body?.event)), {
      access: "admin",
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
      access: "admin",
      inProject: true,
    });
}

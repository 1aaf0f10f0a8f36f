import { Elysia, t } from "elysia";
import { parsePositiveInt } from "../common/paging.ts";
import type { AppDeps } from "../deps.ts";
import { DELIVERY_LIST_DEFAULT, deliveryDetail, listDeliveries, redeliver, sendTestEvent } from "../webhooks/delivery-log.ts";
import { createEndpoint, deleteEndpoint, endpointView, findEndpoint, listEndpoints, SECRET_MAX_LENGTH, updateEndpoint, URL_MAX_LENGTH } from "../webhooks/endpoints.ts";
import { isAdminCaller, type DashboardContext } from "./access.ts";

const Url = t.String({ maxLength: URL_MAX_LENGTH + 100 });
const Events = t.Array(t.String({ maxLength: 100 }), { maxItems: 50 });
const Secret = t.Union([t.String({ maxLength: SECRET_MAX_LENGTH }), t.Null()]);

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
    .post("/projects/:pid/webhooks", ({ project, body, status }) => status(201, createEndpoint(deps, project, body)), {
      access: "admin",
      inProject: true,
      body: t.Object({ url: Url, events: Events, secret: t.Optional(Secret), enabled: t.Optional(t.Boolean()) }),
    })
    .get("/projects/:pid/webhooks/:wid", ({ project, params, caller }) => endpointView(findEndpoint(db, project, params.wid), { maskQuery: !isAdminCaller(caller) }), {
      access: "read-private",
      inProject: true,
    })
    .patch("/projects/:pid/webhooks/:wid", ({ project, params, body }) => updateEndpoint(deps, project, params.wid, body), {
      access: "admin",
      inProject: true,
      body: t.Object({ url: t.Optional(Url), events: t.Optional(Events), secret: t.Optional(Secret), enabled: t.Optional(t.Boolean()) }),
    })
    .delete(
      "/projects/:pid/webhooks/:wid",
      ({ project, params, status }) => {
        deleteEndpoint(deps, project, params.wid);
        return status(204);
      },
      { access: "admin", inProject: true },
    )
    .post("/projects/:pid/webhooks/:wid/test", ({ project, params, body, status }) => status(202, sendTestEvent(deps, project, params.wid, body?.event)), {
      access: "admin",
      inProject: true,
      body: t.Optional(t.Object({ event: t.Optional(t.String({ maxLength: 100 })) })),
    })
    .get(
      "/projects/:pid/webhooks/:wid/deliveries",
      ({ project, params, query }) => ({ items: listDeliveries(db, project, params.wid, parsePositiveInt(query.limit, "limit", DELIVERY_LIST_DEFAULT)) }),
      { access: "read-private", inProject: true, query: t.Object({ limit: t.Optional(t.String()) }) },
    )
    .get("/projects/:pid/deliveries/:did", ({ project, params }) => deliveryDetail(db, project, params.did), { access: "read-private", inProject: true })
    .post("/projects/:pid/deliveries/:did/redeliver", ({ project, params, status }) => status(202, redeliver(deps, project, params.did)), {
      access: "admin",
      inProject: true,
    });
}

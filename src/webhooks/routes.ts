import { Elysia, t } from "elysia";
import type { AppDeps } from "../app.ts";
import { findProject } from "../authoring/projects.ts";
import { requireAdmin, sessionGuard } from "../authoring/routes/guard.ts";
import { badRequest } from "../common/errors.ts";
import { deliveryDetail, listDeliveries, redeliver, sendTestEvent } from "./delivery-log.ts";
import { createEndpoint, deleteEndpoint, endpointView, findEndpoint, listEndpoints, SECRET_MAX_LENGTH, updateEndpoint, URL_MAX_LENGTH } from "./endpoints.ts";

const Url = t.String({ maxLength: URL_MAX_LENGTH + 100 });
const Events = t.Array(t.String({ maxLength: 100 }), { maxItems: 50 });
const Secret = t.Union([t.String({ maxLength: SECRET_MAX_LENGTH }), t.Null()]);

function listLimit(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === "") return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw badRequest('invalid query parameter "limit": must be a positive integer');
  return Number(raw);
}

/**
 * Webhook endpoints, test events and the delivery log of the dashboard JSON API (CONTRACTS 4).
 * Anyone signed in may read; changing endpoints or sending needs the admin role.
 */
export function webhookRoutes(deps: AppDeps) {
  const { db, clock } = deps;
  return new Elysia({ prefix: "/dashboard/api" })
    .use(sessionGuard(deps))
    .get("/projects/:pid/webhooks", ({ params }) => ({ items: listEndpoints(db, findProject(db, params.pid)) }))
    .post(
      "/projects/:pid/webhooks",
      ({ params, body, session, set }) => {
        requireAdmin(session);
        const project = findProject(db, params.pid);
        set.status = 201;
        return createEndpoint(db, clock, project, body);
      },
      { body: t.Object({ url: Url, events: Events, secret: t.Optional(Secret), enabled: t.Optional(t.Boolean()) }) },
    )
    .get("/projects/:pid/webhooks/:wid", ({ params }) => {
      const project = findProject(db, params.pid);
      return endpointView(findEndpoint(db, project, params.wid));
    })
    .patch(
      "/projects/:pid/webhooks/:wid",
      ({ params, body, session }) => {
        requireAdmin(session);
        return updateEndpoint(db, findProject(db, params.pid), params.wid, body);
      },
      { body: t.Object({ url: t.Optional(Url), events: t.Optional(Events), secret: t.Optional(Secret), enabled: t.Optional(t.Boolean()) }) },
    )
    .delete("/projects/:pid/webhooks/:wid", ({ params, session, set }) => {
      requireAdmin(session);
      deleteEndpoint(db, findProject(db, params.pid), params.wid);
      set.status = 204;
    })
    .post(
      "/projects/:pid/webhooks/:wid/test",
      ({ params, body, session, set }) => {
        requireAdmin(session);
        set.status = 202;
        return sendTestEvent(db, clock, findProject(db, params.pid), params.wid, body?.event);
      },
      { body: t.Optional(t.Object({ event: t.Optional(t.String({ maxLength: 100 })) })) },
    )
    .get(
      "/projects/:pid/webhooks/:wid/deliveries",
      ({ params, query }) => ({ items: listDeliveries(db, findProject(db, params.pid), params.wid, listLimit(query.limit)) }),
      { query: t.Object({ limit: t.Optional(t.String()) }) },
    )
    .get("/projects/:pid/deliveries/:did", ({ params }) => deliveryDetail(db, findProject(db, params.pid), params.did))
    .post("/projects/:pid/deliveries/:did/redeliver", ({ params, session, set }) => {
      requireAdmin(session);
      set.status = 202;
      return redeliver(db, clock, findProject(db, params.pid), params.did);
    });
}

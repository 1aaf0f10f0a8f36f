import { Elysia, t } from "elysia";
import type { AppDeps } from "../../app.ts";
import { approveTranslation, createKey, deleteKey, getKey, listKeys, setTranslation, updateKey } from "../keys.ts";
import { findProject } from "../projects.ts";
import { sessionGuard } from "./guard.ts";

const KeyName = t.String({ maxLength: 512 });
const Context = t.Union([t.String({ maxLength: 2000 }), t.Null()]);

/** Keys and translations: members may edit these (CONTRACTS 4). */
export function keyRoutes(deps: AppDeps) {
  const { db, clock } = deps;
  return new Elysia()
    .use(sessionGuard(deps))
    .get("/projects/:pid/keys", ({ params, query }) => listKeys(db, findProject(db, params.pid), query), {
      query: t.Object({
        search: t.Optional(t.String({ maxLength: 500 })),
        page: t.Optional(t.String()),
        page_size: t.Optional(t.String()),
      }),
    })
    .post(
      "/projects/:pid/keys",
      ({ params, body, set }) => {
        set.status = 201;
        return createKey(db, clock, findProject(db, params.pid), body);
      },
      { body: t.Object({ key: KeyName, context: t.Optional(Context) }) },
    )
    .get("/projects/:pid/keys/:keyId", ({ params }) => getKey(db, findProject(db, params.pid), params.keyId))
    .patch("/projects/:pid/keys/:keyId", ({ params, body }) => updateKey(db, clock, findProject(db, params.pid), params.keyId, body), {
      body: t.Object({ key: t.Optional(KeyName), context: t.Optional(Context) }),
    })
    .delete("/projects/:pid/keys/:keyId", ({ params, set }) => {
      deleteKey(db, clock, findProject(db, params.pid), params.keyId);
      set.status = 204;
    })
    .put(
      "/projects/:pid/keys/:keyId/translations/:code",
      ({ params, body }) => setTranslation(db, clock, findProject(db, params.pid), params.keyId, params.code, body.value),
      { body: t.Object({ value: t.String({ maxLength: 100_000 }) }) },
    )
    .post("/projects/:pid/keys/:keyId/translations/:code/approve", ({ params }) =>
      approveTranslation(db, clock, findProject(db, params.pid), params.keyId, params.code),
    );
}

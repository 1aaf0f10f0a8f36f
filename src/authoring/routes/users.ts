import { Elysia, t } from "elysia";
import type { AppDeps } from "../../app.ts";
import { createUser, deleteUser, listUsers, updateUser } from "../users.ts";
import { requireAdmin, sessionGuard } from "./guard.ts";

const Role = t.Union([t.Literal("admin"), t.Literal("member")]);

export function userRoutes(deps: AppDeps) {
  return new Elysia()
    .use(sessionGuard(deps))
    .get("/users", () => ({ items: listUsers(deps.db) }))
    .post(
      "/users",
      async ({ body, session, set }) => {
        requireAdmin(session);
        set.status = 201;
        return createUser(deps.db, deps.clock, body);
      },
      {
        body: t.Object({
          email: t.String({ maxLength: 254 }),
          name: t.String({ minLength: 1, maxLength: 200 }),
          password: t.String({ minLength: 8, maxLength: 1024 }),
          role: Role,
        }),
      },
    )
    .patch(
      "/users/:userId",
      ({ params, body, session }) => {
        requireAdmin(session);
        return updateUser(deps.db, params.userId, body);
      },
      {
        body: t.Object({
          name: t.Optional(t.String({ minLength: 1, maxLength: 200 })),
          role: t.Optional(Role),
          password: t.Optional(t.String({ minLength: 8, maxLength: 1024 })),
        }),
      },
    )
    .delete("/users/:userId", ({ params, session, set }) => {
      requireAdmin(session);
      deleteUser(deps.db, params.userId);
      set.status = 204;
    });
}

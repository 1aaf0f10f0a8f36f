import { Elysia, t } from "elysia";
import { createUser, deleteUser, listUsers, updateUser } from "../accounts/users.ts";
import type { AppDeps } from "../deps.ts";
import type { DashboardContext } from "./access.ts";

const Role = t.Union([t.Literal("admin"), t.Literal("member")]);
const Name = t.String({ minLength: 1, maxLength: 200 });
const Password = t.String({ minLength: 8, maxLength: 1024 });

/** Users (docs/product.md §4): everyone may list them, admins manage them. */
export function userRoutes({ db, clock }: AppDeps, context: DashboardContext) {
  return new Elysia()
    .use(context)
    .get("/users", () => ({ items: listUsers(db) }), { access: "read-private" })
    .post("/users", async ({ body, status }) => status(201, await createUser(db, clock, body)), {
      access: "admin",
      body: t.Object({ email: t.String({ maxLength: 254 }), name: Name, password: Password, role: Role }),
    })
    // A new password signs the user out everywhere, except in the session that set it.
    .patch("/users/:userId", ({ params, body, caller }) => updateUser(db, params.userId, body, { keepSession: caller.kind === "session" ? caller.session.tokenHash : undefined }), {
      access: "admin",
      body: t.Object({ name: t.Optional(Name), role: t.Optional(Role), password: t.Optional(Password) }),
    })
    .delete(
      "/users/:userId",
      ({ params, status }) => {
        deleteUser(db, params.userId);
        return status(204);
      },
      { access: "admin" },
    );
}

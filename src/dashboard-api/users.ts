import { Elysia } from "elysia";
import { NewUser, UserPatch } from "../accounts/model.ts";
import { createUser, deleteUser, listUsers, updateUser } from "../accounts/users.ts";
import type { AppDeps } from "../deps.ts";
import type { DashboardContext } from "./access.ts";

/** Users (docs/product.md §4): everyone may list them, admins manage them. */
export function userRoutes({ db, clock }: AppDeps, context: DashboardContext) {
  return new Elysia()
    .use(context)
    .get("/users", () => ({ items: listUsers(db) }), { access: "read-private" })
    .post("/users", async ({ body, status, by }) => status(201, await createUser(db, clock, body, { by })), {
      access: "admin",
      body: NewUser,
    })
    // A new password signs the user out everywhere, except in the session that set it.
    .patch("/users/:userId", ({ params, body, caller, by }) => updateUser(db, params.userId, body, { keepSession: caller.kind === "session" ? caller.session.tokenHash : undefined, by, clock }), {
      access: "admin",
      body: UserPatch,
    })
    .delete(
      "/users/:userId",
      ({ params, status, by }) => {
        deleteUser(db, params.userId, { by, clock });
        return status(204);
      },
      { access: "admin" },
    );
}

import { Elysia } from "elysia";
import type { AppDeps } from "../deps.ts";
import { NewToken } from "../tokens/model.ts";
import { createToken, deleteToken, listTokens } from "../tokens/tokens.ts";
import type { DashboardContext } from "./access.ts";

/** API tokens (docs/product.md §4, §6): the value is shown once, at creation; scopes are chosen then. */
export function tokenRoutes(deps: AppDeps, context: DashboardContext) {
  return new Elysia()
    .use(context)
    .get("/projects/:pid/tokens", ({ project }) => ({ items: listTokens(deps.db, project) }), { access: "read-private", inProject: true })
    .post("/projects/:pid/tokens", ({ project, body, status, by }) => status(201, createToken(deps, project, body, by)), {
      access: "tokens",
      inProject: true,
      body: NewToken,
    })
    .delete(
      "/projects/:pid/tokens/:tokenId",
      ({ project, params, status, by }) => {
        deleteToken(deps, project, params.tokenId, by);
        return status(204);
      },
      { access: "tokens", inProject: true },
    );
}

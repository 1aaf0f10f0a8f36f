import { Elysia } from "elysia";
import type { AppDeps } from "../app.ts";
import { keyRoutes } from "./routes/keys.ts";
import { projectRoutes } from "./routes/projects.ts";
import { releaseRoutes } from "./routes/releases.ts";
import { sessionRoutes } from "./routes/session.ts";
import { tokenRoutes } from "./routes/tokens.ts";
import { userRoutes } from "./routes/users.ts";

/** The dashboard JSON API (CONTRACTS 4), one plugin per resource. */
export function authoringRoutes(deps: AppDeps) {
  return new Elysia({ prefix: "/dashboard/api" })
    .use(sessionRoutes(deps))
    .use(userRoutes(deps))
    .use(projectRoutes(deps))
    .use(keyRoutes(deps))
    .use(releaseRoutes(deps))
    .use(tokenRoutes(deps));
}

import { Elysia } from "elysia";
import { signInMethods } from "../accounts/sign-in/index.ts";
import { auditRoutes } from "./audit.ts";
import type { AppDeps } from "../deps.ts";
import { dashboardContext } from "./access.ts";
import { channelRoutes } from "./channels.ts";
import { commentRoutes } from "./comments.ts";
import { editorRoutes } from "./editor.ts";
import { glossaryRoutes } from "./glossary.ts";
import { DASHBOARD_API_PREFIX } from "./guards.ts";
import { importRoutes } from "./import.ts";
import { keyRoutes } from "./keys.ts";
import { memberRoutes } from "./members.ts";
import { memoryRoutes } from "./memory.ts";
import { projectRoutes } from "./projects.ts";
import { releaseRoutes } from "./releases.ts";
import { screenshotRoutes } from "./screenshots.ts";
import { sessionRoutes, signInRoutes } from "./session.ts";
import { tokenRoutes } from "./tokens.ts";
import { userRoutes } from "./users.ts";
import { webhookRoutes } from "./webhooks.ts";

export { DASHBOARD_API_PREFIX };

/**
 * The dashboard JSON API (docs/product.md §4, docs/dashboard-api.md), one Elysia instance: signing
 * in needs no caller; every other route is authenticated once by the shared context, declares the
 * access it needs and gets its project loaded. One line per resource.
 */
export function dashboardApi(deps: AppDeps, clientOf: (request: Request) => string) {
  const context = dashboardContext(deps, clientOf);
  const methods = signInMethods(deps);
  return new Elysia({ prefix: DASHBOARD_API_PREFIX })
    .use(signInRoutes(deps, clientOf, methods))
    .use(sessionRoutes(deps, context, methods, clientOf))
    .use(userRoutes(deps, context))
    .use(projectRoutes(deps, context))
    .use(keyRoutes(deps, context))
    .use(editorRoutes(deps, context))
    .use(importRoutes(deps, context))
    .use(releaseRoutes(deps, context))
    .use(channelRoutes(deps, context))
    .use(tokenRoutes(deps, context))
    .use(webhookRoutes(deps, context))
    .use(auditRoutes(deps, context))
    .use(memberRoutes(deps, context))
    .use(memoryRoutes(deps, context))
    .use(glossaryRoutes(deps, context))
    .use(commentRoutes(deps, context))
    .use(screenshotRoutes(deps, context));
}

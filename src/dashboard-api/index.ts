import { Elysia } from "elysia";
import { signInMethods, type SignInRegistry } from "../accounts/sign-in/index.ts";
import { auditRoutes } from "./audit.ts";
import type { AppDeps } from "../deps.ts";
import { dashboardContext, type Access } from "./access.ts";
import { channelRoutes } from "./channels.ts";
import { commentRoutes } from "./comments.ts";
import { deliveryRoutes } from "./delivery.ts";
import { editorRoutes } from "./editor.ts";
import { GLOSSARY_CSV_BODY, glossaryRoutes } from "./glossary.ts";
import { DASHBOARD_API_PREFIX, type RawBodyRoute } from "./guards.ts";
import { importRoutes } from "./import.ts";
import { keyRoutes } from "./keys.ts";
import { KeyReads } from "../authoring/key-reads.ts";
import { keyReadOffThread } from "./worker.ts";
import { memberRoutes } from "./members.ts";
import { MEMORY_IMPORT_BODY, memoryRoutes } from "./memory.ts";
import { mirrorRoutes } from "./mirror.ts";
import { projectRoutes } from "./projects.ts";
import { releaseRoutes } from "./releases.ts";
import { SCREENSHOT_BODY, screenshotRoutes } from "./screenshots.ts";
import { sessionRoutes, signInRoutes } from "./session.ts";
import { tokenRoutes } from "./tokens.ts";
import { userRoutes } from "./users.ts";
import { webhookRoutes } from "./webhooks.ts";

export { DASHBOARD_API_PREFIX };

/**
 * The routes that take a body other than JSON, each declared by its route module
 * (docs/architecture.md "Adding a binary upload"); every other route takes JSON only (guards.ts).
 */
export const RAW_BODY_ROUTES: readonly RawBodyRoute<Access>[] = [MEMORY_IMPORT_BODY, GLOSSARY_CSV_BODY, SCREENSHOT_BODY];

/**
 * The dashboard JSON API (docs/product.md §4, docs/dashboard-api.md), one Elysia instance: signing
 * in needs no caller; every other route is authenticated once by the shared context, declares the
 * access it needs and gets its project loaded. One line per resource.
 */
export function dashboardApi(deps: AppDeps, clientOf: (request: Request) => string, methods: SignInRegistry = signInMethods(deps)) {
  const context = dashboardContext(deps, clientOf, RAW_BODY_ROUTES);
  // Searches, filters, counts and the problem list: on a pool of threads, a caller's few at a time.
  const reads = new KeyReads(keyReadOffThread);
  return new Elysia({ prefix: DASHBOARD_API_PREFIX })
    .use(signInRoutes(deps, clientOf, methods))
    .use(sessionRoutes(deps, context, methods, clientOf))
    .use(userRoutes(deps, context))
    .use(projectRoutes(deps, context))
    .use(keyRoutes(deps, context, reads))
    .use(editorRoutes(deps, context, reads))
    .use(importRoutes(deps, context))
    .use(releaseRoutes(deps, context))
    .use(channelRoutes(deps, context))
    .use(deliveryRoutes(deps, context))
    .use(tokenRoutes(deps, context))
    .use(webhookRoutes(deps, context))
    .use(auditRoutes(deps, context))
    .use(memberRoutes(deps, context))
    .use(mirrorRoutes(deps, context))
    .use(memoryRoutes(deps, context))
    .use(glossaryRoutes(deps, context))
    .use(commentRoutes(deps, context))
    .use(screenshotRoutes(deps, context));
}

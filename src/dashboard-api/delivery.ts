import { Elysia } from "elysia";
import type { AppDeps } from "../deps.ts";
import { listBuilds } from "../delivery/build-list.ts";
import { registerBuild } from "../delivery/builds.ts";
import { rotateSigningKey, signingKeyView } from "../delivery/keys.ts";
import { NewBuild } from "../delivery/model.ts";
import type { DashboardContext } from "./access.ts";

/**
 * Delivery to apps (docs/delivery.md): the project's signing key and its rotation, and app builds.
 * A build's base files are sent like an import's, so registering one is an import's right (a
 * `write` token, CI's); rotating the key is a project admin's.
 */
export function deliveryRoutes(deps: AppDeps, context: DashboardContext) {
  const { db, settings } = deps;
  return new Elysia()
    .use(context)
    .get("/projects/:pid/signing-key", ({ project }) => signingKeyView(db, settings.cdnUrl, project), { access: "read", inProject: true })
    .post("/projects/:pid/signing-key/rotate", ({ project, by }) => rotateSigningKey(deps, settings.cdnUrl, project, by), { access: "settings", inProject: true })
    .get("/projects/:pid/builds", async ({ project }) => ({ items: await listBuilds(deps, project) }), { access: "read", inProject: true })
    .post("/projects/:pid/builds", async ({ project, body, status }) => status(201, await registerBuild(deps, settings.dataDir, project, body as NewBuild)), {
      access: "import",
      inProject: true,
      body: NewBuild,
    });
}

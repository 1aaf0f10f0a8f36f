import { Elysia } from "elysia";
import { addLanguage, listLanguages, removeLanguage } from "../authoring/languages.ts";
import { NewLanguage, NewProject, ProjectPatch } from "../authoring/model.ts";
import { projectProgress } from "../authoring/progress.ts";
import { createProject, listProjects, projectView, rotateProjectSlug, updateProject } from "../authoring/projects.ts";
import type { AppDeps } from "../deps.ts";
import type { DashboardContext } from "./access.ts";

/** Projects, their settings, slug and languages (docs/product.md §4). */
export function projectRoutes(deps: AppDeps, context: DashboardContext) {
  const { db } = deps;
  return new Elysia()
    .use(context)
    // A token sees only its own project (docs/product.md §6): that is how the client finds it.
    .get("/projects", ({ caller }) => ({ items: listProjects(db, caller.kind === "token" ? caller.token.projectId : undefined) }), { access: "read" })
    .post("/projects", ({ body, status }) => status(201, createProject(deps, body)), {
      access: "admin",
      body: NewProject,
    })
    .get("/projects/:pid", ({ project }) => projectView(project), { access: "read", inProject: true })
    .patch("/projects/:pid", ({ project, body, by }) => updateProject(deps, project, body, by), {
      access: "admin",
      inProject: true,
      body: ProjectPatch,
    })
    .post("/projects/:pid/rotate-slug", ({ project, by }) => rotateProjectSlug(deps, project, by), { access: "admin", inProject: true })
    // Per-language counts for the key grid and the publish confirmation (docs/dashboard.md "Progress").
    .get("/projects/:pid/progress", ({ project }) => projectProgress(db, project), { access: "read", inProject: true })
    .get("/projects/:pid/languages", ({ project }) => ({ items: listLanguages(db, project) }), { access: "read", inProject: true })
    .post("/projects/:pid/languages", ({ project, body, status }) => status(201, addLanguage(deps, project, body)), {
      access: "add-language",
      inProject: true,
      body: NewLanguage,
    })
    .delete(
      "/projects/:pid/languages/:code",
      ({ project, params, status }) => {
        removeLanguage(deps, project, params.code);
        return status(204);
      },
      { access: "admin", inProject: true },
    );
}

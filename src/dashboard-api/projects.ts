import { Elysia } from "elysia";
import { addLanguage, listLanguages, removeLanguage } from "../authoring/languages.ts";
import { NewLanguage, NewProject, ProjectPatch } from "../authoring/model.ts";
import { projectProgress } from "../authoring/progress.ts";
import { createProject, listProjects, pickProjects, projectView, rotateProjectSlug, updateProject } from "../authoring/projects.ts";
import type { AppDeps } from "../deps.ts";
import { grantOf, grantsOf, type Grant } from "../members/members.ts";
import { onlyVisible, visibleLanguages, type DashboardContext, type SessionCaller } from "./access.ts";

/** The caller's role in a project, in a project's reply; none for a token. */
function roleView(grant: Grant | null): { role?: string; role_languages?: string[] | null } {
  return grant === null ? {} : { role: grant.role, role_languages: grant.languages };
}

/** The projects a user holds a role in (a global admin: all), each with that role. */
function projectsOf(deps: AppDeps, caller: SessionCaller) {
  const user = { id: caller.userId, role: caller.session.user.role };
  // One read of the user's rows, not one per project.
  const own = grantsOf(deps.db, user);
  const fallback = deps.settings.defaultProjectRole;
  return pickProjects(deps.db, (project) => {
    const grant = own === null ? grantOf(deps.db, user, project.id, fallback) : (own.get(project.id) ?? (fallback === "none" ? null : { role: fallback, languages: null }));
    return grant === null ? null : roleView(grant);
  });
}

/** Progress of only the languages a language-limited role sees. */
function progressShown<P extends { languages: { code: string }[] }>(visible: Set<string> | null, progress: P): P {
  return visible === null ? progress : { ...progress, languages: onlyVisible(visible, progress.languages, (l) => l.code) };
}

/** Projects, their settings, slug and languages (docs/product.md §4). */
export function projectRoutes(deps: AppDeps, context: DashboardContext) {
  const { db } = deps;
  return new Elysia()
    .use(context)
    // A token sees only its own project (docs/product.md §6): that is how the client finds it. A
    // user sees the projects they hold a role in, each with that role (docs/dashboard-api.md "Project roles").
    .get("/projects", ({ caller }) => ({ items: caller.kind === "token" ? listProjects(db, caller.token.projectId) : projectsOf(deps, caller) }), { access: "read" })
    .post("/projects", ({ body, caller, status }) => status(201, createProject(deps, body, caller.userId)), {
      access: "admin",
      body: NewProject,
    })
    .get("/projects/:pid", ({ project, grant }) => ({ ...projectView(project), ...roleView(grant) }), { access: "read", inProject: true })
    .patch("/projects/:pid", ({ project, body, by }) => updateProject(deps, project, body, by), {
      access: "settings",
      inProject: true,
      body: ProjectPatch,
    })
    .post("/projects/:pid/rotate-slug", ({ project, by }) => rotateProjectSlug(deps, project, by), { access: "settings", inProject: true })
    // Per-language counts for the key grid and the publish confirmation (docs/dashboard.md "Progress").
    .get("/projects/:pid/progress", ({ project, grant }) => progressShown(visibleLanguages(grant, project), projectProgress(db, project)), { access: "read", inProject: true })
    .get("/projects/:pid/languages", ({ project, grant }) => ({ items: onlyVisible(visibleLanguages(grant, project), listLanguages(db, project), (l) => l.code) }), {
      access: "read",
      inProject: true,
    })
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
      { access: "settings", inProject: true },
    );
}

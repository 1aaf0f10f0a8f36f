import { Elysia, t } from "elysia";
import type { AppDeps } from "../../app.ts";
import { addLanguage, listLanguages, removeLanguage } from "../languages.ts";
import { createProject, findProject, listProjects, projectView, rotateProjectSlug, updateProject } from "../projects.ts";
import { requireAdmin, sessionGuard } from "./guard.ts";

const Name = t.String({ minLength: 1, maxLength: 200 });
const Code = t.String({ minLength: 1, maxLength: 35 });

export function projectRoutes(deps: AppDeps) {
  const { db, clock, changes } = deps;
  return new Elysia()
    .use(sessionGuard(deps))
    .get("/projects", () => ({ items: listProjects(db) }))
    .post(
      "/projects",
      ({ body, session, set }) => {
        requireAdmin(session);
        set.status = 201;
        return createProject(db, clock, body);
      },
      { body: t.Object({ name: Name, base_language_code: Code }) },
    )
    .get("/projects/:pid", ({ params }) => projectView(findProject(db, params.pid)))
    .patch(
      "/projects/:pid",
      ({ params, body, session }) => {
        requireAdmin(session);
        const view = updateProject(db, params.pid, body);
        changes.notify(findProject(db, params.pid).id);
        return view;
      },
      { body: t.Object({ name: t.Optional(Name), base_language_code: t.Optional(Code) }) },
    )
    .post("/projects/:pid/rotate-slug", ({ params, session }) => {
      requireAdmin(session);
      const { project, cdn_slug } = rotateProjectSlug(db, params.pid);
      changes.notify(project.id);
      return { cdn_slug };
    })
    .get("/projects/:pid/languages", ({ params }) => ({ items: listLanguages(db, findProject(db, params.pid)) }))
    .post(
      "/projects/:pid/languages",
      ({ params, body, session, set }) => {
        requireAdmin(session);
        const project = findProject(db, params.pid);
        const view = addLanguage(db, clock, project, body);
        changes.notify(project.id);
        set.status = 201;
        return view;
      },
      { body: t.Object({ code: Code, name: t.Optional(t.String({ maxLength: 100 })) }) },
    )
    .delete("/projects/:pid/languages/:code", ({ params, session, set }) => {
      requireAdmin(session);
      const project = findProject(db, params.pid);
      removeLanguage(db, project, params.code);
      changes.notify(project.id);
      set.status = 204;
    });
}

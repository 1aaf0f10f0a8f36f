import { Elysia } from "elysia";
import type { AppDeps } from "../deps.ts";
import { glossaryCsv, importGlossaryCsv } from "../glossary/csv.ts";
import { createTerm, deleteTerm, listTerms, updateTerm } from "../glossary/glossary.ts";
import { GLOSSARY_CSV_MAX_BYTES, NewTerm, TermPatch } from "../glossary/model.ts";
import type { Access, DashboardContext } from "./access.ts";
import type { RawBody, RawBodyRoute } from "./guards.ts";

/** A CSV file is the body of a glossary import (docs/architecture.md "Adding a binary upload"). */
export const GLOSSARY_CSV_BODY: RawBodyRoute<Access> = { method: "POST", path: "/projects/:pid/glossary.csv", types: ["text/csv"], maxBytes: GLOSSARY_CSV_MAX_BYTES, access: "keys" };

/** A project's glossary (docs/translators.md "Glossary"): read by viewers, kept by developers and write tokens. */
export function glossaryRoutes(deps: AppDeps, context: DashboardContext) {
  const { db } = deps;
  return new Elysia()
    .use(context)
    .get("/projects/:pid/glossary", ({ project }) => ({ items: listTerms(db, project) }), { access: "read", inProject: true })
    .post("/projects/:pid/glossary", async ({ project, body, status }) => status(201, await createTerm(deps, project, body)), { access: "keys", inProject: true, body: NewTerm })
    .patch("/projects/:pid/glossary/:termId", ({ project, params, body }) => updateTerm(deps, project, params.termId, body), { access: "keys", inProject: true, body: TermPatch })
    .delete(
      "/projects/:pid/glossary/:termId",
      async ({ project, params, status }) => {
        await deleteTerm(deps, project, params.termId);
        return status(204);
      },
      { access: "keys", inProject: true },
    )
    .get(
      "/projects/:pid/glossary.csv",
      ({ project, set }) => {
        set.headers["content-type"] = "text/csv; charset=utf-8";
        set.headers["content-disposition"] = `attachment; filename="glossary.csv"`;
        set.headers["cache-control"] = "no-store";
        return glossaryCsv(db, project);
      },
      { access: "read", inProject: true },
    )
    .post("/projects/:pid/glossary.csv", ({ project, body }) => importGlossaryCsv(deps, project, (body as RawBody).bytes), { access: GLOSSARY_CSV_BODY.access, inProject: true });
}

/**
 * The glossary's routes as scenario rows (docs/translators.md "Glossary"); the behaviour itself:
 * test/glossary/.
 */
import { expect } from "bun:test";
import { scenarios, type Scenario } from "../helpers/scenario.ts";
import { coverage } from "./routes.ts";
import { standardWorld } from "./world.ts";

const CSV = { "content-type": "text/csv" };

const rows: Scenario[] = [
  { name: "a member reads the glossary", as: "member", method: "GET", url: "/projects/:pid/glossary", status: 200, after: ({ ids }, body) => expect(body.items).toEqual([expect.objectContaining({ id: ids.termId, term: "wishlist", translations: { de: "Wunschliste" } })]) },
  { name: "an unknown project is 404", method: "GET", url: "/projects/prj_00000000000000000000/glossary", status: 404, contains: ["project not found"] },

  { name: "a member adds a term", as: "member", method: "POST", url: "/projects/:pid/glossary", body: { term: "checkout", translations: { de: "Kasse" } }, status: 201, contains: ['"term":"checkout"'] },
  { name: "a term past its limit is 400 naming it", method: "POST", url: "/projects/:pid/glossary", body: { term: "t".repeat(201) }, status: 400, contains: ['"term"'] },
  { name: "the same term again is 409", method: "POST", url: "/projects/:pid/glossary", body: { term: "wishlist" }, status: 409, contains: ["already has the term"] },
  { name: "an unknown project is 404", method: "POST", url: "/projects/prj_00000000000000000000/glossary", body: { term: "x" }, status: 404, contains: ["project not found"] },

  { name: "a member changes a term", as: "member", method: "PATCH", url: "/projects/:pid/glossary/:termId", body: { note: "saved for later" }, status: 200, contains: ['"note":"saved for later"'] },
  { name: "a note past its limit is 400 naming it", method: "PATCH", url: "/projects/:pid/glossary/:termId", body: { note: "n".repeat(2001) }, status: 400, contains: ['"note"'] },
  { name: "an unknown term is 404", method: "PATCH", url: "/projects/:pid/glossary/gls_00000000000000000000", body: { note: "x" }, status: 404, contains: ["glossary term not found"] },

  { name: "a member deletes a term", as: "member", method: "DELETE", url: "/projects/:pid/glossary/:termId", status: 204 },
  { name: "another project's term is 404", method: "DELETE", url: "/projects/:listPid/glossary/:termId", status: 404, contains: ["glossary term not found"] },

  { name: "a member exports the glossary as CSV", as: "member", method: "GET", url: "/projects/:pid/glossary.csv", status: 200, after: (_, body) => expect(body).toBe("term,de,pt-BR,note,case_sensitive,do_not_translate\r\nwishlist,Wunschliste,,,false,false\r\n") },
  { name: "an unknown project is 404", method: "GET", url: "/projects/prj_00000000000000000000/glossary.csv", status: 404, contains: ["project not found"] },

  { name: "a member imports a CSV glossary", as: "member", method: "POST", url: "/projects/:pid/glossary.csv", headers: CSV, body: "term,de\nwishlist,Merkliste\ncart,Warenkorb\n", status: 200, after: (_, body) => expect(body).toEqual({ created: 1, updated: 1, unchanged: 0 }) },
  { name: "a column that is no language is 400 naming it", method: "POST", url: "/projects/:pid/glossary.csv", headers: CSV, body: "term,xx\n", status: 400, contains: ['column "xx"'] },
  { name: "JSON is not CSV: 415", method: "POST", url: "/projects/:pid/glossary.csv", body: { term: "x" }, status: 415, contains: ["text/csv"] },
  { name: "an unknown project is 404", method: "POST", url: "/projects/prj_00000000000000000000/glossary.csv", headers: CSV, body: "term\n", status: 404, contains: ["project not found"] },
];

scenarios("glossary", standardWorld, rows);
coverage("glossary", rows);

/**
 * The translation memory's routes as scenario rows (docs/translators.md "Translation memory",
 * "TMX", "Pre-translation"): who may call each, what a bad input is told, what an unknown id is.
 * The behaviour itself: test/memory/.
 */
import { expect } from "bun:test";
import { scenarios, type Scenario } from "../helpers/scenario.ts";
import { coverage } from "./routes.ts";
import { standardWorld, TMX } from "./world.ts";

const XML = { "content-type": "application/xml" };

const rows: Scenario[] = [
  {
    name: "a member gets suggestions: the imported memory's unit for a resembling base string",
    as: "member",
    method: "GET",
    url: "/projects/:pid/keys/:plainKeyId/suggestions?language=de",
    status: 200,
    async before({ as, ids }) {
      await as("admin").put(`/projects/${ids.pid}/keys/${ids.plainKeyId}/translations/en`, { value: "Pay now!" });
    },
    // d 1 of 8 code points: 87.
    after: ({ ids }, body) => expect(body.items).toEqual([expect.objectContaining({ source: "memory", value: "Jetzt bezahlen", score: 87, from: expect.objectContaining({ memory: { id: ids.importId, name: "Legacy" } }) })]),
  },
  { name: "language is required", method: "GET", url: "/projects/:pid/keys/:keyId/suggestions", status: 400, contains: ['"language"'] },
  { name: "machine must be true or false", method: "GET", url: "/projects/:pid/keys/:keyId/suggestions?language=de&machine=maybe", status: 400, contains: ['"machine"'] },
  { name: "an unknown key is 404", method: "GET", url: "/projects/:pid/keys/key_00000000000000000000/suggestions?language=de", status: 404, contains: ["key not found"] },

  {
    name: "a member exports the memory as TMX",
    as: "member",
    method: "GET",
    url: "/projects/:pid/tm.tmx?language=de",
    status: 200,
    after: (_, body) => expect(body).toContain('<tu tuid="checkout.title">'),
  },
  { name: "language must be the project's", method: "GET", url: "/projects/:pid/tm.tmx?language=it", status: 400, contains: ['"language"'] },
  { name: "an unknown project is 404", method: "GET", url: "/projects/prj_00000000000000000000/tm.tmx?language=de", status: 404, contains: ["project not found"] },

  { name: "a member imports a TMX file", as: "member", method: "POST", url: "/projects/:pid/tm/import?name=Again", headers: XML, body: TMX, status: 200, contains: ['"imported":1'] },
  { name: "a name past its limit is 400 naming it", method: "POST", url: `/projects/:pid/tm/import?name=${"n".repeat(201)}`, headers: XML, body: TMX, status: 400, contains: ['"name"'] },
  { name: "an unknown project is 404", method: "POST", url: "/projects/prj_00000000000000000000/tm/import", headers: XML, body: TMX, status: 404, contains: ["project not found"] },

  { name: "a member lists the imported memories", as: "member", method: "GET", url: "/projects/:pid/tm/imports", status: 200, after: ({ ids }, body) => expect(body.items.map((i: any) => i.id)).toEqual([ids.importId]) },
  { name: "an unknown project is 404", method: "GET", url: "/projects/prj_00000000000000000000/tm/imports", status: 404, contains: ["project not found"] },

  { name: "a member deletes an imported memory", as: "member", method: "DELETE", url: "/projects/:pid/tm/imports/:importId", status: 204 },
  { name: "an unknown memory is 404", method: "DELETE", url: "/projects/:pid/tm/imports/tmx_00000000000000000000", status: 404, contains: ["imported memory not found"] },
  { name: "another project's memory is 404", method: "DELETE", url: "/projects/:listPid/tm/imports/:importId", status: 404, contains: ["imported memory not found"] },

  {
    name: "a member pre-translates: an exact match from the memory fills a missing value",
    as: "member",
    method: "POST",
    url: "/projects/:pid/pretranslate",
    body: { language_code: "de" },
    status: 200,
    async before({ as, ids }) {
      await as("admin").put(`/projects/${ids.pid}/keys/${ids.plainKeyId}/translations/en`, { value: "Pay now" });
    },
    events: ["translation_created"],
    after: (_, body) => expect(body).toEqual({ filled: 1, skipped: 0 }),
  },
  { name: "min_score below 75 is 400 naming it", method: "POST", url: "/projects/:pid/pretranslate", body: { language_code: "de", min_score: 50 }, status: 400, contains: ['"min_score"'] },
  { name: "language_code is required", method: "POST", url: "/projects/:pid/pretranslate", body: {}, status: 400, contains: ['"language_code"'] },
  { name: "an unknown project is 404", method: "POST", url: "/projects/prj_00000000000000000000/pretranslate", body: { language_code: "de" }, status: 404, contains: ["project not found"] },
];

scenarios("translation memory", standardWorld, rows);
coverage("memory", rows);

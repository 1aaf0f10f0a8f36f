/**
 * Every role x every project route (docs/dashboard-api.md "Project roles", the rights table): for
 * each route the lowest role that may call it; each role at or above it gets the route's success,
 * each below it a 403 that writes nothing, and a user with no role in the project a 404. Written
 * from the rights table of the docs, not from src/dashboard-api/access.ts, so a route that declares
 * the wrong right fails here. Language limits have their own rows below.
 */
import { expect, test } from "bun:test";
import { scenarios, type RoleWho, type Scenario, type ScenarioContext } from "../helpers/scenario.ts";
import { testApp } from "../helpers/app.ts";
import { PNG } from "../screenshots/images.ts";
import { ROLE_USERS, rolesWorld } from "./roles-world.ts";
import { TMX } from "./world.ts";
import { dashboardRoutes } from "./routes.ts";

type Needs = "viewer" | "translator" | "reviewer" | "developer" | "publisher" | "admin";
const ORDER: Needs[] = ["viewer", "translator", "reviewer", "developer", "publisher", "admin"];
const ROLE_OF: Record<Exclude<RoleWho, "outsider">, Needs> = {
  viewer: "viewer",
  translator: "translator",
  reviewer: "reviewer",
  developer: "developer",
  publisher: "publisher",
  "project-admin": "admin",
};

/**
 * [route, the lowest role that may, a request that succeeds for it: url, body, status]. A null
 * status: the success needs a state this world lacks (a channel, a schedule), and the route's own
 * table has it; the refusals are checked here all the same.
 */
const XML = { "content-type": "application/xml" };
const CSV = { "content-type": "text/csv" };
const IMAGE = { "content-type": "image/png" };

const RIGHTS: [route: string, needs: Needs, url: string, body: unknown, ok: number | null, headers?: Record<string, string>][] = [
  ["GET /projects/:pid", "viewer", "/projects/:pid", undefined, 200],
  ["PATCH /projects/:pid", "admin", "/projects/:pid", { name: "Renamed" }, 200],
  ["POST /projects/:pid/rotate-slug", "admin", "/projects/:pid/rotate-slug", undefined, 200],
  ["GET /projects/:pid/progress", "viewer", "/projects/:pid/progress", undefined, 200],
  ["GET /projects/:pid/languages", "viewer", "/projects/:pid/languages", undefined, 200],
  ["POST /projects/:pid/languages", "publisher", "/projects/:pid/languages", { code: "fr" }, 201],
  ["DELETE /projects/:pid/languages/:code", "admin", "/projects/:pid/languages/pt-BR", undefined, 204],
  ["GET /projects/:pid/keys", "viewer", "/projects/:pid/keys", undefined, 200],
  ["POST /projects/:pid/keys", "developer", "/projects/:pid/keys", { key: "new.key" }, 201],
  ["GET /projects/:pid/keys/:keyId", "viewer", "/projects/:pid/keys/:keyId", undefined, 200],
  ["PATCH /projects/:pid/keys/:keyId", "developer", "/projects/:pid/keys/:keyId", { key: "renamed.key" }, 200],
  ["DELETE /projects/:pid/keys/:keyId", "developer", "/projects/:pid/keys/:keyId", undefined, 204],
  ["PUT /projects/:pid/keys/:keyId/translations/:code", "translator", "/projects/:pid/keys/:keyId/translations/de", { value: "Zur Kasse" }, 200],
  ["POST /projects/:pid/keys/:keyId/translations/:code/approve", "reviewer", "/projects/:pid/keys/:keyId/translations/de/approve", undefined, 200],
  ["GET /projects/:pid/keys/:keyId/history", "viewer", "/projects/:pid/keys/:keyId/history", undefined, 200],
  ["GET /projects/:pid/problems", "viewer", "/projects/:pid/problems", undefined, 200],
  ["GET /projects/:pid/key-counts", "viewer", "/projects/:pid/key-counts?language=de", undefined, 200],
  ["GET /projects/:pid/editor-preferences", "viewer", "/projects/:pid/editor-preferences", undefined, 200],
  ["PUT /projects/:pid/editor-preferences", "viewer", "/projects/:pid/editor-preferences", { languages: ["de"] }, 200],
  ["POST /projects/:pid/import", "developer", "/projects/:pid/import", { language_code: "de", format: "json", content: '{"checkout.title":"Kasse!"}' }, 200],
  ["GET /projects/:pid/releases", "viewer", "/projects/:pid/releases", undefined, 200],
  ["POST /projects/:pid/releases", "publisher", "/projects/:pid/releases", { name: "R", tag: "r1" }, 201],
  ["GET /projects/:pid/releases/:rid", "viewer", "/projects/:pid/releases/:releaseId", undefined, 200],
  ["PATCH /projects/:pid/releases/:rid", "publisher", "/projects/:pid/releases/:draftId", { name: "Renamed" }, 200],
  ["POST /projects/:pid/releases/:rid/publish", "publisher", "/projects/:pid/releases/:draftId/publish", undefined, 200],
  ["POST /projects/:pid/releases/:rid/rotate-slug", "admin", "/projects/:pid/releases/:releaseId/rotate-slug", undefined, 200],
  ["DELETE /projects/:pid/releases/:rid", "publisher", "/projects/:pid/releases/:draftId", undefined, 204],
  ["GET /projects/:pid/tokens", "developer", "/projects/:pid/tokens", undefined, 200],
  ["POST /projects/:pid/tokens", "admin", "/projects/:pid/tokens", { name: "t" }, 201],
  ["DELETE /projects/:pid/tokens/:tokenId", "admin", "/projects/:pid/tokens/:tokenId", undefined, 204],
  ["GET /projects/:pid/webhooks", "developer", "/projects/:pid/webhooks", undefined, 200],
  ["POST /projects/:pid/webhooks", "admin", "/projects/:pid/webhooks", { url: "https://hooks.example.test/x", events: ["key_created"] }, 201],
  ["GET /projects/:pid/webhooks/:wid", "developer", "/projects/:pid/webhooks/:webhookId", undefined, 200],
  ["PATCH /projects/:pid/webhooks/:wid", "admin", "/projects/:pid/webhooks/:webhookId", { enabled: false }, 200],
  ["DELETE /projects/:pid/webhooks/:wid", "admin", "/projects/:pid/webhooks/:webhookId", undefined, 204],
  ["POST /projects/:pid/webhooks/:wid/test", "admin", "/projects/:pid/webhooks/:webhookId/test", { event: "release_published" }, 202],
  ["GET /projects/:pid/webhooks/:wid/deliveries", "developer", "/projects/:pid/webhooks/:webhookId/deliveries", undefined, 200],
  ["GET /projects/:pid/deliveries/:did", "developer", "/projects/:pid/deliveries/:deliveryId", undefined, 200],
  ["POST /projects/:pid/deliveries/:did/redeliver", "admin", "/projects/:pid/deliveries/:deliveryId/redeliver", undefined, 202],
  ["GET /projects/:pid/members", "admin", "/projects/:pid/members", undefined, 200],
  ["PUT /projects/:pid/members/:userId", "admin", "/projects/:pid/members/:memberId", { role: "viewer" }, 200],
  ["DELETE /projects/:pid/members/:userId", "admin", "/projects/:pid/members/:memberId", undefined, 204],
  ["GET /projects/:pid/audit", "admin", "/projects/:pid/audit", undefined, 200],
  ["GET /projects/:pid/releases/:rid/export", "viewer", "/projects/:pid/releases/:releaseId/export?format=json&language=de", undefined, 200],
  ["POST /projects/:pid/releases/:rid/republish", "publisher", "/projects/:pid/releases/:releaseId/republish", { name: "Again", tag: "v1.1" }, 201],
  ["GET /projects/:pid/releases/:rid/diff", "viewer", "/projects/:pid/releases/:releaseId/diff", undefined, 200],
  ["PUT /projects/:pid/releases/:rid/schedule", "publisher", "/projects/:pid/releases/:draftId/schedule", { at: "2030-01-01T00:00:00Z" }, 200],
  ["DELETE /projects/:pid/releases/:rid/schedule", "publisher", "/projects/:pid/releases/:draftId/schedule", undefined, 204],
  ["GET /projects/:pid/channels", "viewer", "/projects/:pid/channels", undefined, 200],
  ["GET /projects/:pid/channels/:name", "viewer", "/projects/:pid/channels/staging", undefined, null],
  ["PUT /projects/:pid/channels/:name", "publisher", "/projects/:pid/channels/staging", { release_id: "rel_00000000000000000000" }, null],
  ["POST /projects/:pid/channels/:name/rotate-slug", "admin", "/projects/:pid/channels/staging/rotate-slug", undefined, null],
  ["DELETE /projects/:pid/channels/:name", "publisher", "/projects/:pid/channels/staging", undefined, null],
  // docs/delivery.md: the key is read like the project and rotated by its admins; a build's base files are sent like an import's.
  ["GET /projects/:pid/signing-key", "viewer", "/projects/:pid/signing-key", undefined, 200],
  ["POST /projects/:pid/signing-key/rotate", "admin", "/projects/:pid/signing-key/rotate", undefined, 200],
  ["GET /projects/:pid/builds", "viewer", "/projects/:pid/builds", undefined, 200],
  ["POST /projects/:pid/builds", "developer", "/projects/:pid/builds", { files: [{ format: "json", content: '{"a":"A"}' }] }, 201],
  // Help for translators (docs/translators.md).
  ["GET /projects/:pid/keys/:keyId/suggestions", "viewer", "/projects/:pid/keys/:keyId/suggestions?language=de", undefined, 200],
  ["GET /projects/:pid/tm.tmx", "viewer", "/projects/:pid/tm.tmx?language=de", undefined, 200],
  ["POST /projects/:pid/tm/import", "developer", "/projects/:pid/tm/import", TMX, 200, XML],
  ["GET /projects/:pid/tm/imports", "viewer", "/projects/:pid/tm/imports", undefined, 200],
  ["DELETE /projects/:pid/tm/imports/:importId", "developer", "/projects/:pid/tm/imports/:importId", undefined, 204],
  ["POST /projects/:pid/pretranslate", "developer", "/projects/:pid/pretranslate", { language_code: "de" }, 200],
  ["GET /projects/:pid/glossary", "viewer", "/projects/:pid/glossary", undefined, 200],
  ["POST /projects/:pid/glossary", "developer", "/projects/:pid/glossary", { term: "cart" }, 201],
  ["PATCH /projects/:pid/glossary/:termId", "developer", "/projects/:pid/glossary/:termId", { note: "later" }, 200],
  ["DELETE /projects/:pid/glossary/:termId", "developer", "/projects/:pid/glossary/:termId", undefined, 204],
  ["GET /projects/:pid/glossary.csv", "viewer", "/projects/:pid/glossary.csv", undefined, 200],
  ["POST /projects/:pid/glossary.csv", "developer", "/projects/:pid/glossary.csv", "term\ncart\n", 200, CSV],
  ["GET /projects/:pid/keys/:keyId/comments", "viewer", "/projects/:pid/keys/:keyId/comments", undefined, 200],
  ["POST /projects/:pid/keys/:keyId/comments", "translator", "/projects/:pid/keys/:keyId/comments", { body: "Which page?" }, 201],
  ["POST /projects/:pid/keys/:keyId/comments/:commentId/resolve", "translator", "/projects/:pid/keys/:keyId/comments/:commentId/resolve", undefined, 200],
  // Its author's or a project admin's to delete: comments.test.ts.
  ["DELETE /projects/:pid/keys/:keyId/comments/:commentId", "translator", "/projects/:pid/keys/:keyId/comments/:commentId", undefined, null],
  ["GET /projects/:pid/screenshots", "viewer", "/projects/:pid/screenshots", undefined, 200],
  ["POST /projects/:pid/screenshots", "developer", "/projects/:pid/screenshots?name=home", PNG, 201, IMAGE],
  ["GET /projects/:pid/screenshots/:sid/image", "viewer", "/projects/:pid/screenshots/:sid/image", undefined, 200],
  ["PUT /projects/:pid/screenshots/:sid/keys", "developer", "/projects/:pid/screenshots/:sid/keys", { keys: [] }, 200],
  ["DELETE /projects/:pid/screenshots/:sid", "developer", "/projects/:pid/screenshots/:sid", undefined, 204],
  ["GET /projects/:pid/keys/:keyId/screenshots", "viewer", "/projects/:pid/keys/:keyId/screenshots", undefined, 200],
];

const METHOD = (route: string) => route.split(" ")[0]!;

const rows: Scenario[] = [];
for (const [route, needs, url, body, ok, headers] of RIGHTS) {
  for (const { who } of ROLE_USERS) {
    const method = METHOD(route);
    if (who === "outsider") {
      rows.push({ name: "no role in the project: 404", as: who, method, url, body, headers, status: 404, contains: ["project not found"] });
      continue;
    }
    const allowed = ORDER.indexOf(ROLE_OF[who]) >= ORDER.indexOf(needs);
    if (allowed && ok === null) continue;
    rows.push(
      allowed
        ? { name: `${who} may (needs ${needs})`, as: who, method, url, body, headers, status: ok! }
        : { name: `${who} may not (needs ${needs})`, as: who, method, url, body, headers, status: 403, contains: [`${needs} role`] },
    );
  }
}

scenarios("every project role x every project route", rolesWorld, rows);

test("the rights table names every project route of the app", async () => {
  const t = await testApp({ env: { PHRASEBOOK_ADMIN_EMAIL: "", PHRASEBOOK_ADMIN_PASSWORD: "" } });
  try {
    const app = (await dashboardRoutes(t.app)).map((r) => `${r.method} ${r.path}`).filter((r) => r.includes("/projects/:pid"));
    expect(RIGHTS.map(([route]) => route).sort()).toEqual(app.sort());
  } finally {
    await t.close();
  }
});

/** Unpublished changes in de and pt-BR, which the draft "Next" would publish. */
async function editPtAndDe({ as, ids }: ScenarioContext): Promise<void> {
  for (const [code, value] of [["de", "Zur Kasse"], ["pt-BR", "Caixa"]]) {
    const r = await as("admin").put(`/projects/${ids.pid}/keys/${ids.keyId}/translations/${code}`, { value });
    if (r.status !== 200) throw new Error(`${code}: ${r.status}`);
  }
}

scenarios("language limits and what a limited role sees", rolesWorld, [
  { name: "a translator of de may not edit pt-BR", as: "translator", method: "PUT", url: "/projects/:pid/keys/:keyId/translations/pt-BR", body: { value: "Caixa" }, status: 403, contains: ["covers de, not pt-BR"] },
  { name: "a reviewer of de may not approve en", as: "reviewer", method: "POST", url: "/projects/:pid/keys/:keyId/translations/en/approve", status: 403, contains: ["covers de, not en"] },
  { name: "a reviewer of de may translate de", as: "reviewer", method: "PUT", url: "/projects/:pid/keys/:keyId/translations/de", body: { value: "Kasse!" }, status: 200 },
  // Writing past the limit by the ways around it (the hardening sweep of 2026-11-27: all held).
  { name: "a translator of de may not edit the base language", as: "translator", method: "PUT", url: "/projects/:pid/keys/:keyId/translations/en", body: { value: "Checkout!" }, status: 403, contains: ["covers de, not en"] },
  { name: "a translator of de may not edit pt-BR spelled in another case", as: "translator", method: "PUT", url: "/projects/:pid/keys/:keyId/translations/PT-br", body: { value: "Caixa" }, status: 403, contains: ["covers de, not"] },
  { name: "a translator may not import, even into their language", as: "translator", method: "POST", url: "/projects/:pid/import", body: { language_code: "de", format: "json", content: '{"checkout":"Kasse?"}' }, status: 403, contains: ["developer role"] },
  { name: "a translator may not widen their own language limit", as: "translator", method: "PUT", url: "/projects/:pid/members/:translatorId", body: { role: "translator", languages: ["de", "pt-BR"] }, status: 403, contains: ["admin role"] },
  { name: "a translator may not add a language to the project", as: "translator", method: "POST", url: "/projects/:pid/languages", body: { code: "fr" }, status: 403 },
  {
    name: "a project admin who is a viewer of another project may not raise themselves there",
    before: async ({ as, ids }) => {
      const r = await as("admin").put(`/projects/${ids.otherPid}/members/${ids.projectadminId}`, { role: "viewer" });
      if (r.status !== 200) throw new Error(`viewer role in Other: ${r.status}`);
    },
    as: "project-admin",
    method: "PUT",
    url: "/projects/:otherPid/members/:projectadminId",
    body: { role: "admin" },
    status: 403,
    contains: ["admin role"],
  },
  {
    name: "a project admin may not give a member rights in another project through their own",
    as: "project-admin",
    method: "PUT",
    url: "/projects/:pid/members/:translatorId",
    body: { role: "admin" },
    status: 200,
    after: async ({ t, ids }) => {
      // The grant is of this project only: the translator still holds nothing in Other.
      const rows = t.query<{ n: number }>("SELECT count(*) AS n FROM project_members m JOIN users u ON u.id = m.user_id JOIN projects p ON p.id = m.project_id WHERE u.public_id = ? AND p.public_id = ?", ids.translatorId!, ids.otherPid!);
      expect(rows[0]!.n).toBe(0);
      expect(t.query("SELECT role FROM users WHERE public_id = ?", ids.translatorId!)).toEqual([{ role: "member" }]);
    },
  },
  { name: "a language code in another letter case is the same language", as: "translator", method: "PUT", url: "/projects/:pid/keys/:keyId/translations/DE", body: { value: "Kasse!" }, status: 200 },
  {
    name: "a translator's language list: theirs and the base language",
    as: "translator",
    method: "GET",
    url: "/projects/:pid/languages",
    status: 200,
    after: (_ctx, body) => expect(body.items.map((l: any) => l.code)).toEqual(["de", "en"]),
  },
  {
    name: "a translator's progress: theirs and the base language",
    as: "translator",
    method: "GET",
    url: "/projects/:pid/progress",
    status: 200,
    after: (_ctx, body) => expect(body.languages.map((l: any) => l.code)).toEqual(["de", "en"]),
  },
  {
    name: "a translator's key list has no other language's translations",
    as: "translator",
    method: "GET",
    url: "/projects/:pid/keys",
    status: 200,
    after: (_ctx, body) => {
      for (const key of body.items) for (const code of Object.keys(key.translations)) expect(["de", "en"]).toContain(code);
    },
  },
  {
    name: "a viewer sees every language",
    as: "viewer",
    method: "GET",
    url: "/projects/:pid/languages",
    status: 200,
    after: (_ctx, body) => expect(body.items.map((l: any) => l.code)).toEqual(["de", "en", "pt-BR"]),
  },
  {
    name: "the project list: only projects the user holds a role in, with the role",
    as: "translator",
    method: "GET",
    url: "/projects",
    status: 200,
    after: (_ctx, body) => expect(body.items.map((p: any) => [p.name, p.role, p.role_languages])).toEqual([["Shop", "translator", ["de"]]]),
  },
  {
    name: "a translator's diff of a draft: the changes of their language and the base language only",
    before: editPtAndDe,
    as: "translator",
    method: "GET",
    url: "/projects/:pid/releases/:draftId/diff",
    status: 200,
    notContains: ["Caixa", "pt-BR"],
    after: (_ctx, body) => {
      expect(body.changed.map((c: any) => c.language_code)).toEqual(["de"]);
      // The counts stay whole, as a page of problems counts every language's.
      expect(body.counts.changed).toBe(2);
    },
  },
  {
    name: "a viewer's diff shows every language's changes",
    before: editPtAndDe,
    as: "viewer",
    method: "GET",
    url: "/projects/:pid/releases/:draftId/diff",
    status: 200,
    after: (_ctx, body) => expect(body.changed.map((c: any) => c.language_code).sort()).toEqual(["de", "pt-BR"]),
  },
  { name: "an outsider's project list is empty", as: "outsider", method: "GET", url: "/projects", status: 200, after: (_ctx, body) => expect(body.items).toEqual([]) },
  { name: "a project the user holds no role in is 404, like a missing one", as: "project-admin", method: "GET", url: "/projects/:otherPid/members", status: 404, contains: ["project not found"] },
  { name: "creating projects is for global admins", as: "project-admin", method: "POST", url: "/projects", body: { name: "Mine", base_language_code: "en" }, status: 403, contains: ["admin role"] },
  { name: "allow_errors is the project admin's call", as: "project-admin", method: "POST", url: "/projects/:pid/releases/:draftId/publish", body: { allow_errors: true }, status: 200 },
  { name: "a publisher may not publish with allow_errors", as: "publisher", method: "POST", url: "/projects/:pid/releases/:draftId/publish", body: { allow_errors: true }, status: 403, contains: ["allow_errors"] },
  { name: "a developer sees webhook URLs masked", as: "developer", method: "GET", url: "/projects/:pid/webhooks", status: 200 },
]);

/**
 * Every route of the dashboard API against every kind of token (product §6): a `read` token is
 * 403 everywhere; `write` reads the project's content and edits keys, translations, imports and
 * adds languages; `publish` reads and creates, renames and publishes releases; no token reaches
 * users, tokens, webhooks, slugs, deletions of languages or releases; a token of another project
 * is 404 on this one's ids. The expectations are written here from docs/dashboard-api.md "Tokens",
 * independently of the code's own map, and a route added to ROUTES without a line here fails.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { ManualClock } from "../helpers/app.ts";
import { closeWriteLockProbe, holdWriteLock, writeLockHeld } from "../helpers/write-lock.ts";
import { openWorld, scenarios, type Scenario, type TokenWho } from "../helpers/scenario.ts";
import { ROUTES } from "./routes.ts";
import { PNG } from "../screenshots/images.ts";
import { tokenWorld } from "./token-world.ts";
import { TMX } from "./world.ts";

/** Which scopes let a token call the route (docs/dashboard-api.md "Tokens"). */
type TokenRule = "write or publish" | "write" | "publish" | "no token";

interface Example {
  rule: TokenRule;
  /** A request an admin makes successfully, and its status. */
  url: string;
  body?: unknown;
  /** A file route's content type (docs/dashboard-api.md "Conventions"). */
  headers?: Record<string, string>;
  ok: number;
}

const ENDPOINT = { url: "https://hooks.example.test/new", events: ["key_created"] };

/** One line per route of ROUTES that needs a caller. */
const EXAMPLES: Record<string, Example> = {
  "GET /me": { rule: "write or publish", url: "/me", ok: 200 },
  "POST /logout": { rule: "write or publish", url: "/logout", ok: 400 }, // a token has no session to end
  "GET /users": { rule: "no token", url: "/users", ok: 200 },
  "GET /mirror": { rule: "no token", url: "/mirror", ok: 404 }, // the token world has no mirror
  "GET /audit": { rule: "no token", url: "/audit", ok: 200 },
  "GET /projects/:pid/audit": { rule: "no token", url: "/projects/:pid/audit", ok: 200 },
  // No token reaches the members of a project (docs/dashboard-api.md "Project roles").
  "GET /projects/:pid/members": { rule: "no token", url: "/projects/:pid/members", ok: 200 },
  "PUT /projects/:pid/members/:userId": { rule: "no token", url: "/projects/:pid/members/:memberId", body: { role: "viewer" }, ok: 200 },
  "DELETE /projects/:pid/members/:userId": { rule: "no token", url: "/projects/:pid/members/:memberId", ok: 204 },
  "POST /users": { rule: "no token", url: "/users", body: { email: "new@example.test", name: "New", password: "password-1", role: "member" }, ok: 201 },
  "PATCH /users/:userId": { rule: "no token", url: "/users/:memberId", body: { name: "Renamed" }, ok: 200 },
  "DELETE /users/:userId": { rule: "no token", url: "/users/:memberId", ok: 204 },
  "GET /projects": { rule: "write or publish", url: "/projects", ok: 200 },
  "POST /projects": { rule: "no token", url: "/projects", body: { name: "New", base_language_code: "en" }, ok: 201 },
  "GET /projects/:pid": { rule: "write or publish", url: "/projects/:pid", ok: 200 },
  "PATCH /projects/:pid": { rule: "no token", url: "/projects/:pid", body: { name: "Shop 2" }, ok: 200 },
  "POST /projects/:pid/rotate-slug": { rule: "no token", url: "/projects/:pid/rotate-slug", ok: 200 },
  "GET /projects/:pid/progress": { rule: "write or publish", url: "/projects/:pid/progress", ok: 200 },
  "GET /projects/:pid/languages": { rule: "write or publish", url: "/projects/:pid/languages", ok: 200 },
  "POST /projects/:pid/languages": { rule: "write", url: "/projects/:pid/languages", body: { code: "fr" }, ok: 201 },
  "DELETE /projects/:pid/languages/:code": { rule: "no token", url: "/projects/:pid/languages/de", ok: 204 },
  "GET /projects/:pid/keys": { rule: "write or publish", url: "/projects/:pid/keys", ok: 200 },
  "POST /projects/:pid/keys": { rule: "write", url: "/projects/:pid/keys", body: { key: "new.key" }, ok: 201 },
  "GET /projects/:pid/keys/:keyId": { rule: "write or publish", url: "/projects/:pid/keys/:keyId", ok: 200 },
  "PATCH /projects/:pid/keys/:keyId": { rule: "write", url: "/projects/:pid/keys/:keyId", body: { context: "New context" }, ok: 200 },
  "DELETE /projects/:pid/keys/:keyId": { rule: "write", url: "/projects/:pid/keys/:keyId", ok: 204 },
  "PUT /projects/:pid/keys/:keyId/translations/:code": { rule: "write", url: "/projects/:pid/keys/:keyId/translations/de", body: { value: "Zur Kasse" }, ok: 200 },
  "POST /projects/:pid/keys/:keyId/translations/:code/approve": { rule: "write", url: "/projects/:pid/keys/:keyId/translations/de/approve", ok: 200 },
  "GET /projects/:pid/keys/:keyId/history": { rule: "write or publish", url: "/projects/:pid/keys/:keyId/history", ok: 200 },
  "GET /projects/:pid/problems": { rule: "write or publish", url: "/projects/:pid/problems", ok: 200 },
  "GET /projects/:pid/key-counts": { rule: "write or publish", url: "/projects/:pid/key-counts?language=de", ok: 200 },
  // A user's own choice of languages in the editor: a token has no user to remember it for.
  "GET /projects/:pid/editor-preferences": { rule: "no token", url: "/projects/:pid/editor-preferences", ok: 200 },
  "PUT /projects/:pid/editor-preferences": { rule: "no token", url: "/projects/:pid/editor-preferences", body: { languages: ["de"] }, ok: 200 },
  "POST /projects/:pid/import": { rule: "write", url: "/projects/:pid/import", body: { language_code: "de", format: "json", content: '{"cart.empty":"Leer"}' }, ok: 200 },
  "GET /projects/:pid/releases": { rule: "write or publish", url: "/projects/:pid/releases", ok: 200 },
  "POST /projects/:pid/releases": { rule: "publish", url: "/projects/:pid/releases", body: { name: "R", tag: "r9" }, ok: 201 },
  "GET /projects/:pid/releases/:rid": { rule: "write or publish", url: "/projects/:pid/releases/:draftId", ok: 200 },
  // The world's release is a draft: a token that may export reaches the export, which says a draft has no files.
  "GET /projects/:pid/releases/:rid/export": { rule: "write or publish", url: "/projects/:pid/releases/:draftId/export?format=po&language=en", ok: 409 },
  "PATCH /projects/:pid/releases/:rid": { rule: "publish", url: "/projects/:pid/releases/:draftId", body: { name: "Renamed" }, ok: 200 },
  "POST /projects/:pid/releases/:rid/publish": { rule: "publish", url: "/projects/:pid/releases/:draftId/publish", ok: 200 },
  "POST /projects/:pid/releases/:rid/rotate-slug": { rule: "no token", url: "/projects/:pid/releases/:releaseId/rotate-slug", ok: 200 },
  "DELETE /projects/:pid/releases/:rid": { rule: "no token", url: "/projects/:pid/releases/:draftId", ok: 204 },
  // docs/releases.md: republish, schedules and channel moves need publish; a diff and the channels are reading.
  "POST /projects/:pid/releases/:rid/republish": { rule: "publish", url: "/projects/:pid/releases/:releaseId/republish", body: { name: "Back", tag: "v1-again" }, ok: 201 },
  "GET /projects/:pid/releases/:rid/diff": { rule: "write or publish", url: "/projects/:pid/releases/:draftId/diff", ok: 200 },
  "PUT /projects/:pid/releases/:rid/schedule": { rule: "publish", url: "/projects/:pid/releases/:draftId/schedule", body: { at: "2030-01-01T00:00:00Z" }, ok: 200 },
  "DELETE /projects/:pid/releases/:rid/schedule": { rule: "publish", url: "/projects/:pid/releases/:draftId/schedule", ok: 204 },
  "GET /projects/:pid/channels": { rule: "write or publish", url: "/projects/:pid/channels", ok: 200 },
  "GET /projects/:pid/channels/:name": { rule: "write or publish", url: "/projects/:pid/channels/staging", ok: 200 },
  "PUT /projects/:pid/channels/:name": { rule: "publish", url: "/projects/:pid/channels/beta", body: { release_id: ":releaseId" }, ok: 201 },
  "POST /projects/:pid/channels/:name/rotate-slug": { rule: "publish", url: "/projects/:pid/channels/staging/rotate-slug", ok: 200 },
  "DELETE /projects/:pid/channels/:name": { rule: "publish", url: "/projects/:pid/channels/staging", ok: 204 },
  // docs/delivery.md: a build's files are sent like an import's; the key is read like the project, rotated by admins only.
  "GET /projects/:pid/signing-key": { rule: "write or publish", url: "/projects/:pid/signing-key", ok: 200 },
  "POST /projects/:pid/signing-key/rotate": { rule: "no token", url: "/projects/:pid/signing-key/rotate", ok: 200 },
  "GET /projects/:pid/builds": { rule: "write or publish", url: "/projects/:pid/builds", ok: 200 },
  "POST /projects/:pid/builds": { rule: "write", url: "/projects/:pid/builds", body: { files: [{ format: "json", content: '{"a":"A"}' }] }, ok: 201 },
  "GET /projects/:pid/tokens": { rule: "no token", url: "/projects/:pid/tokens", ok: 200 },
  "POST /projects/:pid/tokens": { rule: "no token", url: "/projects/:pid/tokens", body: { name: "t", scopes: ["write"] }, ok: 201 },
  "DELETE /projects/:pid/tokens/:tokenId": { rule: "no token", url: "/projects/:pid/tokens/:tokenId", ok: 204 },
  "GET /projects/:pid/webhooks": { rule: "no token", url: "/projects/:pid/webhooks", ok: 200 },
  "POST /projects/:pid/webhooks": { rule: "no token", url: "/projects/:pid/webhooks", body: ENDPOINT, ok: 201 },
  "GET /projects/:pid/webhooks/:wid": { rule: "no token", url: "/projects/:pid/webhooks/:webhookId", ok: 200 },
  "PATCH /projects/:pid/webhooks/:wid": { rule: "no token", url: "/projects/:pid/webhooks/:webhookId", body: { enabled: false }, ok: 200 },
  "DELETE /projects/:pid/webhooks/:wid": { rule: "no token", url: "/projects/:pid/webhooks/:webhookId", ok: 204 },
  "POST /projects/:pid/webhooks/:wid/test": { rule: "no token", url: "/projects/:pid/webhooks/:webhookId/test", body: {}, ok: 202 },
  "GET /projects/:pid/webhooks/:wid/deliveries": { rule: "no token", url: "/projects/:pid/webhooks/:webhookId/deliveries", ok: 200 },
  "GET /projects/:pid/deliveries/:did": { rule: "no token", url: "/projects/:pid/deliveries/:deliveryId", ok: 200 },
  "POST /projects/:pid/deliveries/:did/redeliver": { rule: "no token", url: "/projects/:pid/deliveries/:deliveryId/redeliver", ok: 202 },
  // Help for translators (docs/translators.md): reading like the keys, writing like imports and keys.
  "GET /projects/:pid/keys/:keyId/suggestions": { rule: "write or publish", url: "/projects/:pid/keys/:keyId/suggestions?language=de", ok: 200 },
  "GET /projects/:pid/tm.tmx": { rule: "write or publish", url: "/projects/:pid/tm.tmx?language=de", ok: 200 },
  "POST /projects/:pid/tm/import": { rule: "write", url: "/projects/:pid/tm/import", body: TMX, headers: { "content-type": "application/xml" }, ok: 200 },
  "GET /projects/:pid/tm/imports": { rule: "write or publish", url: "/projects/:pid/tm/imports", ok: 200 },
  "DELETE /projects/:pid/tm/imports/:importId": { rule: "write", url: "/projects/:pid/tm/imports/:importId", ok: 204 },
  "POST /projects/:pid/pretranslate": { rule: "write", url: "/projects/:pid/pretranslate", body: { language_code: "de" }, ok: 200 },
  "GET /projects/:pid/glossary": { rule: "write or publish", url: "/projects/:pid/glossary", ok: 200 },
  "POST /projects/:pid/glossary": { rule: "write", url: "/projects/:pid/glossary", body: { term: "cart" }, ok: 201 },
  "PATCH /projects/:pid/glossary/:termId": { rule: "write", url: "/projects/:pid/glossary/:termId", body: { note: "later" }, ok: 200 },
  "DELETE /projects/:pid/glossary/:termId": { rule: "write", url: "/projects/:pid/glossary/:termId", ok: 204 },
  "GET /projects/:pid/glossary.csv": { rule: "write or publish", url: "/projects/:pid/glossary.csv", ok: 200 },
  "POST /projects/:pid/glossary.csv": { rule: "write", url: "/projects/:pid/glossary.csv", body: "term\ncart\n", headers: { "content-type": "text/csv" }, ok: 200 },
  "GET /projects/:pid/keys/:keyId/comments": { rule: "write or publish", url: "/projects/:pid/keys/:keyId/comments", ok: 200 },
  "POST /projects/:pid/keys/:keyId/comments": { rule: "write", url: "/projects/:pid/keys/:keyId/comments", body: { body: "From CI" }, ok: 201 },
  "POST /projects/:pid/keys/:keyId/comments/:commentId/resolve": { rule: "write", url: "/projects/:pid/keys/:keyId/comments/:commentId/resolve", ok: 200 },
  // A token may delete its own comments; the world's is a person's: 403 (docs/translators.md "Comments").
  "DELETE /projects/:pid/keys/:keyId/comments/:commentId": { rule: "write", url: "/projects/:pid/keys/:keyId/comments/:commentId", ok: 403 },
  "GET /projects/:pid/screenshots": { rule: "write or publish", url: "/projects/:pid/screenshots", ok: 200 },
  "POST /projects/:pid/screenshots": { rule: "write", url: "/projects/:pid/screenshots?name=home", body: PNG, headers: { "content-type": "image/png" }, ok: 201 },
  "GET /projects/:pid/screenshots/:sid/image": { rule: "write or publish", url: "/projects/:pid/screenshots/:sid/image", ok: 200 },
  "PUT /projects/:pid/screenshots/:sid/keys": { rule: "write", url: "/projects/:pid/screenshots/:sid/keys", body: { keys: [] }, ok: 200 },
  "DELETE /projects/:pid/screenshots/:sid": { rule: "write", url: "/projects/:pid/screenshots/:sid", ok: 204 },
  "GET /projects/:pid/keys/:keyId/screenshots": { rule: "write or publish", url: "/projects/:pid/keys/:keyId/screenshots", ok: 200 },
};

/** The scope a refusal names: the first scope of the rule, `admin` where no token reaches. */
const NAMED: Record<TokenRule, string> = { "write or publish": "write", write: "write", publish: "publish", "no token": "admin" };
const ALLOWS: Record<TokenRule, string[]> = { "write or publish": ["write", "publish"], write: ["write"], publish: ["publish"], "no token": [] };

const signedIn = Object.values(ROUTES)
  .flat()
  .filter(([, rule]) => rule !== "no session")
  .map(([route]) => route);

test("product §6: every route that needs a caller has its token rule here", () => {
  expect(signedIn.filter((route) => !EXAMPLES[route])).toEqual([]);
  expect(Object.keys(EXAMPLES).filter((route) => !signedIn.includes(route))).toEqual([]);
});

function row(route: string, who: TokenWho): Scenario | undefined {
  const example = EXAMPLES[route];
  if (!example) return undefined;
  const method = route.split(" ")[0]!;
  const scope = who.slice("token:".length);
  const allowed = who === "token:other" ? ALLOWS[example.rule].length > 0 : ALLOWS[example.rule].includes(scope);
  const base = { method, body: example.body, headers: example.headers, as: who };
  // The project is loaded before the access is judged: another project's id is unknown to a token whatever the route.
  if (who === "token:other" && example.url.startsWith("/projects/:pid")) {
    return { ...base, name: "product §6: a token of another project is 404 on this one", url: example.url, status: 404, contains: ['{"error":"project not found"}'], events: [] };
  }
  if (!allowed) {
    return { ...base, name: `product §6: a ${scope} token is 403, lacking scope ${NAMED[example.rule]}`, url: example.url, status: 403, contains: [`{"error":"token lacks scope ${NAMED[example.rule]}"}`], events: [] };
  }
  if (route === "GET /projects") {
    const own = who === "token:other" ? ":otherPid" : ":pid";
    return { ...base, name: "product §6: a token lists its own project only", url: example.url, status: 200, after: ({ ids }, body) => expect(body.items.map((p: any) => p.id)).toEqual([ids[own.slice(1)]]) };
  }
  if (route === "POST /logout") {
    return { ...base, name: "a token has no session to end: 400", url: example.url, status: 400, contains: ["no session"] };
  }
  return { ...base, name: `product §6: a ${scope} token may`, url: example.url, status: example.ok };
}

const WHO: TokenWho[] = ["token:read", "token:write", "token:publish", "token:other"];
scenarios("dashboard API routes by token scope", tokenWorld, signedIn.flatMap((route) => WHO.map((who) => row(route, who)).filter((r): r is Scenario => r !== undefined)));

const bearerRows: Scenario[] = [
  {
    name: "product §6: a request with a session cookie and a bearer token is 400, whichever is valid",
    as: "admin",
    headers: { authorization: "Bearer pb_0000000000000000000000000000000000000000000" },
    method: "POST",
    url: "/projects/:pid/keys",
    body: { key: "both" },
    status: 400,
    contains: ["not both"],
    events: [],
  },
  { name: "an unknown token is 401", as: "anonymous", headers: { authorization: "Bearer pb_0000000000000000000000000000000000000000000" }, method: "GET", url: "/projects", status: 401, contains: ['{"error":"invalid token"}'] },
  { name: "a bearer value that is no token is 401", as: "anonymous", headers: { authorization: "bearer nonsense" }, method: "GET", url: "/projects", status: 401, contains: ['{"error":"invalid token"}'] },
  {
    name: "an Authorization of another scheme (a proxy's Basic login) leaves the session as it was",
    as: "member",
    headers: { authorization: "Basic dXNlcjpwYXNz" },
    method: "GET",
    url: "/projects/:pid/keys",
    status: 200,
  },
  {
    name: "product §6: a bearer request needs no CSRF header, and the history names the token (product §8)",
    as: "token:write",
    method: "PUT",
    url: "/projects/:pid/keys/:keyId/translations/de",
    body: { value: "Zur Kasse" },
    status: 200,
    events: ["translation_updated"],
    async after({ as, ids }) {
      const history = (await as("admin").get(`/projects/${ids.pid}/keys/${ids.keyId}/history`)).body.items;
      expect(history[0]).toMatchObject({ language_code: "de", value: "Zur Kasse", previous_value: "Kasse", by: { kind: "token", id: ids.writerTokenId, name: "writer" }, via: "edit" });
    },
  },
  {
    name: "product §6, §8: an import with a token is attributed to the token",
    as: "token:write",
    method: "POST",
    url: "/projects/:pid/import",
    body: { language_code: "de", format: "json", content: '{"checkout.title":"Bezahlen"}' },
    status: 200,
    async after({ as, ids }) {
      const history = (await as("admin").get(`/projects/${ids.pid}/keys/${ids.keyId}/history`)).body.items;
      expect(history[0]).toMatchObject({ value: "Bezahlen", by: { kind: "token", id: ids.writerTokenId, name: "writer" }, via: "import" });
    },
  },
  {
    name: "product §6: a publish token creates a release with no user as its creator",
    as: "token:publish",
    method: "POST",
    url: "/projects/:pid/releases",
    body: { name: "From CI", tag: "ci-1" },
    status: 201,
    events: ["release_created"],
    after: ({ t }, body) => expect(t.query("SELECT created_by FROM releases WHERE public_id = ?", body.id)).toEqual([{ created_by: null }]),
  },
  {
    name: "GET /me with a token: its id, name and scopes, never its value",
    as: "token:publish",
    method: "GET",
    url: "/me",
    status: 200,
    after: ({ ids }, body) => expect(body).toEqual({ token: { id: ids.publisherTokenId, name: "publisher", scopes: ["publish"] } }),
  },
  {
    name: "product §6: a read token may read the public API but nothing of the dashboard API",
    as: "token:read",
    method: "GET",
    url: "/projects/:pid/keys",
    status: 403,
    contains: ["token lacks scope write"],
  },
];

scenarios("bearer tokens on the dashboard API", tokenWorld, bearerRows);

describe("bearer tokens: revocation and use (product §6, interface §5)", () => {
  test("interface §5 rule 9: a deleted token is refused from the next request on, though it was verified a moment ago, even with requests in flight", async () => {
    const w = await openWorld(tokenWorld);
    try {
      const writer = w.as("token:write");
      expect((await writer.get(`/projects/${w.ids.pid}/keys`)).status).toBe(200); // now remembered as verified
      const during = Array.from({ length: 20 }, () => writer.get(`/projects/${w.ids.pid}/keys`));
      const deleted = await w.as("admin").delete(`/projects/${w.ids.pid}/tokens/${w.ids.writerTokenId}`);
      expect(deleted.status).toBe(204);
      for (const r of await Promise.all(during)) expect([200, 401]).toContain(r.status);
      const after = await Promise.all(Array.from({ length: 10 }, () => writer.post(`/projects/${w.ids.pid}/keys`, { key: "after.delete" })));
      expect(after.map((r) => r.status)).toEqual(Array(10).fill(401));
      expect(w.t.query("SELECT count(*) AS n FROM translation_keys WHERE key = 'after.delete'")).toEqual([{ n: 0 }]);
    } finally {
      await w.close();
    }
  });

  test("product §6: last_used_at is written on a token's use of the dashboard API, at most once a minute", async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 12));
    const w = await openWorld(tokenWorld, { clock });
    try {
      const lastUsed = () => w.t.query<{ last_used_at: number | null }>("SELECT last_used_at FROM api_tokens WHERE public_id = ?", w.ids.writerTokenId)[0]!.last_used_at;
      const first = clock.now();
      await w.as("token:write").get("/projects");
      expect(lastUsed()).toBe(first);
      clock.advance(59_999);
      await w.as("token:write").get("/projects");
      expect(lastUsed()).toBe(first);
      clock.advance(1);
      await w.as("token:write").get("/projects");
      expect(lastUsed()).toBe(first + 60_000);
      const listed = (await w.as("admin").get(`/projects/${w.ids.pid}/tokens`)).body.items.find((t: any) => t.id === w.ids.writerTokenId);
      expect(listed.last_used_at).toBe(new Date(first + 60_000).toISOString());
    } finally {
      await w.close();
    }
  });

  test("docs/publishing.md §6: a token's first request of the minute does not wait for another connection's write lock (a large import committing)", async () => {
    const w = await openWorld(tokenWorld);
    const dbPath = join(w.t.dataDir, "phrasebook.db");
    try {
      const fresh = (await w.as("admin").post(`/projects/${w.ids.pid}/tokens`, { name: "fresh", scopes: ["read", "write"] })).body;
      const lastUsed = () => w.t.query<{ last_used_at: number | null }>("SELECT last_used_at FROM api_tokens WHERE public_id = ?", fresh.id)[0]!.last_used_at;
      // Ordered, not timed: a worker holds the lock as an import's worker does while it commits,
      // and lets it go after 20 s at the latest, while the app would wait up to a minute for it.
      // A request that waited would hold this thread until then and write last_used_at after all.
      w.t.query("PRAGMA busy_timeout = 60000");
      const lock = await holdWriteLock(dbPath, { releaseAfterMs: 20_000 });
      try {
        for (const path of ["/v1/projects", "/dashboard/api/projects"]) {
          const r = await w.t.fetch(path, { headers: { authorization: `Bearer ${fresh.token}` } });
          expect(r.status).toBe(200);
          expect(writeLockHeld(dbPath), `${path} answered while the lock was held`).toBe(true);
        }
        expect(lastUsed()).toBeNull();
      } finally {
        await lock.release();
      }
      // Written by the next request, in the same minute.
      await w.t.fetch("/dashboard/api/projects", { headers: { authorization: `Bearer ${fresh.token}` } });
      expect(lastUsed()).toBe(w.t.clock.now());
    } finally {
      closeWriteLockProbe(dbPath);
      await w.close();
    }
  });

  test("product §6: only a read token reads the public API; a write or publish token is 403 there, on the cached path too", async () => {
    const w = await openWorld(tokenWorld);
    try {
      const v1 = (who: TokenWho) => w.t.fetch("/v1/releases", { headers: { authorization: `Bearer ${w.world.tokens![who]}` } });
      expect((await v1("token:read")).status).toBe(200);
      expect((await v1("token:read")).headers.get("x-cache")).toBe("hit");
      for (const who of ["token:write", "token:publish"] as const) {
        const r = await v1(who);
        expect({ status: r.status, body: await r.json() }).toEqual({ status: 403, body: { error: "token lacks scope read" } });
      }
    } finally {
      await w.close();
    }
  });
});

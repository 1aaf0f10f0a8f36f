/**
 * The audit log (docs/dashboard-api.md "Audit log"): `GET /audit` for global
 * admins, `GET /projects/:pid/audit` for the project's admins, newest first, paged, filtered by
 * action; and each action writing its own entry in its own transaction.
 */
import { describe, expect, test } from "bun:test";
import { AUDIT_ACTIONS } from "../../src/audit/actions.ts";
import { recordAudit, SYSTEM } from "../../src/audit/record.ts";
import { removeOldAuditEntries } from "../../src/audit/retention.ts";
import type { Reply } from "../helpers/dashboard-client.ts";
import type { TestApp } from "../helpers/app.ts";
import { openWorld, scenarios, type Scenario, type ScenarioContext, type WorldApp } from "../helpers/scenario.ts";
import { coverage } from "../dashboard-api/routes.ts";
import { MEMBER, standardWorld } from "../dashboard-api/world.ts";

const rows: Scenario[] = [
  {
    name: "lists the whole server's entries, newest first, with actor, target, address and details",
    as: "admin",
    method: "GET",
    url: "/audit",
    status: 200,
    after(_ctx, body) {
      const actions = body.items.map((e: any) => e.action);
      for (const a of ["user_created", "sign_in", "release_published", "token_created", "webhook_created"]) expect(actions).toContain(a);
      const ats = body.items.map((e: any) => e.at);
      expect([...ats].sort().reverse()).toEqual(ats);
      const token = body.items.find((e: any) => e.action === "token_created");
      expect(token).toEqual({
        at: expect.any(String),
        actor: { kind: "user", id: expect.stringMatching(/^usr_/), name: "Admin" },
        action: "token_created",
        target: { kind: "token", id: expect.stringMatching(/^tok_/), name: "CI" },
        ip: "127.0.0.1",
        details: { scopes: ["read"] },
      });
      expect(body.page_info).toMatchObject({ page: 1, page_size: 50 });
    },
  },
  {
    name: "filters by action",
    as: "admin",
    method: "GET",
    url: "/audit?action=sign_in",
    status: 200,
    after(_ctx, body) {
      expect(body.items.length).toBeGreaterThan(1);
      expect(new Set(body.items.map((e: any) => e.action))).toEqual(new Set(["sign_in"]));
      expect(body.page_info.total_count).toBe(body.items.length);
    },
  },
  {
    name: "pages",
    as: "admin",
    method: "GET",
    url: "/audit?page=2&page_size=2",
    status: 200,
    async after({ as }, body) {
      const all = (await as("admin").get("/audit")).body.items;
      expect(body.items).toEqual(all.slice(2, 4));
      expect(body.page_info).toMatchObject({ page: 2, page_size: 2, total_count: all.length });
    },
  },
  { name: "an unknown action is 400 naming the parameter", as: "admin", method: "GET", url: "/audit?action=everything", status: 400, contains: ['invalid query parameter "action"'] },
  { name: "a page size past the maximum is 400", as: "admin", method: "GET", url: "/audit?page_size=201", status: 400, contains: ['invalid query parameter "page_size"'] },
  { name: "a page that is no number is 400", as: "admin", method: "GET", url: "/audit?page=first", status: 400, contains: ['invalid query parameter "page"'] },
  { name: "a member is 403", as: "member", method: "GET", url: "/audit", status: 403, contains: ["admin"] },
  { name: "no session is 401", as: "anonymous", method: "GET", url: "/audit", status: 401 },

  {
    name: "a project's log holds its own entries only",
    as: "admin",
    method: "GET",
    url: "/projects/:pid/audit",
    status: 200,
    after(_ctx, body) {
      const actions = new Set(body.items.map((e: any) => e.action));
      // member_changed: the world gives its member developer in each project (project roles).
      expect(actions).toEqual(new Set(["release_published", "token_created", "webhook_created", "member_changed"]));
    },
  },
  {
    name: "another project's log holds only its own (the member's role there)",
    as: "admin",
    method: "GET",
    url: "/projects/:otherPid/audit",
    status: 200,
    after: (_ctx, body) => expect(body.items.map((e: any) => e.action)).toEqual(["member_changed"]),
  },
  { name: "filtered by action", as: "admin", method: "GET", url: "/projects/:pid/audit?action=token_created", status: 200, contains: ['"action":"token_created"'], notContains: ['"webhook_created"'] },
  { name: "an unknown action is 400", as: "admin", method: "GET", url: "/projects/:pid/audit?action=x", status: 400, contains: ['invalid query parameter "action"'] },
  { name: "an unknown project is 404", as: "admin", method: "GET", url: "/projects/prj_00000000000000000000/audit", status: 404, contains: ["project not found"] },
  { name: "a member is 403", as: "member", method: "GET", url: "/projects/:pid/audit", status: 403 },
];

scenarios("GET /audit and /projects/:pid/audit", standardWorld, rows);
coverage("audit", rows);

/** The newest entry, as the API shows it. */
async function newest(ctx: ScenarioContext, action: string): Promise<any> {
  const body = (await ctx.as("admin").get(`/audit?action=${action}`)).body;
  return body.items[0];
}

/** A request that must write one `action` entry naming `target`, by the admin from 127.0.0.1. */
function writes(action: string, method: string, url: string, body: unknown, status: number, target: Record<string, unknown>, details?: Record<string, unknown>): Scenario {
  return {
    name: `writes ${action}`,
    as: "admin",
    method,
    url,
    body,
    status,
    async after(ctx) {
      const entry = await newest(ctx, action);
      // `:name` in an expected target is the world's id of that name.
      const filled = Object.fromEntries(Object.entries(target).map(([k, v]) => [k, typeof v === "string" && v.startsWith(":") ? ctx.ids[v.slice(1)] : v]));
      expect(entry).toMatchObject({ action, actor: { kind: "user", name: "Admin" }, target: filled, ip: "127.0.0.1" });
      if (details) expect(entry.details).toMatchObject(details);
    },
  };
}

const actions: Scenario[] = [
  writes("user_created", "POST", "/users", { email: "new@example.test", name: "New", password: "password-1", role: "member" }, 201, { kind: "user", name: "new@example.test" }, { role: "member" }),
  writes("user_changed", "PATCH", "/users/:memberId", { role: "admin", password: "another-password" }, 200, { kind: "user", id: ":memberId" }, { role: { from: "member", to: "admin" }, password_changed: true }),
  writes("user_deleted", "DELETE", "/users/:memberId", undefined, 204, { kind: "user", id: ":memberId", name: MEMBER.email }),
  writes("token_created", "POST", "/projects/:pid/tokens", { name: "Deploy", scopes: ["publish"] }, 201, { kind: "token", name: "Deploy" }, { scopes: ["publish"] }),
  writes("token_deleted", "DELETE", "/projects/:pid/tokens/:tokenId", undefined, 204, { kind: "token", id: ":tokenId", name: "CI" }),
  writes("webhook_created", "POST", "/projects/:pid/webhooks", { url: "https://hooks.example.test/x?key=k", events: ["key_created"], secret: "s" }, 201, { kind: "webhook", name: "https://hooks.example.test/x?***" }, { has_secret: true }),
  writes("webhook_changed", "PATCH", "/projects/:pid/webhooks/:webhookId", { enabled: false, secret: "new" }, 200, { kind: "webhook", id: ":webhookId" }, { enabled: false, secret_changed: "set" }),
  writes("webhook_deleted", "DELETE", "/projects/:pid/webhooks/:webhookId", undefined, 204, { kind: "webhook", id: ":webhookId" }),
  writes("release_published", "POST", "/projects/:pid/releases/:draftId/publish", {}, 200, { kind: "release", id: ":draftId", name: "Next (v2)" }, { forced: false }),
  writes("release_deleted", "DELETE", "/projects/:pid/releases/:releaseId", undefined, 204, { kind: "release", id: ":releaseId", name: "Launch (v1)" }, { status: "published" }),
  writes("slug_rotated", "POST", "/projects/:pid/releases/:releaseId/rotate-slug", undefined, 200, { kind: "release", id: ":releaseId" }, { of: "release" }),
  writes("slug_rotated", "POST", "/projects/:pid/rotate-slug", undefined, 200, { kind: "project", id: ":pid", name: "Shop" }, { of: "project" }),
  writes("release_republished", "POST", "/projects/:pid/releases/:releaseId/republish", { name: "Launch again", tag: "v1-again" }, 201, { kind: "release", name: "Launch again" }, { tag: "v1-again" }),
  writes("release_scheduled", "PUT", "/projects/:pid/releases/:draftId/schedule", { at: "2099-01-01T09:00:00Z" }, 200, { kind: "release", id: ":draftId" }, { at: "2099-01-01T09:00:00.000Z" }),
  writes("release_scheduled", "DELETE", "/projects/:pid/releases/:draftId/schedule", undefined, 204, { kind: "release", id: ":draftId" }, { at: null }),
  writes("channel_moved", "PUT", "/projects/:pid/channels/beta", { release_id: ":releaseId" }, 201, { kind: "channel", id: "beta", name: "beta" }, { created: true }),
  writes("project_changed", "PATCH", "/projects/:pid", { name: "Shop 2", message_syntax: "text" }, 200, { kind: "project", id: ":pid", name: "Shop 2" }, { name: { from: "Shop", to: "Shop 2" }, message_syntax: { from: "icu", to: "text" } }),
  // A new signing key is a change of the project's settings (docs/delivery.md "Key rotation").
  writes("project_changed", "POST", "/projects/:pid/signing-key/rotate", undefined, 200, { kind: "project", id: ":pid", name: "Shop" }, { signing_key: { from: 1, to: 2, key_id: expect.any(String) } }),
  {
    name: "writes sign_out",
    as: "member",
    method: "POST",
    url: "/logout",
    status: 200,
    async after(ctx) {
      expect(await newest(ctx, "sign_out")).toMatchObject({ actor: { kind: "user", id: ctx.ids.memberId, name: "Mem" }, target: { name: MEMBER.email }, ip: "127.0.0.1", details: { method: "password" } });
    },
  },
  {
    name: "writes sign_in",
    as: "anonymous",
    method: "POST",
    url: "/login",
    body: { email: MEMBER.email, password: MEMBER.password },
    status: 200,
    async after(ctx) {
      expect(await newest(ctx, "sign_in")).toMatchObject({ actor: { kind: "user", id: ctx.ids.memberId, name: "Mem" }, details: { method: "password" } });
    },
  },
  {
    name: "writes sign_in_failed, with the email tried and never the password",
    as: "anonymous",
    method: "POST",
    url: "/login",
    body: { email: MEMBER.email, password: "guess-number-one" },
    status: 401,
    async after(ctx) {
      const entry = await newest(ctx, "sign_in_failed");
      expect(entry).toMatchObject({ actor: { kind: "user", id: ctx.ids.memberId, name: "Mem" }, target: { name: MEMBER.email }, details: { method: "password", reason: "wrong email or password" } });
      expect(JSON.stringify(entry)).not.toContain("guess-number-one");
    },
  },
];
scenarios("each action writes its own audit entry", standardWorld, actions);

/** Every table's rows, in order: equal before and after means nothing was written or removed. */
function everything(t: TestApp): string {
  const tables = t.query<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name");
  // Rows sorted as text: some tables have no rowid to order by.
  return JSON.stringify(tables.map(({ name }) => [name, t.query(`SELECT * FROM "${name}"`).map((row) => JSON.stringify(row)).sort()]));
}

/**
 * [action, the route, what to prepare first (its entries may be written), the request that records the
 * action]. Each action of AUDIT_ACTIONS but the failed sign-in (a refusal, recorded on its own).
 */
type Attempt = [action: string, request: string, prepare: ((w: WorldApp) => Promise<unknown>) | null, act: (w: WorldApp) => Promise<Reply>];
const onChannel = (w: WorldApp) => w.as("admin").put(`/projects/${w.ids.pid}/channels/staging`, { release_id: w.ids.releaseId });
const scheduled = (w: WorldApp) => w.as("admin").put(`/projects/${w.ids.pid}/releases/${w.ids.draftId}/schedule`, { at: "2099-01-01T09:00:00Z" });
const ATTEMPTS: Attempt[] = [
  ["sign_in", "POST /login", null, (w) => w.t.client().login(MEMBER.email, MEMBER.password)],
  ["sign_out", "POST /logout", null, (w) => w.as("member").post("/logout")],
  ["user_created", "POST /users", null, (w) => w.as("admin").post("/users", { email: "new@example.test", name: "New", password: "password-1", role: "member" })],
  ["user_changed", "PATCH /users/:userId", null, (w) => w.as("admin").patch(`/users/${w.ids.memberId}`, { role: "admin" })],
  ["user_deleted", "DELETE /users/:userId", null, (w) => w.as("admin").delete(`/users/${w.ids.memberId}`)],
  ["member_changed", "PUT /projects/:pid/members/:userId", null, (w) => w.as("admin").put(`/projects/${w.ids.pid}/members/${w.ids.memberId}`, { role: "translator", languages: ["de"] })],
  ["member_removed", "DELETE /projects/:pid/members/:userId", null, (w) => w.as("admin").delete(`/projects/${w.ids.pid}/members/${w.ids.memberId}`)],
  ["token_created", "POST /projects/:pid/tokens", null, (w) => w.as("admin").post(`/projects/${w.ids.pid}/tokens`, { name: "Deploy" })],
  ["token_deleted", "DELETE /projects/:pid/tokens/:tokenId", null, (w) => w.as("admin").delete(`/projects/${w.ids.pid}/tokens/${w.ids.tokenId}`)],
  ["webhook_created", "POST /projects/:pid/webhooks", null, (w) => w.as("admin").post(`/projects/${w.ids.pid}/webhooks`, { url: "https://hooks.example.test/new", events: ["key_created"] })],
  ["webhook_changed", "PATCH /projects/:pid/webhooks/:wid", null, (w) => w.as("admin").patch(`/projects/${w.ids.pid}/webhooks/${w.ids.webhookId}`, { enabled: false })],
  ["webhook_deleted", "DELETE /projects/:pid/webhooks/:wid", null, (w) => w.as("admin").delete(`/projects/${w.ids.pid}/webhooks/${w.ids.webhookId}`)],
  ["release_published", "POST /projects/:pid/releases/:rid/publish", null, (w) => w.as("admin").post(`/projects/${w.ids.pid}/releases/${w.ids.draftId}/publish`, {})],
  ["release_republished", "POST /projects/:pid/releases/:rid/republish", null, (w) => w.as("admin").post(`/projects/${w.ids.pid}/releases/${w.ids.releaseId}/republish`, { name: "Again", tag: "v1-again" })],
  ["release_deleted", "DELETE /projects/:pid/releases/:rid (published)", null, (w) => w.as("admin").delete(`/projects/${w.ids.pid}/releases/${w.ids.releaseId}`)],
  ["release_scheduled", "PUT /projects/:pid/releases/:rid/schedule", null, scheduled],
  ["release_scheduled", "DELETE /projects/:pid/releases/:rid/schedule", scheduled, (w) => w.as("admin").delete(`/projects/${w.ids.pid}/releases/${w.ids.draftId}/schedule`)],
  ["channel_moved", "PUT /projects/:pid/channels/:name", null, onChannel],
  ["channel_moved", "DELETE /projects/:pid/channels/:name", onChannel, (w) => w.as("admin").delete(`/projects/${w.ids.pid}/channels/staging`)],
  ["slug_rotated", "POST /projects/:pid/rotate-slug", null, (w) => w.as("admin").post(`/projects/${w.ids.pid}/rotate-slug`)],
  ["slug_rotated", "POST /projects/:pid/releases/:rid/rotate-slug", null, (w) => w.as("admin").post(`/projects/${w.ids.pid}/releases/${w.ids.releaseId}/rotate-slug`)],
  ["slug_rotated", "POST /projects/:pid/channels/:name/rotate-slug", onChannel, (w) => w.as("admin").post(`/projects/${w.ids.pid}/channels/staging/rotate-slug`)],
  ["project_changed", "PATCH /projects/:pid", null, (w) => w.as("admin").patch(`/projects/${w.ids.pid}`, { name: "Renamed", publish_approved_only: true })],
];

describe("an entry is written in the action's transaction: when it cannot be written, the action is not made", () => {
  for (const [action, request, prepare, act] of ATTEMPTS) {
    test(`${action}: ${request}`, async () => {
      const w = await openWorld(standardWorld);
      try {
        await prepare?.(w);
        // The same request with the log writable records the action (so the refusal below is its own).
        const control = await openWorld(standardWorld);
        try {
          await prepare?.(control);
          const before = control.t.query<{ n: number }>("SELECT coalesce(max(id), 0) AS n FROM audit_log")[0]!.n;
          // A 2xx: the action was done.
          expect(String((await act(control)).status)).toMatch(/^2\d\d$/);
          expect(control.t.query<{ action: string }>("SELECT action FROM audit_log WHERE id > ?", before).map((r) => r.action)).toContain(action);
        } finally {
          await control.close();
        }
        const cdnBefore = (await w.t.fetch(`/cdn/p/${w.ids.cdnSlug}/r/${w.ids.releaseSlug}/de.json`)).status;
        const state = everything(w.t);
        w.t.deps.db.$client.run("CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, 'audit log refused'); END");
        const reply = await act(w);
        expect(reply.status).toBe(500);
        expect(everything(w.t)).toBe(state);
        // A published release's files go only after its row: they are still served.
        expect((await w.t.fetch(`/cdn/p/${w.ids.cdnSlug}/r/${w.ids.releaseSlug}/de.json`)).status).toBe(cdnBefore);
      } finally {
        await w.close();
      }
    });
  }

  test("every action but the failed sign-in is tried above", () => {
    expect(new Set(ATTEMPTS.map(([action]) => action))).toEqual(new Set(AUDIT_ACTIONS.filter((a) => a !== "sign_in_failed")));
  });

  test("recording outside a transaction is refused, and so is a detail named like a secret", async () => {
    const w = await openWorld(standardWorld);
    try {
      const { db, clock } = w.t.deps;
      const entry = { action: "project_changed" as const, target: { kind: "project" as const, id: null, name: null } };
      expect(() => recordAudit(db, clock, SYSTEM, entry)).toThrow("outside a transaction");
      expect(() => db.transaction(() => recordAudit(db, clock, SYSTEM, { ...entry, details: { secret: "x" } }))).toThrow('must not carry "secret"');
    } finally {
      await w.close();
    }
  });
});

test("entries are kept 400 days", async () => {
  const w = await openWorld(standardWorld);
  try {
    const { db } = w.t.deps;
    const total = w.t.query<{ n: number; oldest: number }>("SELECT count(*) AS n, min(at) AS oldest FROM audit_log")[0]!;
    const day = 86_400_000;
    expect(removeOldAuditEntries(db, total.oldest + 400 * day - 1)).toBe(0);
    expect(removeOldAuditEntries(db, total.oldest + 400 * day * 10)).toBe(total.n);
  } finally {
    await w.close();
  }
});

test("the action filter accepts every action the audit log records", () => {
  expect([...AUDIT_ACTIONS].sort() as string[]).toEqual(
    ["sign_in", "sign_in_failed", "sign_out", "user_created", "user_changed", "user_deleted", "member_changed", "member_removed", "token_created", "token_deleted", "webhook_created", "webhook_changed", "webhook_deleted", "release_published", "release_republished", "release_deleted", "release_scheduled", "channel_moved", "slug_rotated", "project_changed"].sort(),
  );
});

/**
 * API tokens (product §2, §4, §6, interface §5): `pb_` and 43 characters, shown once at creation,
 * stored only as SHA-256, with the scopes chosen then (`read` by default); members see their names
 * and scopes, admins make and revoke them. What each scope reaches: token-access.test.ts.
 */
import { expect } from "bun:test";
import { sha256Hex } from "../../src/common/hash.ts";
import { scenarios, type Scenario, type ScenarioContext } from "../helpers/scenario.ts";
import { coverage } from "../dashboard-api/routes.ts";
import { standardWorld } from "../dashboard-api/world.ts";

/** The public API's answer to a token. */
const projectsWith = ({ t }: ScenarioContext, token: string) => t.fetch("/v1/projects", { headers: { authorization: `Bearer ${token}` } });

const rows: Scenario[] = [
  {
    name: "a member may list tokens by name, never their values",
    as: "member",
    method: "GET",
    url: "/projects/:pid/tokens",
    status: 200,
    notContains: [":token", "hash"],
    after: ({ ids }, body) => expect(body.items).toEqual([{ id: ids.tokenId, name: "CI", scopes: ["read"], created_at: "2026-01-01T00:00:00.000Z", last_used_at: null }]),
  },
  { name: "an unknown project is 404", method: "GET", url: "/projects/prj_00000000000000000000/tokens", status: 404 },

  {
    name: "creates a token: the value once, only its SHA-256 stored, read alone by default (product §6), and it reads the public API",
    method: "POST",
    url: "/projects/:pid/tokens",
    body: { name: " CI deploy " },
    status: 201,
    async after(ctx, body) {
      const { t, as, ids } = ctx;
      expect(body).toEqual({ id: expect.stringMatching(/^tok_[0-9A-Za-z]{20}$/), name: "CI deploy", scopes: ["read"], token: expect.stringMatching(/^pb_[0-9A-Za-z]{43}$/), created_at: "2026-01-01T00:00:00.000Z", last_used_at: null });
      const listed = (await as("admin").get(`/projects/${ids.pid}/tokens`)).body.items;
      expect(listed).toContainEqual({ id: body.id, name: "CI deploy", scopes: ["read"], created_at: body.created_at, last_used_at: null });
      expect(t.query("SELECT scopes FROM api_tokens WHERE public_id = ?", body.id)).toEqual([{ scopes: '["read"]' }]);
      expect(JSON.stringify(listed)).not.toContain(body.token);
      expect(t.query("SELECT token_hash FROM api_tokens WHERE public_id = ?", body.id)).toEqual([{ token_hash: sha256Hex(body.token) }]);
      const api = await projectsWith(ctx, body.token);
      expect(api.status).toBe(200);
      expect((await api.json()).items.map((p: any) => p.id)).toEqual([ids.pid]);
    },
  },
  {
    name: "product §6: scopes are chosen at creation, kept in the order read, write, publish, each once",
    method: "POST",
    url: "/projects/:pid/tokens",
    body: { name: "CI push", scopes: ["publish", "write", "write"] },
    status: 201,
    contains: ['"scopes":["write","publish"]'],
    async after(ctx, body) {
      // A token without read does not read the public API (product §6).
      const api = await projectsWith(ctx, body.token);
      expect({ status: api.status, body: await api.json() }).toEqual({ status: 403, body: { error: "token lacks scope read" } });
      const listed = (await ctx.as("member").get(`/projects/${ctx.ids.pid}/tokens`)).body.items;
      expect(listed.find((t: any) => t.id === body.id).scopes).toEqual(["write", "publish"]);
    },
  },
  { name: "product §6: every scope at once", method: "POST", url: "/projects/:pid/tokens", body: { name: "all", scopes: ["read", "write", "publish"] }, status: 201, contains: ['"scopes":["read","write","publish"]'] },
  { name: "product §6: no scope is 400 naming the field", method: "POST", url: "/projects/:pid/tokens", body: { name: "x", scopes: [] }, status: 400, contains: ['"scopes"', "at least one"] },
  { name: "product §6: an unknown scope is 400 naming it", method: "POST", url: "/projects/:pid/tokens", body: { name: "x", scopes: ["read", "admin"] }, status: 400, contains: ['"scopes"', '"admin"'] },
  { name: "product §6: scopes that are no list are 400 naming the field", method: "POST", url: "/projects/:pid/tokens", body: { name: "x", scopes: "write" }, status: 400, contains: ['"scopes"'] },
  { name: "product §6: a scope that is no string is 400 naming the field", method: "POST", url: "/projects/:pid/tokens", body: { name: "x", scopes: [1] }, status: 400, contains: ['"scopes'] },
  { name: "product §6: a huge list of scopes is 400 naming the field", method: "POST", url: "/projects/:pid/tokens", body: { name: "x", scopes: Array(1000).fill("read") }, status: 400, contains: ['"scopes"'] },
  { name: "an empty name is 400 naming it", method: "POST", url: "/projects/:pid/tokens", body: { name: "" }, status: 400, contains: ['"name"'] },
  { name: "a blank name is 400 naming it", method: "POST", url: "/projects/:pid/tokens", body: { name: "   " }, status: 400, contains: ['"name"'] },
  { name: "a name over 100 characters is 400 naming it", method: "POST", url: "/projects/:pid/tokens", body: { name: "n".repeat(101) }, status: 400, contains: ['"name"'] },
  { name: "an unknown project is 404", method: "POST", url: "/projects/prj_00000000000000000000/tokens", body: { name: "x" }, status: 404 },
  { name: "a member may not create tokens", as: "member", method: "POST", url: "/projects/:pid/tokens", body: { name: "x" }, status: 403, contains: ["admin role"] },

  {
    name: "a deleted token no longer reads the public API",
    before: async (ctx) => expect((await projectsWith(ctx, ctx.ids.token!)).status).toBe(200),
    method: "DELETE",
    url: "/projects/:pid/tokens/:tokenId",
    status: 204,
    async after(ctx) {
      expect((await projectsWith(ctx, ctx.ids.token!)).status).toBe(401);
      expect((await ctx.as("admin").get(`/projects/${ctx.ids.pid}/tokens`)).body.items).toEqual([]);
    },
  },
  { name: "an unknown token is 404", method: "DELETE", url: "/projects/:pid/tokens/tok_00000000000000000000", status: 404, contains: ["token not found"] },
  { name: "a token of another project is 404", method: "DELETE", url: "/projects/:otherPid/tokens/:tokenId", status: 404, contains: ["token not found"] },
  { name: "a member may not delete tokens", as: "member", method: "DELETE", url: "/projects/:pid/tokens/:tokenId", status: 403, contains: ["admin role"] },
];

scenarios("API tokens", standardWorld, rows);
coverage("tokens", rows);

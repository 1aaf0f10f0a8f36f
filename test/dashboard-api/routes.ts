/**
 * Every route of the dashboard API, by the table file that owns it, with who may call it
 * (docs/dashboard-api.md "Access"). `coverage()` checks that a table has, for each route it owns:
 *
 * - a success row (2xx);
 * - a validation row (400 with the field named in `contains`) when the route takes a body or a
 *   query;
 * - a not-found row (404) when its path has an id;
 * - a role row: a member's 2xx where members may, a member's 403 where only admins may, an
 *   anonymous 2xx for the routes that need no session.
 *
 * routes.test.ts checks that this list is exactly the app's routes, so a new route needs rows.
 */
import { expect, test } from "bun:test";
import type { App } from "../../src/app.ts";
import { testApp } from "../helpers/app.ts";
import type { Scenario } from "../helpers/scenario.ts";

export type Rule = "member" | "admin" | "no session";
export type Resource =
  | "sessions"
  | "sso"
  | "audit"
  | "users"
  | "projects-languages"
  | "keys-translations"
  | "history"
  | "problems"
  | "editor"
  | "import"
  | "releases"
  | "channels"
  | "tokens"
  | "webhooks-endpoints"
  | "members"
  | "mirror"
  | "delivery"
  | "memory"
  | "glossary"
  | "comments"
  | "screenshots";

export const PREFIX = "/dashboard/api";

export const ROUTES: Record<Resource, [route: string, rule: Rule][]> = {
  sessions: [
    ["POST /login", "no session"],
    ["GET /setup", "no session"],
    ["POST /setup", "no session"],
    ["GET /me", "member"],
    ["POST /logout", "member"],
  ],
  sso: [
    ["GET /auth-methods", "no session"],
    ["GET /oidc/start", "no session"],
    ["GET /oidc/callback", "no session"],
  ],
  audit: [
    ["GET /audit", "admin"],
    ["GET /projects/:pid/audit", "admin"],
  ],
  users: [
    ["GET /users", "member"],
    ["POST /users", "admin"],
    ["PATCH /users/:userId", "admin"],
    ["DELETE /users/:userId", "admin"],
  ],
  "projects-languages": [
    ["GET /projects", "member"],
    ["POST /projects", "admin"],
    ["GET /projects/:pid", "member"],
    ["PATCH /projects/:pid", "admin"],
    ["POST /projects/:pid/rotate-slug", "admin"],
    ["GET /projects/:pid/progress", "member"],
    ["GET /projects/:pid/languages", "member"],
    ["POST /projects/:pid/languages", "admin"],
    ["DELETE /projects/:pid/languages/:code", "admin"],
  ],
  "keys-translations": [
    ["GET /projects/:pid/keys", "member"],
    ["POST /projects/:pid/keys", "member"],
    ["GET /projects/:pid/keys/:keyId", "member"],
    ["PATCH /projects/:pid/keys/:keyId", "member"],
    ["DELETE /projects/:pid/keys/:keyId", "member"],
    ["PUT /projects/:pid/keys/:keyId/translations/:code", "member"],
    ["POST /projects/:pid/keys/:keyId/translations/:code/approve", "member"],
  ],
  history: [["GET /projects/:pid/keys/:keyId/history", "member"]],
  problems: [["GET /projects/:pid/problems", "member"]],
  editor: [
    ["GET /projects/:pid/key-counts", "member"],
    ["GET /projects/:pid/editor-preferences", "member"],
    ["PUT /projects/:pid/editor-preferences", "member"],
  ],
  import: [["POST /projects/:pid/import", "member"]],
  releases: [
    ["GET /projects/:pid/releases", "member"],
    ["POST /projects/:pid/releases", "admin"],
    ["GET /projects/:pid/releases/:rid", "member"],
    ["PATCH /projects/:pid/releases/:rid", "admin"],
    ["POST /projects/:pid/releases/:rid/publish", "admin"],
    ["POST /projects/:pid/releases/:rid/rotate-slug", "admin"],
    ["GET /projects/:pid/releases/:rid/export", "member"],
    ["DELETE /projects/:pid/releases/:rid", "admin"],
    ["POST /projects/:pid/releases/:rid/republish", "admin"],
    ["GET /projects/:pid/releases/:rid/diff", "member"],
    ["PUT /projects/:pid/releases/:rid/schedule", "admin"],
    ["DELETE /projects/:pid/releases/:rid/schedule", "admin"],
  ],
  channels: [
    ["GET /projects/:pid/channels", "member"],
    ["GET /projects/:pid/channels/:name", "member"],
    ["PUT /projects/:pid/channels/:name", "admin"],
    ["POST /projects/:pid/channels/:name/rotate-slug", "admin"],
    ["DELETE /projects/:pid/channels/:name", "admin"],
  ],
  delivery: [
    ["GET /projects/:pid/signing-key", "member"],
    ["POST /projects/:pid/signing-key/rotate", "admin"],
    ["GET /projects/:pid/builds", "member"],
    ["POST /projects/:pid/builds", "member"],
  ],
  tokens: [
    ["GET /projects/:pid/tokens", "member"],
    ["POST /projects/:pid/tokens", "admin"],
    ["DELETE /projects/:pid/tokens/:tokenId", "admin"],
  ],
  "webhooks-endpoints": [
    ["GET /projects/:pid/webhooks", "member"],
    ["POST /projects/:pid/webhooks", "admin"],
    ["GET /projects/:pid/webhooks/:wid", "member"],
    ["PATCH /projects/:pid/webhooks/:wid", "admin"],
    ["DELETE /projects/:pid/webhooks/:wid", "admin"],
    ["POST /projects/:pid/webhooks/:wid/test", "admin"],
    ["GET /projects/:pid/webhooks/:wid/deliveries", "member"],
    ["GET /projects/:pid/deliveries/:did", "member"],
    ["POST /projects/:pid/deliveries/:did/redeliver", "admin"],
  ],
  // Help for translators (docs/translators.md); every role: roles.test.ts.
  memory: [
    ["GET /projects/:pid/keys/:keyId/suggestions", "member"],
    ["GET /projects/:pid/tm.tmx", "member"],
    ["POST /projects/:pid/tm/import", "member"],
    ["GET /projects/:pid/tm/imports", "member"],
    ["DELETE /projects/:pid/tm/imports/:importId", "member"],
    ["POST /projects/:pid/pretranslate", "member"],
  ],
  glossary: [
    ["GET /projects/:pid/glossary", "member"],
    ["POST /projects/:pid/glossary", "member"],
    ["PATCH /projects/:pid/glossary/:termId", "member"],
    ["DELETE /projects/:pid/glossary/:termId", "member"],
    ["GET /projects/:pid/glossary.csv", "member"],
    ["POST /projects/:pid/glossary.csv", "member"],
  ],
  comments: [
    ["GET /projects/:pid/keys/:keyId/comments", "member"],
    ["POST /projects/:pid/keys/:keyId/comments", "member"],
    ["POST /projects/:pid/keys/:keyId/comments/:commentId/resolve", "member"],
    ["DELETE /projects/:pid/keys/:keyId/comments/:commentId", "member"],
  ],
  screenshots: [
    ["GET /projects/:pid/screenshots", "member"],
    ["POST /projects/:pid/screenshots", "member"],
    ["GET /projects/:pid/screenshots/:sid/image", "member"],
    ["PUT /projects/:pid/screenshots/:sid/keys", "member"],
    ["DELETE /projects/:pid/screenshots/:sid", "member"],
    ["GET /projects/:pid/keys/:keyId/screenshots", "member"],
  ],
  // Project admins and global admins (docs/dashboard-api.md "Project roles"); every role: roles.test.ts.
  members: [
    ["GET /projects/:pid/members", "admin"],
    ["PUT /projects/:pid/members/:userId", "admin"],
    ["DELETE /projects/:pid/members/:userId", "admin"],
  ],
  mirror: [["GET /mirror", "admin"]],
};

export interface RouteInfo {
  method: string;
  /** Under /dashboard/api, with Elysia's `:name` parameters. */
  path: string;
  /** Whether the route validates a body or a query string. */
  validates: boolean;
  hasBody: boolean;
}

/** The dashboard API's routes as the app registered them (built on first use, src/app.ts). */
export async function dashboardRoutes(app: App): Promise<RouteInfo[]> {
  const routes = ((await app.dashboardApi()) as unknown as { routes: { method: string; path: string; hooks?: { body?: unknown; query?: unknown } }[] }).routes;
  return routes
    .filter((r) => r.path.startsWith(PREFIX + "/"))
    .map((r) => ({
      method: r.method,
      path: r.path.slice(PREFIX.length),
      validates: Boolean(r.hooks?.body || r.hooks?.query),
      hasBody: Boolean(r.hooks?.body),
    }));
}

/** Whether a row's url (placeholders or real ids, maybe a query) is a request for `path`. */
export function rowMatches(row: Pick<Scenario, "method" | "url">, method: string, path: string): boolean {
  if (row.method !== method) return false;
  const pattern = new RegExp("^" + path.replace(/:[A-Za-z]+/g, "[^/?]+") + "(\\?.*)?$");
  return pattern.test(row.url);
}

/** A success: a 2xx, or the redirect that is single sign-on's answer (its start and callback). */
const ok = (s: Scenario) => s.status >= 200 && s.status < 400;

/** What rows `route` still lacks in `rows` (empty when covered). */
export function missingRows(route: RouteInfo, rule: Rule, rows: Scenario[]): string[] {
  const mine = rows.filter((r) => rowMatches(r, route.method, route.path));
  const missing: string[] = [];
  if (!mine.some(ok)) missing.push("a success row");
  if (route.validates && !mine.some((r) => r.status === 400 && (r.contains?.length ?? 0) > 0)) missing.push("a 400 row naming the field");
  if (route.path.includes(":") && !mine.some((r) => r.status === 404)) missing.push("a 404 row");
  const role =
    rule === "no session"
      ? mine.some((r) => r.as === "anonymous" && ok(r))
      : rule === "member"
        ? mine.some((r) => r.as === "member" && ok(r))
        : mine.some((r) => r.as === "member" && r.status === 403);
  if (!role) missing.push(rule === "no session" ? "an anonymous success row" : rule === "member" ? "a member success row" : "a member 403 row");
  return missing;
}

/**
 * A test that every route `resource` owns has its rows among `rows` (the file's tables). The
 * route's shape (body, query) comes from the app itself.
 */
export function coverage(resource: Resource, rows: Scenario[]): void {
  test(`every ${resource} route has its success, 400, 404 and role rows`, async () => {
    const t = await testApp({ env: { PHRASEBOOK_ADMIN_EMAIL: "", PHRASEBOOK_ADMIN_PASSWORD: "" } });
    try {
      const routes = await dashboardRoutes(t.app);
      const gaps: string[] = [];
      for (const [route, rule] of ROUTES[resource]) {
        const [method, path] = route.split(" ") as [string, string];
        const info = routes.find((r) => r.method === method && r.path === path);
        if (!info) {
          gaps.push(`${route}: not a route of the app`);
          continue;
        }
        for (const what of missingRows(info, rule, rows)) gaps.push(`${route}: ${what}`);
      }
      expect(gaps).toEqual([]);
    } finally {
      await t.close();
    }
  });
}

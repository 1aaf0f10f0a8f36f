/**
 * The single sign-on routes as a scenario table (docs/dashboard-api.md "Single sign-on"), with a
 * real provider on loopback; the flow itself, its refusals and its rules are
 * test/accounts/oidc.test.ts.
 */
import { afterAll, expect } from "bun:test";
import { ORIGIN } from "../helpers/app.ts";
import { scenarios, type Scenario } from "../helpers/scenario.ts";
import { oidcEnv, people, providerFor } from "../accounts/oidc-world.ts";
import { coverage } from "./routes.ts";
import { standardWorld } from "./world.ts";

const provider = await providerFor(people());
afterAll(() => provider.stop());

const rows: Scenario[] = [
  {
    name: "offers the password form and the provider's button, to anyone",
    as: "anonymous",
    method: "GET",
    url: "/auth-methods",
    status: 200,
    contains: [`{"password":true,"oidc":{"name":"Example SSO","start_url":"${ORIGIN}/dashboard/api/oidc/start"}}`],
  },
  {
    name: "redirects to the provider and sets the cookie that binds the callback to this browser",
    as: "anonymous",
    method: "GET",
    url: "/oidc/start?next=/dashboard/users",
    status: 302,
    after(_ctx, _body, reply) {
      expect(reply.headers.get("location")!.startsWith(`${provider.issuer}/auth?`)).toBe(true);
      expect(reply.headers.get("set-cookie")).toStartWith("phrasebook_oidc=");
    },
  },
  { name: "a next longer than a URL may be is 400 naming it", as: "anonymous", method: "GET", url: `/oidc/start?next=/${"x".repeat(2048)}`, status: 400, contains: ['"next"'] },
  {
    name: "a callback of no sign-in started here goes back to the login page with the reason",
    as: "anonymous",
    method: "GET",
    url: "/oidc/callback?code=abc&state=def",
    status: 302,
    after({ t }, _body, reply) {
      const to = new URL(reply.headers.get("location")!);
      expect(to.pathname).toBe("/dashboard/login");
      expect(to.searchParams.get("sso_error")).toBe("expired");
      expect(t.query("SELECT action FROM audit_log ORDER BY id DESC LIMIT 1")).toEqual([{ action: "sign_in_failed" }]);
    },
  },
  { name: "a code longer than any provider's is 400 naming it", as: "anonymous", method: "GET", url: `/oidc/callback?code=${"c".repeat(4097)}&state=s`, status: 400, contains: ['"code"'] },
];

scenarios("single sign-on routes", standardWorld, rows, { env: oidcEnv(provider) });
coverage("sso", rows);

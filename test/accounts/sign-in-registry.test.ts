/**
 * Sign-in methods are a registry (docs/architecture.md "Adding a sign-in method"): each method is
 * one module of `accounts/sign-in/`, named once in `signInMethods`, and the dashboard API derives
 * the rest from it: each method's routes, what `GET /auth-methods` offers, where signing out sends
 * a browser. Shown with a third method made in this file, given to the real dashboard API, which
 * then serves it without a line of its own.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { listMethods, refuseFor, signInMethods, type RedirectMethod, type SignInRegistry } from "../../src/accounts/sign-in/index.ts";
import { findUserByEmail } from "../../src/accounts/users.ts";
import { toHttpError } from "../../src/common/error-reply.ts";
import { dashboardApi } from "../../src/dashboard-api/index.ts";
import { ORIGIN, testApp, type TestApp } from "../helpers/app.ts";
import { ADMIN_EMAIL } from "../helpers/server.ts";

const DEMO_IDP = "https://idp.demo.test";

/** A third way of signing in, as a new module would be: a provider that names the person in its redirect. */
function demoSignIn(t: TestApp): RedirectMethod<{ nonce: string }> {
  return {
    kind: "redirect",
    name: "demo",
    enabled: true,
    refusal: "the demo provider's answer was refused",
    callbackQuery: Type.Object({ nonce: Type.Optional(Type.String({ maxLength: 64 })), email: Type.Optional(Type.String({ maxLength: 254 })) }),
    offer: (urls) => ({ label: "Demo", start_url: urls.start }),
    async start() {
      const nonce = crypto.randomUUID();
      return { location: `${DEMO_IDP}/auth?nonce=${nonce}`, pending: { nonce } };
    },
    async verify({ callbackUrl, pending }) {
      if (callbackUrl.searchParams.get("nonce") !== pending.nonce) throw refuseFor("state");
      const user = findUserByEmail(t.deps.db, callbackUrl.searchParams.get("email") ?? "");
      if (!user) throw refuseFor("invalid");
      return { user, epoch: user.credentialEpoch };
    },
    endSessionUrl: async () => `${DEMO_IDP}/logout`,
  };
}

let t: TestApp;
let api: Elysia;
beforeAll(async () => {
  t = await testApp();
  const methods: SignInRegistry = { ...signInMethods(t.deps), demo: demoSignIn(t) };
  api = new Elysia().onError(({ code, error }) => toHttpError(code, error, "test").toResponse()).use(dashboardApi(t.deps, () => "127.0.0.1", methods)) as unknown as Elysia;
});
afterAll(() => t?.close());

const call = (path: string, init?: RequestInit) => api.handle(new Request(`${ORIGIN}/dashboard/api${path}`, init));

describe("the registry", () => {
  test("each method is under the name it gives itself, password first", () => {
    const methods = signInMethods(t.deps);
    expect(Object.entries(methods).map(([key, m]) => [key, m.name])).toEqual([
      ["password", "password"],
      ["oidc", "oidc"],
    ]);
    expect(listMethods(methods).map((m) => m.kind)).toEqual(["form", "redirect"]);
  });
});

describe("a third method is one module: the dashboard API serves it from the registry", () => {
  test("GET /auth-methods offers it under its name, after the others", async () => {
    expect(await (await call("/auth-methods")).json()).toEqual({ password: true, oidc: null, demo: { label: "Demo", start_url: `${ORIGIN}/dashboard/api/demo/start` } });
  });

  test("its start and callback routes sign a person in, with its sign-in under way sealed in its own cookie", async () => {
    const started = await call("/demo/start?next=/dashboard/users");
    expect(started.status).toBe(302);
    const location = new URL(started.headers.get("location")!);
    expect(location.origin).toBe(DEMO_IDP);
    const cookie = started.headers.getSetCookie().find((c) => c.startsWith("phrasebook_demo="))!;
    expect(cookie).toMatch(/; Path=\/dashboard\/api\/demo; HttpOnly; SameSite=Lax; Max-Age=600$/);
    const nonce = location.searchParams.get("nonce")!;
    const back = await call(`/demo/callback?nonce=${nonce}&email=${encodeURIComponent(ADMIN_EMAIL)}`, { headers: { cookie: cookie.split(";")[0]! } });
    expect(back.status).toBe(302);
    expect(back.headers.get("location")).toBe("/dashboard/users");
    const session = back.headers.getSetCookie().find((c) => c.startsWith("phrasebook_session="))!.split(";")[0]!;
    const me = await (await call("/me", { headers: { cookie: session } })).json();
    expect(me.user.email).toBe(ADMIN_EMAIL);
    expect(t.query("SELECT sign_in_method FROM sessions ORDER BY created_at DESC, rowid DESC LIMIT 1")).toEqual([{ sign_in_method: "demo" }]);

    // Signing out asks the method its session began with where the browser goes next.
    const out = await call("/logout", { method: "POST", headers: { cookie: session, "x-csrf-token": me.csrf_token } });
    expect(await out.json()).toEqual({ end_session_url: `${DEMO_IDP}/logout` });

    // Its refusals go back to the login page as the page's reason codes.
    const wrong = await call(`/demo/callback?nonce=another&email=${encodeURIComponent(ADMIN_EMAIL)}`, { headers: { cookie: cookie.split(";")[0]! } });
    expect(wrong.headers.get("location")).toBe(`${ORIGIN}/dashboard/login?sso_error=state`);
    const audit = t.query<{ details: string }>("SELECT details FROM audit_log WHERE action = 'sign_in_failed' ORDER BY id DESC LIMIT 1");
    expect(JSON.parse(audit[0]!.details)).toMatchObject({ method: "demo" });
  });

  test("a method the server has not set up answers 404 on its routes", async () => {
    // oidc is in the registry, not set up on this server.
    expect((await call("/oidc/start")).status).toBe(404);
    expect((await call("/oidc/callback?code=x&state=y")).status).toBe(404);
  });
});

/**
 * What the single sign-on tests share: a real provider (test/helpers/oidc-provider.ts) with its
 * people, the settings that point the app at it, and the steps of a sign-in over HTTP against the
 * in-process app (its start, the person at the provider, the callback).
 */
import { expect } from "bun:test";
import { refusalSentence } from "../../src/accounts/sign-in/refusals.ts";
import { ORIGIN, type TestApp } from "../helpers/app.ts";
import { signInAt, startProvider, type TestAccount, type TestProvider } from "../helpers/oidc-provider.ts";

export const CLIENT_ID = "phrasebook";
export const CLIENT_SECRET = "client-secret-that-must-never-be-logged";
export const ADMIN_GROUP = "phrasebook-admins";

/** The people at the provider, by login. */
export function people(): Record<string, TestAccount> {
  return {
    ada: { email: "ada@example.test", email_verified: true, name: "Ada Admin", groups: ["staff", ADMIN_GROUP] },
    bob: { email: "bob@example.test", email_verified: true, name: "Bob Builder", groups: ["staff"] },
    eve: { email: "eve@example.test", email_verified: false, name: "Eve Unverified", groups: ["staff"] },
    mallory: { email: "mallory@elsewhere.test", email_verified: true, name: "Mallory Outside", groups: ["staff"] },
    carl: { email: "carl@example.test", email_verified: true, name: "Carl Contractor", groups: ["contractors"] },
    linked: { email: "LINKED@example.test", email_verified: true, name: "Linked Person", groups: ["staff"] },
  };
}

export function providerFor(accounts: Record<string, TestAccount>, more: { port?: number; keys?: import("jose").JWK[]; origin?: string; path?: string } = {}): Promise<TestProvider> {
  const origin = more.origin ?? ORIGIN;
  return startProvider({
    accounts,
    port: more.port,
    keys: more.keys,
    path: more.path,
    clients: [{ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uris: [`${origin}/dashboard/api/oidc/callback`], post_logout_redirect_uris: [`${origin}/dashboard/login`] }],
  });
}

/**
 * The single sign-on settings (docs/deploy.md "Single sign-on") for a provider: staff and admins
 * of example.test may sign in.
 */
export function oidcEnv(provider: TestProvider, more: Record<string, string> = {}): Record<string, string> {
  return {
    PHRASEBOOK_OIDC_ISSUER: provider.issuer,
    PHRASEBOOK_OIDC_CLIENT_ID: CLIENT_ID,
    PHRASEBOOK_OIDC_CLIENT_SECRET: CLIENT_SECRET,
    PHRASEBOOK_OIDC_NAME: "Example SSO",
    PHRASEBOOK_OIDC_SCOPES: "openid email profile groups",
    PHRASEBOOK_OIDC_ADMIN_GROUPS: ADMIN_GROUP,
    PHRASEBOOK_OIDC_ALLOWED_GROUPS: `staff,${ADMIN_GROUP}`,
    PHRASEBOOK_OIDC_ALLOWED_DOMAINS: "example.test",
    ...more,
  };
}

export interface Started {
  /** The provider's authorization URL the app redirected to. */
  authorizationUrl: URL;
  /** The cookie that binds the callback to this "browser". */
  cookie: string;
}

/** `GET /oidc/start`: the redirect to the provider and the binding cookie. */
export async function start(t: TestApp, next?: string): Promise<Started> {
  const res = await t.fetch(`/dashboard/api/oidc/start${next === undefined ? "" : `?next=${encodeURIComponent(next)}`}`);
  expect(res.status).toBe(302);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("phrasebook_oidc="))!;
  // The sign-in under way, sealed (docs/dashboard-api.md "Single sign-on").
  expect(cookie).toMatch(/^phrasebook_oidc=[0-9A-Za-z_-]{100,}; Path=\/dashboard\/api\/oidc; HttpOnly; SameSite=Lax; Max-Age=600$/);
  return { authorizationUrl: new URL(res.headers.get("location")!), cookie: cookie.split(";")[0]! };
}

/** The callback as the browser sends it: the provider's redirect, with the cookie of the start. */
export function callback(t: TestApp, to: URL, cookie: string): Promise<Response> {
  expect(to.origin + to.pathname).toBe(`${ORIGIN}/dashboard/api/oidc/callback`);
  return t.fetch(to.pathname + to.search, { headers: { cookie } });
}

export interface Outcome {
  status: number;
  location: string;
  /** The session cookie (`phrasebook_session=...`) when the sign-in made one. */
  session: string | null;
  /** The refusal's reason code, when the answer went back to the login page (`?sso_error=`). */
  ssoCode: string | null;
  /** The sentence the login page shows for it. */
  ssoError: string | null;
}

export async function outcome(res: Response): Promise<Outcome> {
  const location = res.headers.get("location") ?? "";
  const session = res.headers.getSetCookie().find((c) => c.startsWith("phrasebook_session=") && !c.startsWith("phrasebook_session=;"));
  const url = location ? new URL(location, ORIGIN) : null;
  const code = url?.searchParams.get("sso_error") ?? null;
  return { status: res.status, location, session: session ? session.split(";")[0]! : null, ssoCode: code, ssoError: code === null ? null : refusalSentence(code) };
}

/** A whole sign-in of `login`, from the start to the callback's answer. */
export async function signIn(t: TestApp, login: string, next?: string): Promise<Outcome> {
  const s = await start(t, next);
  const back = await signInAt(s.authorizationUrl.href, login);
  return outcome(await callback(t, back, s.cookie));
}

/** Who a session cookie is, and its CSRF token (`GET /me`). */
export async function me(t: TestApp, session: string): Promise<{ user: any; csrf_token: string }> {
  const res = await t.fetch("/dashboard/api/me", { headers: { cookie: session } });
  expect(res.status).toBe(200);
  return (await res.json()) as { user: any; csrf_token: string };
}

/** The audit log's rows, oldest first. */
export function auditRows(t: TestApp): { action: string; actor_kind: string; actor_name: string; target_name: string | null; details: string }[] {
  return t.query("SELECT action, actor_kind, actor_name, target_name, details FROM audit_log ORDER BY id");
}

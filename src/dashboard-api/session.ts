import { Elysia } from "elysia";
import { Credentials, FirstAdmin, OidcCallbackQuery, OidcStartQuery } from "../accounts/model.ts";
import { createSession, logout, readCookie, SESSION_COOKIE, sessionCookie, type StartedSession } from "../accounts/sessions.ts";
import { recordFailedSignIn, signIn, type SignInMethods } from "../accounts/sign-in/index.ts";
import { OIDC_FLOW_REFUSALS, sameOriginNext } from "../accounts/sign-in/oidc.ts";
import { countUsers, createFirstAdmin } from "../accounts/users.ts";
import { badRequest, conflict, HttpError, notFound } from "../common/errors.ts";
import { toHttpError } from "../common/error-reply.ts";
import { log } from "../common/log.ts";
import type { AppDeps } from "../deps.ts";
import { tokenIdentity, type DashboardContext } from "./access.ts";
import { DASHBOARD_API_PREFIX, jsonBodyParser, refuseCrossSite } from "./guards.ts";

/** The cookie that ties a single sign-on callback to the browser that started it (accounts/sign-in/oidc.ts). */
const OIDC_COOKIE = "phrasebook_oidc";
const OIDC_COOKIE_PATH = `${DASHBOARD_API_PREFIX}/oidc`;
const OIDC_COOKIE_MAX_AGE_SECONDS = 600;

function oidcCookie(value: string, secure: boolean, maxAgeSeconds: number): string {
  return `${OIDC_COOKIE}=${value}; Path=${OIDC_COOKIE_PATH}; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure ? "; Secure" : ""}`;
}

type ReplySet = { status?: number | string; headers: Record<string, unknown> };

/** A 302 with its cookies (Elysia sends each of a `set-cookie` list as a header of its own). */
function redirect(set: ReplySet, location: string, cookies: string[]): string {
  set.status = 302;
  set.headers.location = location;
  set.headers["cache-control"] = "no-store";
  set.headers["set-cookie"] = cookies;
  return "";
}

/**
 * Signing in (docs/product.md §4 "Session"), single sign-on (docs/dashboard-api.md "Single
 * sign-on") and the first-run setup (docs/decisions.md "First run"). None has a session yet, so
 * none has a CSRF token: what keeps another site's page from signing a visitor in (or setting up
 * an empty server) is that bodies must be JSON, which a cross-site form cannot send, and that a
 * browser's Origin must be this server's (guards.ts); single sign-on's callback is bound to the
 * browser that started it by a cookie, and its state.
 */
export function signInRoutes(deps: AppDeps, clientOf: (request: Request) => string, methods: SignInMethods) {
  const secure = deps.settings.publicUrl.startsWith("https:");
  const loginPage = `${deps.settings.publicUrl}/dashboard/login`;
  const begin = (set: { headers: Record<string, unknown> }, started: StartedSession) => {
    set.headers["set-cookie"] = sessionCookie(started.cookieValue, secure);
    return { user: started.session.user, csrf_token: started.session.csrfToken };
  };
  const { oidc } = methods;
  // A refusal goes back to the login page with its sentence (docs/dashboard-api.md "Single
  // sign-on"); the cookie goes.
  const refused = (set: ReplySet, message: string) => redirect(set, `${loginPage}?sso_error=${encodeURIComponent(message)}`, [oidcCookie("", secure, 0)]);

  return new Elysia()
    .onParse(jsonBodyParser({ prefix: DASHBOARD_API_PREFIX, signIn: true, admit: () => undefined }))
    .post(
      "/login",
      async ({ body, request, set }) => {
        refuseCrossSite(request, deps.settings);
        const address = clientOf(request);
        return begin(set, await signIn(deps, methods.password, { ...body, address }, address));
      },
      { body: Credentials },
    )
    // What the login page offers (docs/dashboard-api.md "Single sign-on"); no session needed.
    .get("/auth-methods", () => ({
      password: deps.settings.passwordLogin,
      oidc: oidc.enabled ? { name: oidc.label, start_url: `${deps.settings.publicUrl}${DASHBOARD_API_PREFIX}/oidc/start` } : null,
    }))
    .get(
      "/oidc/start",
      async ({ query, set }) => {
        if (!oidc.enabled) throw notFound("single sign-on is not set up on this server");
        try {
          const { location, handle } = await oidc.start(sameOriginNext(query.next, deps.settings.publicUrl));
          return redirect(set, location, [oidcCookie(handle, secure, OIDC_COOKIE_MAX_AGE_SECONDS)]);
        } catch (err) {
          log.warn("single sign-on: the provider could not be reached", { error: String(err) });
          return refused(set, OIDC_FLOW_REFUSALS.unreachable);
        }
      },
      { query: OidcStartQuery },
    )
    .get(
      "/oidc/callback",
      async ({ query, request, set }) => {
        if (!oidc.enabled) throw notFound("single sign-on is not set up on this server");
        const ip = clientOf(request);
        const pending = oidc.take(readCookie(request.headers.get("cookie"), OIDC_COOKIE));
        const early = query.error !== undefined ? `The identity provider did not sign you in (${query.error}).` : pending === null ? OIDC_FLOW_REFUSALS.expired : null;
        if (early !== null || pending === null) {
          recordFailedSignIn(deps, oidc.name, null, early ?? OIDC_FLOW_REFUSALS.expired, ip);
          return refused(set, early ?? OIDC_FLOW_REFUSALS.expired);
        }
        // The URL the provider redirected to, as the public URL names it (a proxy may have rewritten the host).
        const callbackUrl = new URL(deps.settings.publicUrl + DASHBOARD_API_PREFIX + "/oidc/callback" + new URL(request.url).search);
        try {
          const started = await signIn(deps, oidc, { callbackUrl, pending, ip }, ip);
          return redirect(set, pending.next, [sessionCookie(started.cookieValue, secure), oidcCookie("", secure, 0)]);
        } catch (err) {
          if (err instanceof HttpError && (err.status === 401 || err.status === 403)) return refused(set, err.message);
          // The person came from the provider's page in a browser: a fault of this server (the
          // database busy, the disk full, the provider's token endpoint unreachable) goes back to
          // the login page in one sentence, not a JSON body; nothing was written (toHttpError logs
          // an unknown one).
          const failed = toHttpError("UNKNOWN", err, "GET /oidc/callback");
          return refused(set, `Signing in did not finish on this server (${failed.status}: ${failed.message}); try again, or ask an administrator to read the server's log.`);
        }
      },
      { query: OidcCallbackQuery },
    )
    // First run (no user yet, no bootstrap settings): the dashboard offers to create the admin.
    .get("/setup", () => ({ needed: countUsers(deps.db) === 0 }))
    .post(
      "/setup",
      async ({ body, request, set }) => {
        refuseCrossSite(request, deps.settings);
        const admin = await createFirstAdmin(deps.db, deps.clock, body);
        const started = createSession(deps.db, deps.clock, { user: admin, epoch: admin.credentialEpoch }, { method: "password", ip: clientOf(request) });
        // Only an admin changed or deleted in the instant since it was made gets here.
        if (!started) throw conflict("the new admin changed before signing in; sign in with the password");
        set.status = 201;
        return begin(set, started);
      },
      { body: FirstAdmin },
    );
}

/** Who is signed in, and signing out: for any signed-in caller. */
export function sessionRoutes(deps: AppDeps, context: DashboardContext, methods: SignInMethods, clientOf: (request: Request) => string) {
  const secure = deps.settings.publicUrl.startsWith("https:");
  return new Elysia()
    .use(context)
    // A token (write or publish) learns its own name and scopes (docs/dashboard-api.md "Tokens").
    .get("/me", ({ caller }) => (caller.kind === "token" ? tokenIdentity(caller) : { user: caller.session.user, csrf_token: caller.session.csrfToken }), { access: "read" })
    .post(
      "/logout",
      async ({ request, set, caller }) => {
        if (caller.kind === "token") throw badRequest("a token has no session to end; delete the token in the dashboard to revoke it");
        const method = logout(deps.db, deps.clock, readCookie(request.headers.get("cookie"), SESSION_COOKIE), clientOf(request));
        set.headers["set-cookie"] = sessionCookie("", secure, 0);
        // A session from single sign-on also ends at the provider, if the browser goes there
        // (docs/dashboard-api.md "Authentication").
        return { end_session_url: method === "oidc" ? await methods.oidc.endSessionUrl() : null };
      },
      { access: "read" },
    );
}

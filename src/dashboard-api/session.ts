import { Elysia } from "elysia";
import { Credentials, FirstAdmin } from "../accounts/model.ts";
import { createSession, logout, readCookie, SESSION_COOKIE, sessionCookie, type StartedSession } from "../accounts/sessions.ts";
import { signIn, signInMethods } from "../accounts/sign-in/index.ts";
import { countUsers, createFirstAdmin } from "../accounts/users.ts";
import { badRequest, conflict } from "../common/errors.ts";
import type { AppDeps } from "../deps.ts";
import { tokenIdentity, type DashboardContext } from "./access.ts";
import { DASHBOARD_API_PREFIX, jsonBodyParser, refuseCrossSite } from "./guards.ts";

/**
 * Signing in (docs/product.md §4 "Session") and the first-run setup (docs/decisions.md "First
 * run"). Neither has a session yet, so neither has a CSRF token: what keeps another site's page
 * from signing a visitor in (or setting up an empty server) is that bodies must be JSON, which a
 * cross-site form cannot send, and that a browser's Origin must be this server's (guards.ts).
 */
export function signInRoutes(deps: AppDeps, clientOf: (request: Request) => string) {
  const methods = signInMethods(deps);
  const secure = deps.settings.publicUrl.startsWith("https:");
  const begin = (set: { headers: Record<string, unknown> }, started: StartedSession) => {
    set.headers["set-cookie"] = sessionCookie(started.cookieValue, secure);
    return { user: started.session.user, csrf_token: started.session.csrfToken };
  };

  return new Elysia()
    .onParse(jsonBodyParser({ prefix: DASHBOARD_API_PREFIX, admit: () => undefined }))
    .post(
      "/login",
      async ({ body, request, set }) => {
        refuseCrossSite(request, deps.settings);
        return begin(set, await signIn(deps, methods.password, { ...body, address: clientOf(request) }));
      },
      { body: Credentials },
    )
    // First run (no user yet, no bootstrap settings): the dashboard offers to create the admin.
    .get("/setup", () => ({ needed: countUsers(deps.db) === 0 }))
    .post(
      "/setup",
      async ({ body, request, set }) => {
        refuseCrossSite(request, deps.settings);
        const admin = await createFirstAdmin(deps.db, deps.clock, body);
        const started = createSession(deps.db, deps.clock, { user: admin, epoch: admin.credentialEpoch });
        // Only an admin changed or deleted in the instant since it was made gets here.
        if (!started) throw conflict("the new admin changed before signing in; sign in with the password");
        set.status = 201;
        return begin(set, started);
      },
      { body: FirstAdmin },
    );
}

/** Who is signed in, and signing out: for any signed-in caller. */
export function sessionRoutes(deps: AppDeps, context: DashboardContext) {
  const secure = deps.settings.publicUrl.startsWith("https:");
  return new Elysia()
    .use(context)
    // A token (write or publish) learns its own name and scopes (docs/dashboard-api.md "Tokens").
    .get("/me", ({ caller }) => (caller.kind === "token" ? tokenIdentity(caller) : { user: caller.session.user, csrf_token: caller.session.csrfToken }), { access: "read" })
    .post(
      "/logout",
      ({ request, set, status, caller }) => {
        if (caller.kind === "token") throw badRequest("a token has no session to end; delete the token in the dashboard to revoke it");
        logout(deps.db, readCookie(request.headers.get("cookie"), SESSION_COOKIE));
        set.headers["set-cookie"] = sessionCookie("", secure, 0);
        return status(204);
      },
      { access: "read" },
    );
}

import { Elysia, t } from "elysia";
import { login, LoginThrottle, logout, readCookie, SESSION_COOKIE, sessionCookie } from "../accounts/sessions.ts";
import { countUsers, createUser } from "../accounts/users.ts";
import { conflict } from "../common/errors.ts";
import type { AppDeps } from "../deps.ts";
import type { DashboardContext } from "./access.ts";

const Credentials = t.Object({ email: t.String({ maxLength: 254 }), password: t.String({ maxLength: 1024 }) });
const Setup = t.Object({
  email: t.String({ maxLength: 254 }),
  name: t.String({ minLength: 1, maxLength: 200 }),
  password: t.String({ minLength: 8, maxLength: 1024 }),
});

/** Signing in and out (docs/product.md §4 "Session"), and the first-run setup (docs/decisions.md). */
export function signInRoutes(deps: AppDeps, clientOf: (request: Request) => string) {
  const throttle = new LoginThrottle(deps.clock);
  const secure = deps.settings.publicUrl.startsWith("https:");

  const startSession = async (request: Request, set: { headers: Record<string, unknown> }, email: string, password: string) => {
    const { session, cookieValue } = await login(deps.db, deps.clock, throttle, clientOf(request), { email, password });
    set.headers["set-cookie"] = sessionCookie(cookieValue, secure);
    return { user: session.user, csrf_token: session.csrfToken };
  };

  return new Elysia()
    .post("/login", ({ body, request, set }) => startSession(request, set, body.email, body.password), { body: Credentials })
    // First run (no user yet, no bootstrap settings): the dashboard offers to create the admin.
    .get("/setup", () => ({ needed: countUsers(deps.db) === 0 }))
    .post(
      "/setup",
      async ({ body, request, set }) => {
        if (countUsers(deps.db) > 0) throw conflict("setup is done: an admin already exists");
        await createUser(deps.db, deps.clock, { ...body, role: "admin" });
        set.status = 201;
        return startSession(request, set, body.email, body.password);
      },
      { body: Setup },
    );
}

/** Who is signed in, and signing out: for any signed-in caller. */
export function sessionRoutes(deps: AppDeps, context: DashboardContext) {
  const secure = deps.settings.publicUrl.startsWith("https:");
  return new Elysia()
    .use(context)
    .get("/me", ({ caller }) => ({ user: caller.session.user, csrf_token: caller.session.csrfToken }), { access: "read" })
    .post(
      "/logout",
      ({ request, set, status }) => {
        logout(deps.db, readCookie(request.headers.get("cookie"), SESSION_COOKIE));
        set.headers["set-cookie"] = sessionCookie("", secure, 0);
        return status(204);
      },
      { access: "read" },
    );
}

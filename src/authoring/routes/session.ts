import { Elysia, t } from "elysia";
import type { AppDeps } from "../../app.ts";
import { clientAddress } from "../../common/client-address.ts";
import { conflict } from "../../common/errors.ts";
import { login, LoginThrottle, logout, readCookie, SESSION_COOKIE, sessionCookie } from "../sessions.ts";
import { countUsers, createUser } from "../users.ts";
import { authenticate } from "./guard.ts";

const Credentials = t.Object({ email: t.String({ maxLength: 254 }), password: t.String({ maxLength: 1024 }) });
const Setup = t.Object({
  email: t.String({ maxLength: 254 }),
  name: t.String({ minLength: 1, maxLength: 200 }),
  password: t.String({ minLength: 8, maxLength: 1024 }),
});

export function sessionRoutes(deps: AppDeps) {
  const throttle = new LoginThrottle(deps.clock);
  const secure = deps.settings.publicUrl.startsWith("https:");

  const startSession = async (request: Request, set: { headers: Record<string, unknown> }, email: string, password: string) => {
    const { session, cookieValue } = await login(deps.db, deps.clock, throttle, clientAddress(request), { email, password });
    set.headers["set-cookie"] = sessionCookie(cookieValue, secure);
    return { user: session.user, csrf_token: session.csrfToken };
  };

  return new Elysia()
    .post("/login", ({ body, request, set }) => startSession(request, set, body.email, body.password), { body: Credentials })
    .post("/logout", ({ request, set }) => {
      authenticate(deps, request);
      logout(deps.db, readCookie(request.headers.get("cookie"), SESSION_COOKIE));
      set.headers["set-cookie"] = sessionCookie("", secure, 0);
      set.status = 204;
    })
    .get("/me", ({ request }) => {
      const session = authenticate(deps, request);
      return { user: session.user, csrf_token: session.csrfToken };
    })
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

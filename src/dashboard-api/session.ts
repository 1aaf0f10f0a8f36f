import { Elysia } from "elysia";
import { FirstAdmin, SignInStartQuery } from "../accounts/model.ts";
import { createSession, logout, readCookie, SESSION_COOKIE, sessionCookie, type StartedSession } from "../accounts/sessions.ts";
import { listMethods, recordFailedSignIn, refuseFor, sameOriginNext, signIn, SignInRefusal, SignInSeal, type FormMethod, type RedirectMethod, type SignInRefusalCode, type SignInRegistry } from "../accounts/sign-in/index.ts";
import { countUsers, createFirstAdmin } from "../accounts/users.ts";
import { badRequest, conflict, HttpError, notFound } from "../common/errors.ts";
import { toHttpError } from "../common/error-reply.ts";
import type { AppDeps } from "../deps.ts";
import { tokenIdentity, type DashboardContext } from "./access.ts";
import { DASHBOARD_API_PREFIX, jsonBodyParser, refuseCrossSite } from "./guards.ts";

/** How long a sign-in through a provider may take, from its start to its callback (a person at the provider's login). */
export const SIGN_IN_PENDING_TTL_MS = 10 * 60_000;

/** The cookie that carries a redirect method's sign-in under way, sealed, to its callback (accounts/sign-in/sealed.ts). */
const pendingCookieName = (method: string) => `phrasebook_${method}`;

function pendingCookie(method: string, value: string, secure: boolean, maxAgeSeconds: number): string {
  return `${pendingCookieName(method)}=${value}; Path=${DASHBOARD_API_PREFIX}/${method}; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure ? "; Secure" : ""}`;
}

/** What a redirect method's cookie carries: where to go after, and what the method's callback needs. */
interface PendingSignIn {
  /** Same origin, checked at the start (sameOriginNext). */
  next: string;
  pending: unknown;
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
 * Signing in (docs/product.md §4 "Session"), with every method of the registry
 * (accounts/sign-in/index.ts), and the first-run setup (docs/decisions.md "First run"). Each
 * method's routes come from its kind: a form method is a `POST` at its path (`/login`); a redirect
 * method is `GET /<name>/start` and `GET /<name>/callback` (`/oidc/...`). None has a session yet,
 * so none has a CSRF token: what keeps another site's page from signing a visitor in (or setting up
 * an empty server) is that bodies must be JSON, which a cross-site form cannot send, and that a
 * browser's Origin must be this server's (guards.ts); a redirect method's callback is bound to the
 * browser that started it by its sealed cookie, and its state.
 */
export function signInRoutes(deps: AppDeps, clientOf: (request: Request) => string, methods: SignInRegistry) {
  const secure = deps.settings.publicUrl.startsWith("https:");
  const loginPage = `${deps.settings.publicUrl}/dashboard/login`;
  const seal = new SignInSeal(deps);
  const begin = (set: { headers: Record<string, unknown> }, started: StartedSession) => {
    set.headers["set-cookie"] = sessionCookie(started.cookieValue, secure);
    return { user: started.session.user, csrf_token: started.session.csrfToken };
  };
  const all = listMethods(methods);
  const urls = (name: string) => ({ start: `${deps.settings.publicUrl}${DASHBOARD_API_PREFIX}/${name}/start` });

  // Bodies are JSON, small, and read without asking who sends them: nobody is signed in yet (guards.ts).
  const parser = jsonBodyParser({ prefix: DASHBOARD_API_PREFIX, signIn: true, admit: () => undefined });

  /** A form method: its body, from this site only, verified into a session (`POST /login`). */
  function formRoutes(method: FormMethod<unknown, unknown>) {
    return new Elysia().onParse(parser).post(
      method.path,
      async ({ body, request, set }) => {
        refuseCrossSite(request, deps.settings);
        const address = clientOf(request);
        return begin(set, await signIn(deps, method, method.input(body, address), address));
      },
      { body: method.body },
    );
  }

  /**
   * A redirect method. Its start seals what the callback needs into a cookie of this browser (state,
   * nonce, PKCE verifier, next, expiry; accounts/sign-in/sealed.ts), nothing on the server; its
   * callback opens that cookie. Every refusal returns the browser to the login page with a reason
   * code, which the page turns into its own sentence (accounts/sign-in/refusals.ts); the cookie goes.
   */
  function redirectRoutes(method: RedirectMethod<unknown>) {
    const refused = (set: ReplySet, code: SignInRefusalCode) => redirect(set, `${loginPage}?sso_error=${code}`, [pendingCookie(method.name, "", secure, 0)]);
    const notSetUp = () => notFound(`signing in with ${method.name} is not set up on this server`);
    return new Elysia()
      .get(
        `/${method.name}/start`,
        async ({ query, set }) => {
          if (!method.enabled) throw notSetUp();
          let started;
          try {
            started = await method.start();
          } catch (err) {
            // The method logged why (the provider unreachable or misconfigured).
            return refused(set, err instanceof SignInRefusal && err.code ? err.code : "unreachable");
          }
          const under: PendingSignIn = { next: sameOriginNext(query.next, deps.settings.publicUrl), pending: started.pending };
          const cookie = await seal.seal(method.name, under, deps.clock.now() + SIGN_IN_PENDING_TTL_MS);
          return redirect(set, started.location, [pendingCookie(method.name, cookie, secure, SIGN_IN_PENDING_TTL_MS / 1000)]);
        },
        { query: SignInStartQuery },
      )
      .get(
        `/${method.name}/callback`,
        async ({ request, set }) => {
          if (!method.enabled) throw notSetUp();
          const ip = clientOf(request);
          const under = (await seal.open(method.name, readCookie(request.headers.get("cookie"), pendingCookieName(method.name)))) as PendingSignIn | null;
          if (under === null) {
            const expired = refuseFor("expired");
            recordFailedSignIn(deps, method.name, null, expired.message, ip);
            return refused(set, "expired");
          }
          // The URL the provider redirected to, as the public URL names it (a proxy may have rewritten the host).
          const callbackUrl = new URL(`${deps.settings.publicUrl}${DASHBOARD_API_PREFIX}/${method.name}/callback${new URL(request.url).search}`);
          try {
            const started = await signIn(deps, method, { callbackUrl, pending: under.pending, ip }, ip);
            return redirect(set, under.next, [sessionCookie(started.cookieValue, secure), pendingCookie(method.name, "", secure, 0)]);
          } catch (err) {
            if (err instanceof SignInRefusal && err.code) return refused(set, err.code);
            if (err instanceof HttpError && (err.status === 401 || err.status === 403)) return refused(set, "invalid");
            // The person came from the provider's page in a browser: a fault of this server (the
            // database busy, the disk full, the provider's token endpoint unreachable) goes back to
            // the login page with its code, not a JSON body; nothing was written, and toHttpError logs
            // an unknown cause.
            toHttpError("UNKNOWN", err, `GET /${method.name}/callback`);
            return refused(set, "server");
          }
        },
        { query: method.callbackQuery },
      );
  }

  const routes = new Elysia()
    .onParse(parser)
    // What the login page offers (docs/dashboard-api.md "Single sign-on"), each method under its name; no session needed.
    .get("/auth-methods", () => Object.fromEntries(all.map((m) => [m.name, m.offer(urls(m.name))])));
  for (const method of all) routes.use(method.kind === "form" ? formRoutes(method) : redirectRoutes(method));

  // First run (no user yet, no bootstrap settings): the dashboard offers to create the admin.
  return routes.get("/setup", () => ({ needed: countUsers(deps.db) === 0 })).post(
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
export function sessionRoutes(deps: AppDeps, context: DashboardContext, methods: SignInRegistry, clientOf: (request: Request) => string) {
  const secure = deps.settings.publicUrl.startsWith("https:");
  const all = listMethods(methods);
  return new Elysia()
    .use(context)
    // A token (write or publish) learns its own name and scopes (docs/dashboard-api.md "Tokens").
    .get("/me", ({ caller }) => (caller.kind === "token" ? tokenIdentity(caller) : { user: caller.session.user, csrf_token: caller.session.csrfToken }), { access: "read" })
    .post(
      "/logout",
      async ({ request, set, caller }) => {
        if (caller.kind === "token") throw badRequest("a token has no session to end; delete the token in the dashboard to revoke it");
        const began = logout(deps.db, deps.clock, readCookie(request.headers.get("cookie"), SESSION_COOKIE), clientOf(request));
        set.headers["set-cookie"] = sessionCookie("", secure, 0);
        // A session of a method with a provider also ends there, if the browser goes there
        // (docs/dashboard-api.md "Authentication").
        const method = all.find((m) => m.name === began);
        return { end_session_url: (await method?.endSessionUrl?.()) ?? null };
      },
      { access: "read" },
    );
}

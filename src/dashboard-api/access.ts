import { Elysia } from "elysia";
import { checkCsrf, readCookie, SESSION_COOKIE, sessionFromCookie, type SessionInfo } from "../accounts/sessions.ts";
import type { AuditBy } from "../audit/record.ts";
import { findProject } from "../authoring/projects.ts";
import type { Actor } from "../changes/actor.ts";
import { badRequest, forbidden, notFound, unauthorized } from "../common/errors.ts";
import type { AppDeps } from "../deps.ts";
import type { TokenScope } from "../storage/schema.ts";
import { isBearer, TokenAuth, type Caller as TokenInfo } from "../tokens/token-auth.ts";
import { pathOf } from "../common/http.ts";
import { DASHBOARD_API_PREFIX, jsonBodyParser, refuseCrossSite, type Limit } from "./guards.ts";
import { parseBodyOffThread } from "./worker.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** A signed-in user (docs/product.md §4). */
export interface SessionCaller {
  kind: "session";
  session: SessionInfo;
  /** The user's row id, recorded as a release's creator. */
  userId: number;
  /** Who the history says made a change. */
  actor: Actor;
}

/** An API token with `Authorization: Bearer` (docs/product.md §6): its own project only, by its scopes. */
export interface TokenCaller {
  kind: "token";
  token: TokenInfo;
  /** A release made with a token has no user as its creator. */
  userId: null;
  /** The token, by its public id and name (docs/product.md §8). */
  actor: Actor;
}

/** Who is calling the dashboard API. */
export type Caller = SessionCaller | TokenCaller;

/**
 * What a route needs (docs/dashboard-api.md "Access"). Members may read and edit content; the
 * rest needs an admin. Tokens reach what their scopes map to (TOKEN_SCOPES_FOR).
 */
export type Access =
  /** GETs of projects and their content (keys, languages, releases, progress); who am I; signing out */
  | "read"
  /** GETs of users, tokens, webhooks and deliveries */
  | "read-private"
  /** a signed-in user's own settings in a project (the editor's languages): never a token's */
  | "own"
  /** keys, translations, import */
  | "edit"
  /** adding a language */
  | "add-language"
  /** creating, renaming and publishing releases */
  | "release"
  /** project settings and slugs, deleting languages and releases, users, tokens, webhooks */
  | "admin";

const MEMBER_MAY = new Set<Access>(["read", "read-private", "own", "edit"]);

/**
 * The scopes that let a token through each access (docs/product.md §6), any one of them enough;
 * the first is the one a refusal names. `read` content is for write and publish tokens (a client
 * that writes or publishes must see what it changes); a `read` token is for the public API only.
 * No scope reaches `read-private` or `admin`: a refusal names `admin`, which no token can have
 * (docs/dashboard-api.md "Tokens").
 */
export const TOKEN_SCOPES_FOR: Record<Access, readonly TokenScope[]> = {
  read: ["write", "publish"],
  "read-private": [],
  own: [],
  edit: ["write"],
  "add-language": ["write"],
  release: ["publish"],
  admin: [],
};

/** The word a token's refusal names: `token lacks scope <scope>`. */
export function missingScope(access: Access): string {
  return TOKEN_SCOPES_FOR[access][0] ?? "admin";
}

export function authorize(caller: Caller | undefined, access: Access): void {
  if (!caller) throw unauthorized("not logged in");
  if (caller.kind === "token") {
    if (TOKEN_SCOPES_FOR[access].some((scope) => caller.token.scopes.includes(scope))) return;
    throw forbidden(`token lacks scope ${missingScope(access)}`);
  }
  if (caller.session.user.role === "admin" || MEMBER_MAY.has(access)) return;
  throw forbidden("this needs the admin role");
}

/** `GET /me` for a token: its id, name and scopes, never its value. */
export function tokenIdentity(caller: TokenCaller) {
  return { token: { id: caller.token.publicId, name: caller.token.name, scopes: [...caller.token.scopes] } };
}

/** Whether the caller is a signed-in admin (never a token: no scope is an admin's). */
export function isAdminCaller(caller: Caller): boolean {
  return caller.kind === "session" && caller.session.user.role === "admin";
}

/**
 * A caller by session cookie, or 401: a valid session, and for any method that changes something
 * an Origin of this server or none (403, guards.ts refuseCrossSite) and the X-CSRF-Token of that
 * session (403). Checks that concern cookie-borne requests only belong here, not on the token path.
 */
export function authenticateSession(deps: Pick<AppDeps, "db" | "clock" | "settings">, request: Request, cookieValue: string | undefined): SessionCaller {
  const session = sessionFromCookie(deps.db, deps.clock, cookieValue);
  if (!session) throw unauthorized("not logged in");
  if (!SAFE_METHODS.has(request.method)) {
    refuseCrossSite(request, deps.settings);
    if (!checkCsrf(session, request.headers.get("x-csrf-token"))) throw forbidden("missing or wrong X-CSRF-Token header");
  }
  return { kind: "session", session, userId: session.userId, actor: { kind: "user", publicId: session.user.id, name: session.user.name } };
}

/**
 * A caller by bearer token, or 401. A bearer request carries no cookie, so a page on another site
 * cannot make a browser send it: it needs no CSRF header (docs/product.md §6).
 */
export function authenticateToken(tokens: TokenAuth, authorization: string, nowMs: number): TokenCaller {
  const outcome = tokens.authenticate(authorization, nowMs);
  if (outcome.kind !== "ok") throw unauthorized("invalid token", { "www-authenticate": 'Bearer realm="phrasebook", error="invalid_token"' });
  const token = outcome.caller;
  return { kind: "token", token, userId: null, actor: { kind: "token", publicId: token.publicId, name: token.name } };
}

/**
 * The caller of a request: a session cookie or a bearer token, never both (400: which one should
 * the request act as?). Only the Bearer scheme counts as a token: an `Authorization: Basic` that a
 * reverse proxy's own login passes along leaves the session path as it was.
 */
export function authenticate(deps: Pick<AppDeps, "db" | "clock" | "settings">, tokens: TokenAuth, request: Request): Caller {
  const authorization = request.headers.get("authorization");
  const bearer = authorization !== null && isBearer(authorization);
  const cookieValue = readCookie(request.headers.get("cookie"), SESSION_COOKIE) || undefined;
  if (bearer && cookieValue !== undefined) throw badRequest("send either a session cookie or an Authorization: Bearer token, not both");
  if (bearer) return authenticateToken(tokens, authorization, deps.clock.now());
  return authenticateSession(deps, request, cookieValue);
}

/** `/projects/<id>/import` under the dashboard API: the project id, from the path alone. */
const IMPORT_PATH = /\/projects\/([^/]+)\/import$/;

/**
 * Whether `caller` may use the project route `pid` with `access`, as the route's own hooks would
 * judge it (authorize, then the project: 404 when there is none or it is another's token's).
 */
function admitToProject(deps: Pick<AppDeps, "db">, caller: Caller, access: Access, pid: string | null) {
  authorize(caller, access);
  return projectFor(deps, caller, pid);
}

/** The project `pid` as `caller` may see it: 404 when there is none, or when it is another's token's. */
function projectFor(deps: Pick<AppDeps, "db">, caller: Caller | undefined, pid: string | null) {
  const project = findProject(deps.db, pid);
  // A token belongs to one project (docs/interface.md §5 rule 3): any other is as unknown to it as a missing one.
  if (caller?.kind === "token" && caller.token.projectId !== project.id) throw notFound("project not found");
  return project;
}

/**
 * The dashboard API's request context, one per app: authentication once per request (before the
 * body is validated, so an anonymous caller learns nothing about the input), then per route the
 * access it declares (`access: "edit"`) and, for routes under `/projects/:pid`, the project
 * (`inProject: true`), 404 when there is none or when a token of another project asks for it.
 * Every resource's routes `.use()` this same instance.
 */
export function dashboardContext(deps: Pick<AppDeps, "db" | "clock" | "changes" | "settings">, clientOf: (request: Request) => string | null = () => null) {
  // Verified tokens are remembered like the public API's, and forgotten when their project changes
  // (deleting a token is such a change), so a deleted token is refused on its next request.
  const tokens = new TokenAuth(deps.db);
  deps.changes.subscribe((projectId) => tokens.forgetProject(projectId));
  // The caller found before the body was read, so the request is authenticated once.
  const known = new WeakMap<Request, Caller>();
  const callerOf = (request: Request): Caller => {
    let caller = known.get(request);
    if (!caller) known.set(request, (caller = authenticate(deps, tokens, request)));
    return caller;
  };
  // Bodies are read by the API's own parser (guards.ts), and only once the caller is admitted:
  // authenticated, and for the import route allowed to import into the project the path names
  // (docs/dashboard-api.md "Conventions"), so a read token or another project's token makes the
  // server read none of a 16 MB body.
  const admit = (request: Request, limit: Limit) => {
    const caller = callerOf(request);
    if (!limit.import) return;
    const pid = IMPORT_PATH.exec(pathOf(request.url))?.[1] ?? null;
    admitToProject(deps, caller, "edit", pid === null ? null : decodeURIComponent(pid));
  };
  return new Elysia({ name: "dashboard-context" })
    .onParse({ as: "scoped" }, jsonBodyParser({ prefix: DASHBOARD_API_PREFIX, admit, parseLarge: parseBodyOffThread }))
    .derive({ as: "scoped" }, ({ request }) => {
      const caller = callerOf(request);
      // Who the audit log names for what this request changes (docs/dashboard-api.md "Audit log").
      const by: AuditBy = { actor: caller.actor, ip: clientOf(request) };
      return { caller, by };
    })
    .macro({
      access: (access: Access) => ({
        beforeHandle({ caller }) {
          authorize(caller, access);
        },
      }),
      inProject: {
        resolve({ params, caller }) {
          return { project: projectFor(deps, caller as Caller | undefined, (params as Record<string, string | null>).pid ?? null) };
        },
      },
    });
}

export type DashboardContext = ReturnType<typeof dashboardContext>;

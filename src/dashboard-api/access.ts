import { Elysia } from "elysia";
import { checkCsrf, readCookie, SESSION_COOKIE, sessionFromCookie, type SessionInfo } from "../accounts/sessions.ts";
import type { AuditBy } from "../audit/record.ts";
import { findProject } from "../authoring/projects.ts";
import { actorKey, type Actor } from "../changes/actor.ts";
import { badRequest, forbidden, HttpError, notFound, unauthorized } from "../common/errors.ts";
import type { AppDeps } from "../deps.ts";
import { grantCoversLanguage, grantOf, grantsOf, roleCovers, type Grant } from "../members/members.ts";
import { EVERY_PROJECT, type ReadScope } from "../memory/scope.ts";
import type { ProjectRole, ProjectRow, TokenScope } from "../storage/schema.ts";
import { isBearer, TokenAuth, type Caller as TokenInfo } from "../tokens/token-auth.ts";
import { pathOf } from "../common/http.ts";
import { DASHBOARD_API_PREFIX, jsonBodyParser, refuseCrossSite, WRITE_WINDOW_SECONDS, writeBytesBudget, type Limit, type RawBodyRoute } from "./guards.ts";
import { WriteBudget, type WriteRefusal } from "../common/write-budget.ts";
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
 * The right a route needs (docs/dashboard-api.md "Project roles"): every route declares one, and
 * this module alone decides it. Under `/projects/:pid` it is judged from the caller's role in that
 * project (members/members.ts grantOf: a global admin is every project's admin); elsewhere
 * `read`, `read-private` and `own` are for anyone signed in and the rest for global admins.
 * Tokens reach what their scopes map to (TOKEN_SCOPES_FOR), in their own project only.
 */
export type Access =
  /** GETs of projects and their content (keys, languages, releases, progress); who am I; signing out */
  | "read"
  /** GETs of users (any signed-in user), tokens, webhooks and deliveries (developer: a member's old rights) */
  | "read-private"
  /** a signed-in user's own settings in a project (the editor's languages): never a token's */
  | "own"
  /** a translation's value, in the language of the path's `:code` */
  | "translate"
  /** approving a translation, in the language of the path's `:code` */
  | "approve"
  /** writing, resolving and deleting comments on keys (docs/translators.md "Comments") */
  | "comment"
  /** creating, renaming and deleting keys */
  | "keys"
  /** importing a file */
  | "import"
  /** adding a language */
  | "add-language"
  /** creating, changing and publishing releases */
  | "release"
  /** deleting a release: a publisher's, never a token's (a publish token creates and publishes only, docs/product.md §6) */
  | "delete-release"
  /** project settings and slugs, deleting languages, publishing with errors */
  | "settings"
  /** a channel's new slug: a slug, so a project admin's; a channel operation, so a publish token's (docs/dashboard-api.md "Project roles") */
  | "channel-slug"
  /** creating and deleting API tokens */
  | "tokens"
  /** changing webhook endpoints, test events, redeliveries */
  | "webhooks"
  /** the project's members and their roles */
  | "members"
  /** the project's audit log */
  | "audit"
  /** global: creating projects, users */
  | "admin";

/** The lowest project role that holds each right; `admin` is no project's to give. */
export const ROLE_FOR: Record<Exclude<Access, "admin">, ProjectRole> = {
  read: "viewer",
  own: "viewer",
  translate: "translator",
  approve: "reviewer",
  comment: "translator",
  "read-private": "developer",
  keys: "developer",
  import: "developer",
  "add-language": "publisher",
  release: "publisher",
  "delete-release": "publisher",
  settings: "admin",
  "channel-slug": "admin",
  tokens: "admin",
  webhooks: "admin",
  members: "admin",
  audit: "admin",
};

/** Rights about one language: the path's `:code`, which a translator's or reviewer's languages must include. */
const LANGUAGE_RIGHTS = new Set<Access>(["translate", "approve"]);
/** Rights anyone signed in has outside a project. */
const ANYONE_MAY = new Set<Access>(["read", "read-private", "own"]);

/**
 * The scopes that let a token through each access (docs/product.md §6), any one of them enough;
 * the first is the one a refusal names. `read` content is for write and publish tokens (a client
 * that writes or publishes must see what it changes); a `read` token is for the public API only.
 * No scope reaches `read-private`, the admin's rights or members: a refusal names `admin`, which
 * no token can have (docs/dashboard-api.md "Tokens").
 */
export const TOKEN_SCOPES_FOR: Record<Access, readonly TokenScope[]> = {
  read: ["write", "publish"],
  "read-private": [],
  own: [],
  translate: ["write"],
  approve: ["write"],
  comment: ["write"],
  keys: ["write"],
  import: ["write"],
  "add-language": ["write"],
  release: ["publish"],
  "delete-release": [],
  settings: [],
  "channel-slug": ["publish"],
  tokens: [],
  webhooks: [],
  members: [],
  audit: [],
  admin: [],
};

/** The word a token's refusal names: `token lacks scope <scope>`. */
export function missingScope(access: Access): string {
  return TOKEN_SCOPES_FOR[access][0] ?? "admin";
}

/** A route outside any project: its right, for whoever calls. */
export function authorize(caller: Caller | undefined, access: Access): void {
  if (!caller) throw unauthorized("not logged in");
  if (caller.kind === "token") {
    if (TOKEN_SCOPES_FOR[access].some((scope) => caller.token.scopes.includes(scope))) return;
    throw forbidden(`token lacks scope ${missingScope(access)}`);
  }
  if (caller.session.user.role === "admin" || ANYONE_MAY.has(access)) return;
  throw forbidden("this needs the admin role");
}

/**
 * A route under `/projects/:pid`: the right `access` in `project` for `grant` (the caller's role
 * there; null for a token, judged by its scopes). `code` is the language a translate or approve
 * is about. 403 naming the role that would do.
 */
export function authorizeIn(caller: Caller, grant: Grant | null, access: Access, code: string | null): void {
  if (caller.kind === "token" || grant === null) return authorize(caller, access);
  if (access === "admin") {
    if (caller.session.user.role === "admin") return;
    throw forbidden("this needs the admin role");
  }
  const needed = ROLE_FOR[access];
  if (!roleCovers(grant.role, needed)) throw forbidden(`this needs the ${needed} role in this project; yours is ${grant.role}`);
  if (LANGUAGE_RIGHTS.has(access) && code !== null && !grantCoversLanguage(grant, code)) {
    throw forbidden(`your ${grant.role} role in this project covers ${grant.languages!.join(", ") || "no language"}, not ${code.slice(0, 40)}`);
  }
}

/** Whether `grant` (null: a token) holds `access` in its project, for a reply that shows more to some (allow_errors, webhook URLs). */
export function grantHolds(grant: Grant | null, access: Exclude<Access, "admin">): boolean {
  return grant !== null && roleCovers(grant.role, ROLE_FOR[access]);
}

/**
 * The languages a reply shows `grant`: all (null), or a translator's or reviewer's own and the
 * base language they translate from (docs/dashboard-api.md "Project roles").
 */
export function visibleLanguages(grant: Grant | null, project: ProjectRow): Set<string> | null {
  if (grant === null || grant.languages === null) return null;
  return new Set([project.baseLanguageCode, ...grant.languages].map((c) => c.toLowerCase()));
}

/** 403 unless `grant` shows language `code` (a translator's or reviewer's own, or the base language). */
export function requireVisible(grant: Grant | null, project: ProjectRow, code: string): void {
  const visible = visibleLanguages(grant, project);
  if (visible !== null && !visible.has(code.trim().toLowerCase())) {
    throw forbidden(`your ${grant!.role} role in this project covers ${grant!.languages!.join(", ") || "no language"}, not ${code.slice(0, 40)}`);
  }
}

/**
 * The projects whose stored translations into `code` the caller may read (docs/translators.md
 * "Translation memory"): a token's own project; a global admin's every project; a user's the
 * projects they hold a role in (every project, with a default role), less those where their role
 * is limited to other languages.
 */
export function readScope(deps: Pick<AppDeps, "db" | "settings">, caller: Caller, code: string): ReadScope {
  if (caller.kind === "token") return { only: new Set([caller.token.projectId]), except: new Set() };
  const grants = grantsOf(deps.db, { id: caller.userId, role: caller.session.user.role });
  if (grants === null) return EVERY_PROJECT;
  const covered = [...grants].filter(([, g]) => grantCoversLanguage(g, code)).map(([id]) => id);
  if (deps.settings.defaultProjectRole === "none") return { only: new Set(covered), except: new Set() };
  return { only: null, except: new Set([...grants].filter(([, g]) => !grantCoversLanguage(g, code)).map(([id]) => id)) };
}

/** `items` whose language (by `codeOf`) `visible` includes; all when it is null. */
export function onlyVisible<T>(visible: Set<string> | null, items: T[], codeOf: (item: T) => string): T[] {
  return visible === null ? items : items.filter((item) => visible.has(codeOf(item).toLowerCase()));
}

/** `GET /me` for a token: its id, name and scopes, never its value. */
export function tokenIdentity(caller: TokenCaller) {
  return { token: { id: caller.token.publicId, name: caller.token.name, scopes: [...caller.token.scopes] } };
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

/**
 * The 429 of a caller past their write budget (docs/deploy.md "Security notes"), naming the limit
 * and when the window ends.
 */
function writesRefused(refusal: WriteRefusal, limit: number): HttpError {
  const why =
    refusal.why === "writes"
      ? `you made ${limit} changes in this minute, the limit for one person or token (PHRASEBOOK_WRITE_RATE_LIMIT)`
      : `your changes in this minute hold ${(writeBytesBudget(limit) / (1024 * 1024)).toFixed(1)} MB, the limit for one person or token`;
  return new HttpError(429, `${why}; try again in ${refusal.retryAfterSeconds} s`, { "retry-after": String(refusal.retryAfterSeconds) });
}

/** The rights whose requests change nothing lasting, so they spend no write: reading, and signing out. */
const SPENDS_NO_WRITE = new Set<Access>(["read", "read-private"]);

/** `/projects/<id>/import` (and `/builds`, whose body is base files) under the dashboard API: the project id, from the path alone. */
const IMPORT_PATH = /\/projects\/([^/]+)\/(?:import|builds)$/;

/** Where a project route runs: the project, and the caller's grant there (null for a token). */
export interface Place {
  project: ProjectRow;
  grant: Grant | null;
}

/**
 * The project `pid` as `caller` may see it: 404 when there is none, when it is another's token's,
 * or when a user holds no role in it (a project they have no part in is as unknown to them as a
 * missing one, docs/dashboard-api.md "Project roles").
 */
function placeFor(deps: Pick<AppDeps, "db" | "settings">, caller: Caller | undefined, pid: string | null): Place {
  if (!caller) throw unauthorized("not logged in");
  const project = findProject(deps.db, pid);
  // A token belongs to one project (docs/interface.md §5 rule 3): any other is as unknown to it as a missing one.
  if (caller.kind === "token") {
    if (caller.token.projectId !== project.id) throw notFound("project not found");
    return { project, grant: null };
  }
  const grant = grantOf(deps.db, { id: caller.userId, role: caller.session.user.role }, project.id, deps.settings.defaultProjectRole);
  if (!grant) throw notFound("project not found");
  return { project, grant };
}

/**
 * The dashboard API's request context, one per app: authentication once per request (before the
 * body is validated, so an anonymous caller learns nothing about the input), then per route the
 * access it declares (`access: "edit"`) and, for routes under `/projects/:pid`, the project
 * (`inProject: true`), 404 when there is none or when a token of another project asks for it.
 * Every resource's routes `.use()` this same instance.
 */
export function dashboardContext(deps: Pick<AppDeps, "db" | "clock" | "changes" | "settings">, clientOf: (request: Request) => string | null = () => null, rawBodies: readonly RawBodyRoute<Access>[] = []) {
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
  // The project and the caller's grant there, found once per request (the access check and the
  // route's `project` both need them).
  const places = new WeakMap<Request, Place>();
  const placeOf = (request: Request, caller: Caller | undefined, pid: string | null): Place => {
    let place = places.get(request);
    if (!place) places.set(request, (place = placeFor(deps, caller, pid)));
    return place;
  };
  // Writes per person and token, and the bytes of their bodies (guards.ts WRITE_BYTES_PER_WRITE).
  const writes = new WriteBudget(deps.settings.writeRateLimit, writeBytesBudget(deps.settings.writeRateLimit), WRITE_WINDOW_SECONDS * 1000);
  const bodyBytes = new WeakMap<Request, number>();
  const spend = (request: Request, caller: Caller, access: Access) => {
    if (SAFE_METHODS.has(request.method) || SPENDS_NO_WRITE.has(access)) return;
    const refusal = writes.take(actorKey(caller.actor), bodyBytes.get(request) ?? 0, deps.clock.now());
    if (refusal) throw writesRefused(refusal, writes.writes);
  };
  const admit = (request: Request, limit: Limit): string | undefined => {
    const caller = callerOf(request);
    if (limit.raw) {
      // A declared body (guards.ts rule 2): the route's access, in the project its path names.
      const { route, params } = limit.raw;
      const access = route.access as Access;
      if (params.pid === undefined) authorize(caller, access);
      else authorizeIn(caller, placeOf(request, caller, params.pid).grant, access, params.code ?? null);
      return actorKey(caller.actor);
    }
    if (!limit.import) return undefined;
    const pid = IMPORT_PATH.exec(pathOf(request.url))?.[1] ?? null;
    const place = placeOf(request, caller, pid === null ? null : decodeURIComponent(pid));
    authorizeIn(caller, place.grant, "import", null);
    return actorKey(caller.actor);
  };
  return new Elysia({ name: "dashboard-context" })
    .onParse(
      { as: "scoped" },
      jsonBodyParser({ prefix: DASHBOARD_API_PREFIX, admit, rawBodies, parseLarge: parseBodyOffThread, measured: (request, bytes) => bodyBytes.set(request, bytes) }),
    )
    .derive({ as: "scoped" }, ({ request }) => {
      const caller = callerOf(request);
      // Who the audit log names for what this request changes (docs/dashboard-api.md "Audit log").
      const by: AuditBy = { actor: caller.actor, ip: clientOf(request) };
      return { caller, by };
    })
    .macro({
      // The one place a route's right is decided: inside a project from the caller's grant there.
      access: (access: Access) => ({
        beforeHandle({ caller, params, request }) {
          const { pid, code } = (params ?? {}) as Record<string, string | undefined>;
          if (pid === undefined) authorize(caller, access);
          else {
            if (!caller) throw unauthorized("not logged in");
            const place = placeOf(request, caller, pid);
            authorizeIn(caller, place.grant, access, code ?? null);
          }
          // A change, allowed: one write of the caller's budget (an import is one, whatever its size).
          spend(request, caller!, access);
        },
      }),
      inProject: {
        resolve({ params, caller, request }) {
          const { project, grant } = placeOf(request, caller as Caller | undefined, (params as Record<string, string | null>).pid ?? null);
          return { project, grant };
        },
      },
    });
}

export type DashboardContext = ReturnType<typeof dashboardContext>;

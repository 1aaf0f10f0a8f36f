import { Elysia } from "elysia";
import { checkCsrf, readCookie, SESSION_COOKIE, sessionFromCookie, type SessionInfo } from "../accounts/sessions.ts";
import { findProject } from "../authoring/projects.ts";
import type { Actor } from "../changes/actor.ts";
import { forbidden, unauthorized } from "../common/errors.ts";
import type { AppDeps } from "../deps.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Who is calling the dashboard API: a signed-in user (docs/product.md §4). */
export interface Caller {
  kind: "session";
  session: SessionInfo;
  /** The user's row id, recorded as a release's creator. */
  userId: number;
  /** Who the history says made a change. */
  actor: Actor;
}

/**
 * What a route needs (docs/dashboard-api.md "Access"). Members may read and edit content; the
 * rest needs an admin.
 */
export type Access =
  /** GETs of projects and their content (keys, languages, releases, progress); who am I; signing out */
  | "read"
  /** GETs of users, tokens, webhooks and deliveries */
  | "read-private"
  /** keys, translations, import */
  | "edit"
  /** adding a language */
  | "add-language"
  /** creating, renaming and publishing releases */
  | "release"
  /** project settings and slugs, deleting languages and releases, users, tokens, webhooks */
  | "admin";

const MEMBER_MAY = new Set<Access>(["read", "read-private", "edit"]);

export function authorize(caller: Caller | undefined, access: Access): void {
  if (!caller) throw unauthorized("not logged in");
  if (caller.session.user.role === "admin" || MEMBER_MAY.has(access)) return;
  throw forbidden("this needs the admin role");
}

/**
 * The caller of a request, or 401: a valid session cookie, and for any method that changes
 * something the X-CSRF-Token of that session (403).
 */
export function authenticate(deps: Pick<AppDeps, "db" | "clock">, request: Request): Caller {
  const session = sessionFromCookie(deps.db, deps.clock, readCookie(request.headers.get("cookie"), SESSION_COOKIE));
  if (!session) throw unauthorized("not logged in");
  if (!SAFE_METHODS.has(request.method) && !checkCsrf(session, request.headers.get("x-csrf-token"))) {
    throw forbidden("missing or wrong X-CSRF-Token header");
  }
  return { kind: "session", session, userId: session.userId, actor: { kind: "user", publicId: session.user.id, name: session.user.name } };
}

/**
 * The dashboard API's request context, one per app: authentication once per request (before the
 * body is validated, so an anonymous caller learns nothing about the input), then per route the
 * access it declares (`access: "edit"`) and, for routes under `/projects/:pid`, the project
 * (`inProject: true`), 404 when there is none. Every resource's routes `.use()` this same instance.
 */
export function dashboardContext(deps: Pick<AppDeps, "db" | "clock">) {
  return new Elysia({ name: "dashboard-context" })
    .derive({ as: "scoped" }, ({ request }) => ({ caller: authenticate(deps, request) }))
    .macro({
      access: (access: Access) => ({
        beforeHandle({ caller }) {
          authorize(caller, access);
        },
      }),
      inProject: {
        resolve({ params }) {
          return { project: findProject(deps.db, (params as Record<string, string | null>).pid ?? null) };
        },
      },
    });
}

export type DashboardContext = ReturnType<typeof dashboardContext>;

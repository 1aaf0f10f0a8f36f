import { Elysia } from "elysia";
import type { AppDeps } from "../../app.ts";
import { forbidden, HttpError, unauthorized } from "../../common/errors.ts";
import { checkCsrf, readCookie, SESSION_COOKIE, sessionFromCookie, type SessionInfo } from "../sessions.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Every dashboard API route but login/setup: a valid session cookie (401), and for any method that
 * changes something the X-CSRF-Token of that session (403). Runs before body validation, so an
 * anonymous request learns nothing about the shape of the input.
 */
export function authenticate(deps: AppDeps, request: Request): SessionInfo {
  const session = sessionFromCookie(deps.db, deps.clock, readCookie(request.headers.get("cookie"), SESSION_COOKIE));
  if (!session) throw unauthorized("not logged in");
  if (!SAFE_METHODS.has(request.method) && !checkCsrf(session, request.headers.get("x-csrf-token"))) {
    throw new HttpError(403, "missing or wrong X-CSRF-Token header");
  }
  return session;
}

export function requireAdmin(session: SessionInfo): void {
  if (session.user.role !== "admin") throw forbidden("this needs the admin role");
}

export function sessionGuard(deps: AppDeps) {
  return new Elysia({ name: "session-guard" }).derive({ as: "scoped" }, ({ request }) => ({ session: authenticate(deps, request) }));
}

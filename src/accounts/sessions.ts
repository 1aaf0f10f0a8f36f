import { and, desc, eq, gt, lt, notInArray } from "drizzle-orm";
import type { Clock } from "../common/clock.ts";
import { sha256Hex, timingSafeEqualStrings } from "../common/hash.ts";
import { randomString } from "../common/ids.ts";
import type { Db } from "../storage/db.ts";
import { rowid } from "../storage/functions.ts";
import { sessions, users } from "../storage/schema.ts";
import { recordAudit } from "../audit/record.ts";
import { SESSIONS_PER_USER_MAX } from "./limits.ts";
import type { VerifiedSignIn } from "./sign-in/method.ts";
import { userView, type UserView } from "./users.ts";

export const SESSION_COOKIE = "phrasebook_session";
export const SESSION_TTL_MS = 14 * 24 * 3600 * 1000;

export interface SessionInfo {
  user: UserView;
  userId: number;
  csrfToken: string;
  /** The SHA-256 of the cookie's value: the session's row, which a password change keeps. */
  tokenHash: string;
}

/** A session just made: what the browser is given, and the cookie's value (sent once, never stored). */
export interface StartedSession {
  session: SessionInfo;
  cookieValue: string;
}

/** How a session begins: the method (recorded in the audit log and on the session) and the client's address. */
export interface SessionStart {
  method: string;
  ip: string | null;
  /** How long the session lasts; default SESSION_TTL_MS (single sign-on's is shorter: PHRASEBOOK_OIDC_SESSION_HOURS). */
  ttlMs?: number;
  /** More for the `sign_in` audit entry (a role kept for the last admin). */
  details?: Record<string, unknown>;
}

/**
 * A new session for a verified sign-in (sign-in/index.ts) or a user just created (first-run setup).
 * Inside the writing transaction the user is read again: when their credential epoch is no longer
 * the one read with the proof (a password or role changed, the user deleted, while the slow check
 * ran), there is no session and the answer is null (docs/dashboard-api.md "Sessions").
 */
export function createSession(db: Db, clock: Clock, verified: VerifiedSignIn, how: SessionStart = { method: "password", ip: null }): StartedSession | null {
  const cookieValue = randomString(43);
  const csrfToken = randomString(32);
  const tokenHash = sha256Hex(cookieValue);
  const now = clock.now();
  const current = db.transaction(
    (tx) => {
      const row = tx
        .select()
        .from(users)
        .where(and(eq(users.id, verified.user.id), eq(users.credentialEpoch, verified.epoch)))
        .get();
      if (!row) return undefined;
      tx.delete(sessions).where(lt(sessions.expiresAt, now)).run();
      const expiresAt = now + (how.ttlMs ?? SESSION_TTL_MS);
      tx.insert(sessions).values({ tokenHash, userId: row.id, csrfToken, createdAt: now, expiresAt, credentialEpoch: row.credentialEpoch, signInMethod: how.method }).run();
      // The sign-in is logged with the session it made, in its transaction (docs/dashboard-api.md "Audit log").
      recordAudit(db, clock, { actor: { kind: "user", publicId: row.publicId, name: row.name }, ip: how.ip }, {
        action: "sign_in",
        target: { kind: "user", id: row.publicId, name: row.email },
        details: { method: how.method, ...how.details },
      });
      // The user's newest sessions stay, the oldest past the limit end: successful sign-ins are not
      // throttled, and each would otherwise keep a row for 14 days (docs/dashboard-api.md "Sessions").
      const newest = tx
        .select({ tokenHash: sessions.tokenHash })
        .from(sessions)
        .where(eq(sessions.userId, row.id))
        .orderBy(desc(sessions.createdAt), desc(rowid(sessions)))
        .limit(SESSIONS_PER_USER_MAX);
      tx.delete(sessions).where(and(eq(sessions.userId, row.id), notInArray(sessions.tokenHash, newest))).run();
      return row;
    },
    { behavior: "immediate" },
  );
  if (!current) return null;
  return { session: { user: userView(current), userId: current.id, csrfToken, tokenHash }, cookieValue };
}

/** The session of a cookie: unexpired, and made under the user's current credential epoch. */
export function sessionFromCookie(db: Db, clock: Clock, cookieValue: string | undefined): SessionInfo | null {
  if (!cookieValue) return null;
  const tokenHash = sha256Hex(cookieValue);
  const row = db
    .select({ user: users, csrfToken: sessions.csrfToken })
    .from(sessions)
    .innerJoin(users, and(eq(users.id, sessions.userId), eq(users.credentialEpoch, sessions.credentialEpoch)))
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, clock.now())))
    .get();
  return row ? { user: userView(row.user), userId: row.user.id, csrfToken: row.csrfToken, tokenHash } : null;
}

export function checkCsrf(session: SessionInfo, header: string | null | undefined): boolean {
  return !!header && timingSafeEqualStrings(session.csrfToken, header);
}

/**
 * Ends the session of a cookie and logs it, in one transaction; answers how it had begun
 * ("oidc": the caller also offers the provider's logout), or null when there was none.
 */
export function logout(db: Db, clock: Clock, cookieValue: string | undefined, ip: string | null = null): string | null {
  if (!cookieValue) return null;
  return db.transaction(
    () => {
      const ended = db.delete(sessions).where(eq(sessions.tokenHash, sha256Hex(cookieValue))).returning().get();
      if (!ended) return null;
      const user = db.select().from(users).where(eq(users.id, ended.userId)).get();
      if (user) {
        recordAudit(db, clock, { actor: { kind: "user", publicId: user.publicId, name: user.name }, ip }, {
          action: "sign_out",
          target: { kind: "user", id: user.publicId, name: user.email },
          details: { method: ended.signInMethod },
        });
      }
      return ended.signInMethod;
    },
    { behavior: "immediate" },
  );
}

export function sessionCookie(value: string, secure: boolean, maxAgeSeconds = SESSION_TTL_MS / 1000): string {
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure ? "; Secure" : ""}`;
}

export function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eqAt = part.indexOf("=");
    if (eqAt > 0 && part.slice(0, eqAt).trim() === name) return part.slice(eqAt + 1).trim();
  }
  return undefined;
}

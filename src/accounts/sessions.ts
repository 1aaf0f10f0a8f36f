import { and, eq, gt, lt } from "drizzle-orm";
import type { Clock } from "../common/clock.ts";
import { unauthorized } from "../common/errors.ts";
import { sha256Hex, timingSafeEqualStrings } from "../common/hash.ts";
import { randomString } from "../common/ids.ts";
import type { Db } from "../storage/db.ts";
import { sessions, users, type UserRow } from "../storage/schema.ts";
import type { LoginThrottle } from "./login-throttle.ts";
import { verifyPassword } from "./passwords.ts";
import { normaliseEmail, userView, type UserView } from "./users.ts";

export const SESSION_COOKIE = "phrasebook_session";
export const SESSION_TTL_MS = 14 * 24 * 3600 * 1000;

export interface SessionInfo {
  user: UserView;
  userId: number;
  csrfToken: string;
  /** The SHA-256 of the cookie's value: the session's row, which a password change keeps. */
  tokenHash: string;
}

/**
 * Signing in (docs/product.md §4 "Session"). The attempt is counted before the password is
 * checked (login-throttle.ts), so parallel guesses cannot pass the limit together.
 */
export async function login(
  db: Db,
  clock: Clock,
  throttle: LoginThrottle,
  address: string,
  input: { email: string; password: string },
): Promise<{ session: SessionInfo; cookieValue: string }> {
  let email: string;
  try {
    email = normaliseEmail(input.email);
  } catch {
    throw unauthorized("wrong email or password");
  }
  const attemptedAt = throttle.attempt(address, email);
  const user = db.select().from(users).where(eq(users.email, email)).get();
  let ok: boolean;
  try {
    ok = await verifyPassword(input.password, user?.passwordHash);
  } catch (err) {
    throttle.forget(address, email, attemptedAt); // never checked: the server was too busy
    throw err;
  }
  if (!user || !ok) throw unauthorized("wrong email or password");
  throttle.succeed(address, email, attemptedAt);
  return createSession(db, clock, user);
}

/**
 * A new session for a user whose password was just checked (or who was just created). The user
 * is read again inside the writing transaction: one deleted, or whose password was changed, while
 * the slow check ran gets no session (a password change ends every session, docs/dashboard-api.md).
 */
export function createSession(db: Db, clock: Clock, user: UserRow): { session: SessionInfo; cookieValue: string } {
  const cookieValue = randomString(43);
  const csrfToken = randomString(32);
  const tokenHash = sha256Hex(cookieValue);
  const now = clock.now();
  const current = db.transaction(
    (tx) => {
      const row = tx
        .select()
        .from(users)
        .where(and(eq(users.id, user.id), eq(users.passwordHash, user.passwordHash)))
        .get();
      if (!row) throw unauthorized("wrong email or password");
      tx.delete(sessions).where(lt(sessions.expiresAt, now)).run();
      tx.insert(sessions).values({ tokenHash, userId: row.id, csrfToken, createdAt: now, expiresAt: now + SESSION_TTL_MS }).run();
      return row;
    },
    { behavior: "immediate" },
  );
  return { session: { user: userView(current), userId: current.id, csrfToken, tokenHash }, cookieValue };
}

export function sessionFromCookie(db: Db, clock: Clock, cookieValue: string | undefined): SessionInfo | null {
  if (!cookieValue) return null;
  const tokenHash = sha256Hex(cookieValue);
  const row = db
    .select({ user: users, csrfToken: sessions.csrfToken })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, clock.now())))
    .get();
  return row ? { user: userView(row.user), userId: row.user.id, csrfToken: row.csrfToken, tokenHash } : null;
}

export function checkCsrf(session: SessionInfo, header: string | null | undefined): boolean {
  return !!header && timingSafeEqualStrings(session.csrfToken, header);
}

export function logout(db: Db, cookieValue: string | undefined): void {
  if (cookieValue) db.delete(sessions).where(eq(sessions.tokenHash, sha256Hex(cookieValue))).run();
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

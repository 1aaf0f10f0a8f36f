import { and, eq, gt, lt } from "drizzle-orm";
import type { Clock } from "../common/clock.ts";
import { HttpError, unauthorized } from "../common/errors.ts";
import { sha256Hex, timingSafeEqualStrings } from "../common/hash.ts";
import { randomString } from "../common/ids.ts";
import type { Db } from "../storage/db.ts";
import { sessions, users } from "../storage/schema.ts";
import { normaliseEmail, userView, type UserView } from "./users.ts";

export const SESSION_COOKIE = "phrasebook_session";
export const SESSION_TTL_MS = 14 * 24 * 3600 * 1000;

/** Failed-login limiting: per address and email, and per address overall (credential stuffing). */
export const LOGIN_FAILURES_PER_ACCOUNT = 5;
export const LOGIN_FAILURES_PER_ADDRESS = 30;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;

export interface SessionInfo {
  user: UserView;
  userId: number;
  csrfToken: string;
}

// A fixed hash to verify against when the email is unknown, so timing does not reveal accounts.
let dummyHash: Promise<string> | undefined;

export class LoginThrottle {
  private failures = new Map<string, number[]>();

  constructor(private clock: Clock) {}

  private recent(key: string): number[] {
    const since = this.clock.now() - LOGIN_WINDOW_MS;
    const list = (this.failures.get(key) ?? []).filter((t) => t > since);
    if (list.length) this.failures.set(key, list);
    else this.failures.delete(key);
    return list;
  }

  check(address: string, email: string): void {
    const perAccount = this.recent(`${address}|${email}`);
    const perAddress = this.recent(address);
    const blocked = perAccount.length >= LOGIN_FAILURES_PER_ACCOUNT ? perAccount : perAddress.length >= LOGIN_FAILURES_PER_ADDRESS ? perAddress : null;
    if (blocked) {
      const retryAfter = Math.max(1, Math.ceil((blocked[0]! + LOGIN_WINDOW_MS - this.clock.now()) / 1000));
      throw new HttpError(429, `too many failed logins; try again in ${retryAfter} seconds`, { "retry-after": String(retryAfter) });
    }
  }

  /** Counts a failed attempt; returns the time it was counted at. */
  fail(address: string, email: string): number {
    const now = this.clock.now();
    for (const key of [`${address}|${email}`, address]) this.failures.set(key, [...this.recent(key), now]);
    return now;
  }

  /**
   * Checks, then counts the attempt as failed before the (slow) password check: guesses sent in
   * parallel all count, instead of all passing the check before the first one failed. Returns the
   * time it was counted at, for `succeed`.
   */
  attempt(address: string, email: string): number {
    this.check(address, email);
    return this.fail(address, email);
  }

  /** A success clears the account's failures and takes back the address's count of this attempt. */
  succeed(address: string, email: string, attemptedAt?: number): void {
    this.failures.delete(`${address}|${email}`);
    const perAddress = this.failures.get(address);
    const at = attemptedAt === undefined ? -1 : (perAddress?.lastIndexOf(attemptedAt) ?? -1);
    if (at >= 0) perAddress!.splice(at, 1);
  }
}

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
  dummyHash ??= Bun.password.hash("phrasebook-timing-equaliser");
  const ok = await Bun.password.verify(input.password, user?.passwordHash ?? (await dummyHash));
  if (!user || !ok) throw unauthorized("wrong email or password");
  throttle.succeed(address, email, attemptedAt);
  const cookieValue = randomString(43);
  const csrfToken = randomString(32);
  const now = clock.now();
  db.delete(sessions).where(lt(sessions.expiresAt, now)).run();
  db.insert(sessions)
    .values({ tokenHash: sha256Hex(cookieValue), userId: user.id, csrfToken, createdAt: now, expiresAt: now + SESSION_TTL_MS })
    .run();
  return { session: { user: userView(user), userId: user.id, csrfToken }, cookieValue };
}

export function sessionFromCookie(db: Db, clock: Clock, cookieValue: string | undefined): SessionInfo | null {
  if (!cookieValue) return null;
  const row = db
    .select({ user: users, csrfToken: sessions.csrfToken })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, sha256Hex(cookieValue)), gt(sessions.expiresAt, clock.now())))
    .get();
  return row ? { user: userView(row.user), userId: row.user.id, csrfToken: row.csrfToken } : null;
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

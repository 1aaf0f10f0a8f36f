import { eq } from "drizzle-orm";
import type { Clock } from "../../common/clock.ts";
import { forbidden, unauthorized } from "../../common/errors.ts";
import type { Db } from "../../storage/db.ts";
import { users } from "../../storage/schema.ts";
import { LoginThrottle } from "../login-throttle.ts";
import { Credentials } from "../model.ts";
import { verifyPassword } from "../passwords.ts";
import { normaliseEmail } from "../users.ts";
import type { FormMethod } from "./method.ts";

export interface PasswordAttempt {
  email: string;
  password: string;
  /** The client's address: failed logins are limited per address (login-throttle.ts). */
  address: string;
}

/** The one answer to every failed password sign-in (docs/dashboard-api.md "Authentication"). */
export const WRONG_EMAIL_OR_PASSWORD = "wrong email or password";
/**
 * The one answer to every password sign-in but a break-glass account's right one, where password
 * sign-in is off (docs/deploy.md "Break-glass accounts").
 */
export const PASSWORD_LOGIN_OFF = "password sign-in is turned off on this server; sign in with single sign-on, or with a break-glass account's email and password";

/**
 * Signing in with an email and a password (docs/product.md §4 "Session"), `POST /login`. The
 * attempt is counted before the password is checked (login-throttle.ts), so parallel guesses
 * cannot pass the limit together. The user's row, with its hash and credential epoch, is read once,
 * before the slow check; the session is made only if that epoch is still the user's after it.
 *
 * With password sign-in off (PHRASEBOOK_PASSWORD_LOGIN=false) only break-glass accounts pass, and
 * every other attempt gets one answer, the 403 with the reason, whatever the password and whoever
 * the account: the password is checked all the same (one argon2id check, against the account's own
 * hash), and a right password of an account that may not use it counts as a failed attempt. So
 * neither the answer, nor its cost, nor the failed-login limit tells a right password from a
 * wrong one, or a break-glass account from another (docs/dashboard-api.md "Single sign-on").
 */
export function passwordSignIn(deps: { db: Db; clock: Clock; settings?: { passwordLogin: boolean } }): FormMethod<Credentials, PasswordAttempt> {
  const offForMost = deps.settings?.passwordLogin === false;
  const throttle = new LoginThrottle(deps.clock);
  const refuse = () => (offForMost ? forbidden(PASSWORD_LOGIN_OFF) : unauthorized(WRONG_EMAIL_OR_PASSWORD));
  return {
    kind: "form",
    name: "password",
    path: "/login",
    body: Credentials,
    input: (body, address) => ({ email: body.email, password: body.password, address }),
    enabled: true,
    refusal: WRONG_EMAIL_OR_PASSWORD,
    // The login page's form; break-glass accounts still use it when it is off (docs/dashboard.md "Login").
    offer: () => !offForMost,
    async verify({ email: given, password, address }) {
      let email: string;
      try {
        email = normaliseEmail(given);
      } catch {
        throw refuse();
      }
      const attemptedAt = throttle.attempt(address, email);
      const user = deps.db.select().from(users).where(eq(users.email, email)).get();
      const hash = user?.passwordHash ?? undefined;
      let ok: boolean;
      try {
        // A user without a password is checked against the dummy hash like an unknown email, so
        // the time taken tells neither apart.
        ok = await verifyPassword(password, hash);
      } catch (err) {
        throttle.forget(address, email, attemptedAt); // never checked: the server was too busy
        throw err;
      }
      if (!user || hash === undefined || !ok) throw refuse();
      // Decided after the password, and answered as a wrong one: see above.
      if (offForMost && !user.breakGlass) throw refuse();
      throttle.succeed(address, email, attemptedAt);
      return { user, epoch: user.credentialEpoch };
    },
    attemptedEmail: ({ email }) => {
      try {
        return normaliseEmail(email);
      } catch {
        return null; // not an address: nothing worth keeping
      }
    },
  };
}
